"""Build the real-family tokenizers ovlab ships (``ovlab/sim/genai/data/tokenizers/*.json.gz``).

    pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36
    tar xzf llama_cpp_python-0.3.36.tar.gz
    python tools/build_llm_tokenizers.py llama_cpp_python-0.3.36/vendor/llama.cpp

Each is a Hugging Face ``tokenizers`` file rebuilt from the vocabulary llama.cpp ships for its
tokenizer tests (``models/ggml-vocab-NAME.gguf``, read with llama.cpp's ``gguf-py``), and only
vocabularies whose models' licences allow redistribution are built: GPT-2 (MIT), GPT-NeoX-20B
(Apache-2.0), Qwen2 (Apache-2.0), Phi-3 (MIT; its 32,064 tokens are Llama 2's 32,000 and 64
chat tokens) and Falcon (Apache-2.0). The byte-level ones keep their merges and their
pre-tokenizer regex (``tools/measure_tokenizers.py``); Phi-3's SentencePiece BPE is turned into
merges ordered by score, as ``transformers``' converter does. The build checks every file
against llama.cpp's expected token ids (``.gguf.inp`` / ``.gguf.out``).
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure_tokenizers as mt  # noqa: E402

from ovlab.sim.genai.tokenizer import cut_merges  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "ovlab" / "sim" / "genai" / "data" / "tokenizers"
BUILT = {"gpt-2": "gpt2", "gpt-neox": "gpt-neox", "qwen2": "qwen2", "phi-3": "llama-spm",
         "falcon": "falcon"}


def byte_level(v: dict):
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

    vocab = {t: i for i, t in enumerate(v["tokens"])}
    merges = [tuple(m.split(" ", 1)) for m in v["merges"]]
    tok = Tokenizer(models.BPE(vocab, merges))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(p), behavior="isolated") for p in mt.PRE.get(v["pre"], [mt.GPT2])]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    return tok


def spm_bpe(v: dict):
    from tokenizers import Tokenizer, decoders, models, normalizers

    tokens, scores, kinds = v["tokens"], v["scores"], [int(k) for k in v["token_type"]]
    vocab = {t: i for i, t in enumerate(tokens)}
    normal = {t for t, k in zip(tokens, kinds, strict=True) if k == 1}
    merges = []
    for piece in sorted(normal, key=lambda t: -scores[vocab[t]]):
        local = [(piece[:i], piece[i:]) for i in range(1, len(piece))
                 if piece[:i] in normal and piece[i:] in normal]
        local.sort(key=lambda lr: (vocab[lr[0]], vocab[lr[1]]))
        merges.extend(local)
    tok = Tokenizer(models.BPE(vocab, merges, byte_fallback=True, fuse_unk=True, unk_token=tokens[0]))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("\u2581"),
                                           normalizers.Replace(" ", "\u2581")])
    tok.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(),
                                     decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    return tok


def check(tok, gguf_path: Path) -> tuple[int, int]:
    if not Path(str(gguf_path) + ".inp").exists():  # gpt-neox: llama.cpp has no test for it
        gguf_path = gguf_path.with_name("ggml-vocab-mpt.gguf")  # the same vocabulary (MPT's)
    inp = Path(str(gguf_path) + ".inp").read_text().split("\n__ggml_vocab_test__\n")
    out = Path(str(gguf_path) + ".out").read_text().split("\n")
    ok = sum(tok.encode(t, add_special_tokens=False).ids == [int(x) for x in o.split()]
             for t, o in zip(inp, out, strict=False))
    return ok, min(len(inp), len(out))


def main(tree: str) -> None:
    from tokenizers import AddedToken

    OUT.mkdir(parents=True, exist_ok=True)
    for name, family in BUILT.items():
        path = Path(tree) / "models" / f"ggml-vocab-{name}.gguf"
        v = mt.read_gguf(path)
        tok = byte_level(v) if v["model"] == "gpt2" else spm_bpe(v)
        kinds = [int(k) for k in v["token_type"]]
        tok.add_special_tokens([AddedToken(t, special=True, normalized=False)
                                for t, k in zip(v["tokens"], kinds, strict=True) if k == 3])
        ok, n = check(tok, path)
        print(f"{name} -> {family}: {len(v['tokens'])} tokens, llama.cpp's tests {ok}/{n} exact")
        text = cut_merges(tok.to_str(), family)  # the kernel's memory: tokenizer.MAX_MERGES
        (OUT / f"{family}.json.gz").write_bytes(gzip.compress(text.encode(), 9, mtime=0))


if __name__ == "__main__":
    main(sys.argv[1])
