"""Write ``ovlab/sim/runner/openvino_genai_names.json``: the public names of the real ``openvino_genai``.

    python tools/gen_genai_names.py   (needs the openvino-genai wheel installed)

The runner serves every real name: ovlab's class where it has one, else a stand-in that raises
a clear error when used (VLMPipeline, WhisperPipeline...), never at import.
"""

from __future__ import annotations

import json
from pathlib import Path

import openvino_genai

OUT = Path(__file__).resolve().parents[1] / "ovlab" / "sim" / "runner" / "openvino_genai_names.json"


def main() -> None:
    names = sorted(n for n in dir(openvino_genai) if not n.startswith("_")
                   and n not in ("os", "openvino", "py_openvino_genai"))
    OUT.write_text(json.dumps({"version": openvino_genai.__version__, "top": names}, indent=0) + "\n")
    print(f"wrote {len(names)} names to {OUT}")


if __name__ == "__main__":
    main()
