"""Build the opening deck (``docs/deck/opening.ipynb``) as reveal.js slides that need no network.

    python tools/build_deck.py                 # -> artifacts/deck/opening.slides.html
    python tools/build_deck.py --out DIR

Why not plain ``jupyter nbconvert --to slides``: its template loads reveal.js 4 from unpkg, and
jQuery, require.js, MathJax and mermaid from cdnjs, so the slides are blank in a room without
internet. Here the template ``docs/deck/template/ovlab-deck`` loads nothing from the network,
and reveal.js (5.2, MIT) comes from a package that ships it: the ``sphinx-revealjs`` wheel
(Apache-2.0), whose ``_static/revealjs`` has reveal's ``dist/`` and plugins in the layout
nbconvert's ``--reveal-prefix`` expects. Only the wheel's files are read (Sphinx is not
installed): from the installed package if there is one, else from the wheel in ``wheelhouse/``
(``make wheelhouse`` puts it there), else through ``pip download`` (pip's cache, or PyPI). The
HTML and its ``reveal.js/`` folder beside it then open from disk, or from any static server.

The notebook is built as stored (its outputs are checked by nbval in ``make test``); re-run it
with ``jupyter nbconvert --to notebook --execute --inplace docs/deck/opening.ipynb`` after an
edit.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "docs" / "deck" / "opening.ipynb"
TEMPLATES = ROOT / "docs" / "deck" / "template"
WHEELHOUSE = ROOT / "wheelhouse"
REVEAL_PACKAGE = "sphinx-revealjs>=3.2"
REVEAL_IN_WHEEL = "sphinx_revealjs/_static/revealjs/"
# what the slides load: reveal's script, style and themes, and the speaker-notes plugin
KEEP = ("dist/", "plugin/notes/", "LICENSE")
THEME = "white"


def _installed() -> Path | None:
    try:
        import sphinx_revealjs  # type: ignore[import-not-found]
    except ImportError:
        return None
    static = Path(sphinx_revealjs.__file__).parent / "_static" / "revealjs"
    return static if (static / "dist" / "reveal.js").exists() else None


def _wheel(scratch: Path) -> Path:
    """The sphinx-revealjs wheel: the wheelhouse's, else one pip downloads (or finds cached)."""
    found = sorted(WHEELHOUSE.glob("sphinx_revealjs-*.whl"))
    if found:
        return found[-1]
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(scratch),
           REVEAL_PACKAGE]
    done = subprocess.run(cmd, capture_output=True, text=True)
    wheels = sorted(scratch.glob("sphinx_revealjs-*.whl"))
    if done.returncode or not wheels:
        raise SystemExit("build_deck: no reveal.js here: sphinx-revealjs is not installed, not in "
                         f"{WHEELHOUSE.relative_to(ROOT)}/ and pip could not download it "
                         f"({done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'no output'}); "
                         "run `make wheelhouse` once with a network")
    return wheels[-1]


def copy_reveal(dest: Path) -> str:
    """reveal.js's files the slides load, into ``dest``; returns where they came from."""
    if dest.exists():
        shutil.rmtree(dest)
    static = _installed()
    if static is not None:
        for part in KEEP:
            src = static / part
            if src.is_dir():
                shutil.copytree(src, dest / part)
            elif src.exists():
                (dest / part).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / part)
        return f"the installed sphinx_revealjs ({static})"
    with tempfile.TemporaryDirectory() as tmp:
        wheel = _wheel(Path(tmp))
        with zipfile.ZipFile(wheel) as zf:
            for name in zf.namelist():
                if not name.startswith(REVEAL_IN_WHEEL) or name.endswith("/"):
                    continue
                rel = name[len(REVEAL_IN_WHEEL):]
                if rel.startswith(KEEP):
                    target = dest / rel
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(name))
        source = wheel.name
    if not (dest / "dist" / "reveal.js").exists():
        raise SystemExit(f"build_deck: {source} has no reveal.js under {REVEAL_IN_WHEEL}")
    return source


# a script or style sheet fetched from the network (links in the text, <a href>, are fine)
REMOTE = re.compile(r"<(?:script|link)\b[^>]*\b(?:src|href)=[\"']?(?:https?:)?//", re.I)
IMPORT = re.compile(r"\bimport\b[^;\n]*[\"'](?:https?:)?//", re.I)
CSS_IMPORT = re.compile(r"@import\s+(?:url\()?[\"']?(?:https?:)?//[^;]*", re.I)


def remote_loads(html: str) -> list[str]:
    """Every tag or module import in ``html`` that would load something over the network."""
    return [m.group(0) for m in REMOTE.finditer(html)] + [m.group(0) for m in IMPORT.finditer(html)]


def build(out: Path) -> Path:
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    out.mkdir(parents=True, exist_ok=True)
    source = copy_reveal(out / "reveal.js")
    config = Config()
    config.TemplateExporter.extra_template_basedirs = [str(TEMPLATES)]
    # cells tagged remove_input show their output alone on a slide (the track's table)
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {"remove_input"}
    exporter = SlidesExporter(config=config, template_name="ovlab-deck")
    exporter.reveal_url_prefix = "reveal.js"
    # reveal's "white" theme: its font ships with it (nbconvert's default, "simple", and most
    # others import theirs from Google Fonts)
    exporter.reveal_theme = THEME
    html, _resources = exporter.from_filename(str(DECK))
    remote = remote_loads(html)
    theme = out / "reveal.js" / "dist" / "theme" / f"{THEME}.css"
    remote += [m.group(0) for m in CSS_IMPORT.finditer(theme.read_text(encoding="utf-8"))]
    if remote:
        raise SystemExit("build_deck: the slides would load from the network: " + "; ".join(remote))
    target = out / "opening.slides.html"
    target.write_text(html, encoding="utf-8")
    print(f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: "
          f"{len(html) // 1024} KB, reveal.js from {source}; open it in a browser (offline)")
    return target


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "deck")
    build(parser.parse_args(argv).out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
