"""Measure real tokenizers on a fixed prose and code sample: the ground truth of ovlab's token
counts (``tests/genai/data/tokenizer_ground_truth.json``).

    pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36
    tar xzf llama_cpp_python-0.3.36.tar.gz
    python tools/measure_tokenizers.py llama_cpp_python-0.3.36/vendor/llama.cpp

llama.cpp's source ships the vocabularies of real tokenizers as vocabulary-only GGUF files
(``models/ggml-vocab-*.gguf``: tokens, scores or merges, pre-tokenizer name), the ones its own
tokenizer tests run on. This tool rebuilds each as a Hugging Face ``tokenizers`` BPE (byte-level
families) or a SentencePiece BPE model (``llama`` SPM families), counts the tokens of the
sample, and writes the counts. Nothing of those files is committed; ovlab's shipped vocabularies
(``tools/build_llm_tokenizers.py``) are checked against these counts by
``tests/genai/test_token_counts.py``. Needs ``gguf`` (llama.cpp's gguf-py, in the same tree),
``tokenizers`` and ``sentencepiece``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "tests" / "genai" / "data" / "token_sample.json"
OUT = ROOT / "tests" / "genai" / "data" / "tokenizer_ground_truth.json"

# llama.cpp's pre-tokenizer regexes (src/llama-vocab.cpp), per tokenizer.ggml.pre
GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
LLAMA3 = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"""
          r"""[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
QWEN2 = (r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+"""
         r"""[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""")
FALCON = [r"""[\p{P}\$\+<=>\^~\|`]+""", GPT2, r"""[0-9][0-9][0-9]"""]
PRE = {"gpt-2": [GPT2], None: [GPT2], "mpt": [GPT2], "llama-bpe": [LLAMA3], "qwen2": [QWEN2],
       "falcon": FALCON}
#: the vocabularies measured, by llama.cpp's file name
FILES = ["llama-spm", "phi-3", "llama-bpe", "qwen2", "gpt-2", "gpt-neox", "falcon", "baichuan",
         "gemma-4", "mpt"]


def read_gguf(path: Path) -> dict:
    import gguf

    r = gguf.GGUFReader(str(path))

    def get(key):
        field = r.fields.get(key)
        return None if field is None else field.contents()

    return {k.split(".")[-1]: get(k) for k in (
        "tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.tokens",
        "tokenizer.ggml.scores", "tokenizer.ggml.token_type", "tokenizer.ggml.merges",
        "tokenizer.ggml.add_space_prefix")}


def byte_level(v: dict):
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

    vocab = {t: i for i, t in enumerate(v["tokens"])}
    merges = [tuple(m.split(" ", 1)) for m in v["merges"]]
    tok = Tokenizer(models.BPE(vocab, merges, ignore_merges=v["pre"] == "llama-bpe"))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Split(Regex(p), behavior="isolated") for p in PRE.get(v["pre"], [GPT2])]
        + [pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = decoders.ByteLevel()
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def sentencepiece(v: dict, dummy_prefix: bool = True):
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2 as pb

    m = pb.ModelProto()
    m.trainer_spec.model_type = pb.TrainerSpec.BPE
    m.trainer_spec.byte_fallback = True
    m.normalizer_spec.name = "identity"
    m.normalizer_spec.add_dummy_prefix = dummy_prefix
    m.normalizer_spec.remove_extra_whitespaces = False
    m.normalizer_spec.escape_whitespaces = True
    scores = v["scores"] if v["scores"] is not None else [-float(i) for i in range(len(v["tokens"]))]
    unk = False
    for tok, score, kind in zip(v["tokens"], scores, v["token_type"], strict=True):
        kind = int(kind) if int(kind) in (1, 2, 3, 4, 5, 6) else 1
        if kind == 2:
            kind, unk = (2 if not unk else 3), True
        p = m.pieces.add()
        p.piece, p.score, p.type = tok, float(score), kind
    sp = spm.SentencePieceProcessor(model_proto=m.SerializeToString())
    return lambda text: len(sp.encode(text))


def counter(path: Path):
    v = read_gguf(path)
    if v["model"] == "gpt2":
        return byte_level(v)
    if v["model"] == "gemma4" and v["merges"]:
        return spm_merges(v)
    return sentencepiece(v, dummy_prefix=v["add_space_prefix"] is not False)


def spm_merges(v: dict):
    """A SentencePiece-style BPE given as merges (Gemma 4): spaces as '▁', no dummy prefix."""
    from tokenizers import Tokenizer, models, normalizers

    vocab = {t: i for i, t in enumerate(v["tokens"])}
    merges = [tuple(m.split(" ", 1)) for m in v["merges"]]
    tok = Tokenizer(models.BPE(vocab, merges, byte_fallback=True))
    tok.normalizer = normalizers.Replace(" ", "\u2581")
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def main(tree: str) -> None:
    sample = json.loads(SAMPLE.read_text())
    out = {"source": "llama.cpp models/ggml-vocab-*.gguf (llama-cpp-python 0.3.36 sdist)",
           "chars": {k: len(t) for k, t in sample.items()}, "counts": {}}
    for name in FILES:
        count = counter(Path(tree) / "models" / f"ggml-vocab-{name}.gguf")
        out["counts"][name] = {k: count(t) for k, t in sample.items()}
        print(name, out["counts"][name])
    OUT.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
