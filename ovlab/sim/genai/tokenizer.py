"""``openvino_genai.Tokenizer``: each zoo model counts tokens as its family's real tokenizer does.

Two kinds of vocabulary (``FAMILIES`` says which model has which, and what it was checked on):

- the **tiny model** keeps ovlab's course BPE of 512 tokens (``bpe.py``, ``tiny_tokenizer.json``):
  it was trained on it, and it shows BPE at a size a learner can read;
- every **large (virtual) model** tokenizes with a real tokenizer of its family, shipped in
  ``data/tokenizers/`` and run by Hugging Face ``tokenizers`` (``tools/build_llm_tokenizers.py``
  rebuilds them from the vocabularies llama.cpp ships for its tokenizer tests; only those whose
  licence allows redistribution: GPT-2, GPT-NeoX-20B, Qwen2, Phi-3 (Llama 2's SPM), Falcon).
  Where a family's own tokenizer cannot be shipped, the nearest shipped one stands in, chosen by
  measurement (``tests/genai/test_token_counts.py``: within 10 % of the family's real count on
  English prose and on code). So prompt lengths, the NPU's ``MAX_PROMPT_LEN`` and TTFTs follow
  real token counts.

``encode`` returns ``TokenizedInputs`` of int64 ``Tensor`` s as GenAI does;
``apply_chat_template`` renders ovlab's chat format (a Jinja template, as the real tokenizer
carries one) whatever the family: the chat markers are plain text to a family's vocabulary
(special tokens in Phi-3's), a few tokens more or less than the model's own template.
"""

from __future__ import annotations

import gzip
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..libc import malloc_trim
from ..runtime.tensor import Tensor
from .bpe import BPE, SPECIALS
from .chat import ChatHistory

TOKENIZER_FILE = Path(__file__).with_name("data") / "tiny_tokenizer.json"
CHAT_TEMPLATE = (
    "{% for message in messages %}<|{{ message['role'] }}|>\n{{ message['content'] }}</s>\n"
    "{% endfor %}{% if add_generation_prompt %}<|assistant|>\n{% endif %}")


def render_chat(messages: list[dict], add_generation_prompt: bool) -> str:
    """What ``CHAT_TEMPLATE`` renders, without a template engine."""
    out = "".join(f"<|{m['role']}|>\n{m['content']}</s>\n" for m in messages)
    return out + ("<|assistant|>\n" if add_generation_prompt else "")


#: zoo model -> (shipped vocabulary, how it relates to the model's real tokenizer)
FAMILIES: dict[str, tuple[str, str]] = {
    "TinyLlama-1.1B-Chat-v1.0": ("llama-spm", "Llama 2's SentencePiece BPE: its own"),
    "phi-3-mini-4k-instruct": ("llama-spm", "Phi-3's: Llama 2's 32,000 tokens and its chat tokens"),
    "mistral-7b-v0.1": ("llama-spm", "stand-in: Mistral's own 32k SentencePiece BPE, not "
                                     "available here; Llama 2's, of the same size and kind"),
    "zephyr-7b-beta": ("llama-spm", "stand-in: Mistral's 32k SentencePiece BPE, as for mistral"),
    "chatglm3-6b": ("llama-spm", "stand-in: ChatGLM3's 65k SentencePiece, not available here"),
    "baichuan2-7b-chat": ("llama-spm", "stand-in: Baichuan 2's 125k SentencePiece, not "
                                       "available here"),
    "Llama-3.2-1B-Instruct": ("qwen2", "stand-in: Llama 3's 128k tiktoken BPE (licence: not "
                                       "shipped) counts within 3 % of Qwen2's"),
    "Llama-3.2-3B-Instruct": ("qwen2", "stand-in: Llama 3's, as for Llama-3.2-1B"),
    "Qwen2.5-0.5B-Instruct": ("qwen2", "Qwen2's byte-level BPE: its own"),
    "Qwen2.5-7B-Instruct": ("qwen2", "Qwen2's byte-level BPE: its own"),
    "DeepSeek-R1-Distill-Qwen-32B": ("qwen2", "Qwen2.5's vocabulary (DeepSeek changed specials)"),
    "qwen-7b-chat": ("qwen2", "Qwen's 151k tiktoken BPE, the vocabulary Qwen2 kept"),
    "gpt-j-6b": ("gpt2", "GPT-2's byte-level BPE: its own"),
    "phi-2": ("gpt-neox", "CodeGen's: GPT-2's merges with tokens for runs of spaces, as "
                          "GPT-NeoX's has"),
    "dolly-v2-3b": ("gpt-neox", "GPT-NeoX-20B's (Pythia's): its own"),
    "stablelm-3b-4e1t": ("gpt-neox", "GPT-NeoX's: its own"),
    "stable-zephyr-3b-dpo": ("gpt-neox", "GPT-NeoX's: its own"),
    "gemma-2b-it": ("gpt-neox", "stand-in: Gemma's 256k SentencePiece (licence: not shipped) "
                                "counts within 5 % of GPT-NeoX's"),
    "gemma-7b-it": ("gpt-neox", "stand-in: Gemma's, as for gemma-2b-it"),
    "falcon-7b-instruct": ("falcon", "Falcon's byte-level BPE: its own"),
}
#: vocabulary -> (bos, eos, pad) token strings (eos: the chat models' end of turn)
SPECIAL_TOKENS = {
    "llama-spm": ("<s>", "</s>", "<unk>"),
    "qwen2": ("<|endoftext|>", "<|im_end|>", "<|endoftext|>"),
    "gpt2": ("<|endoftext|>", "<|endoftext|>", "<|endoftext|>"),
    "gpt-neox": ("<|endoftext|>", "<|endoftext|>", "<|padding|>"),
    "falcon": ("<|endoftext|>", "<|endoftext|>", "<|endoftext|>"),
}
VOCAB_DIR = Path(__file__).with_name("data") / "tokenizers"


class _CourseVocab:
    """ovlab's course BPE of 512 tokens (the tiny model's)."""

    name = "ovlab-course-bpe"

    def __init__(self) -> None:
        self.bpe = _shared_bpe()
        self.specials = (1, 2, 0)
        self.special_strings = (SPECIALS[1], SPECIALS[2], SPECIALS[0])

    def encode(self, text: str) -> list[int]:
        return self.bpe.encode(text)

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        return self.bpe.decode(ids, skip_special_tokens)

    def vocab(self) -> list[str]:
        return [p.decode("utf-8", errors="replace") for p in self.bpe.pieces]


#: the merges a byte-level family ships (its first ones, in rank order; applied by
#: ``tools/build_llm_tokenizers.py``). Qwen2's full 151k vocabulary cost 103 MB in a kernel
#: (``tokenizers``' maps), which took labs 13 and 14 to 280 MB; its first 60,000 merges cost
#: 41 MB and count +3.0 % tokens on the prose and +2.9 % on the code sample of
#: ``tests/genai/data/token_sample.json`` (2026-12-07). English text rarely needs the later
#: merges, mostly other scripts' words. SentencePiece vocabularies (llama-spm) are kept whole:
#: their merges are not in production order.
MAX_MERGES = 60_000


def cut_merges(tokenizer_json: str, family: str) -> str:
    """A byte-level BPE's ``tokenizer.json`` cut to its first :data:`MAX_MERGES` merges. Each
    merge's parts come from earlier merges or the bytes, so the cut is a valid BPE, and every
    kept token keeps its real id."""
    import json

    data = json.loads(tokenizer_json)
    model = data["model"]
    merges = model.get("merges", [])
    if family == "llama-spm" or len(merges) <= MAX_MERGES:
        return tokenizer_json

    def joined(m) -> str:
        return m.replace(" ", "") if isinstance(m, str) else "".join(m)

    produced = {joined(m) for m in merges}
    kept = {joined(m) for m in merges[:MAX_MERGES]}
    model["merges"] = merges[:MAX_MERGES]
    model["vocab"] = {t: i for t, i in model["vocab"].items() if t not in produced or t in kept}
    return json.dumps(data, ensure_ascii=False)


class _FamilyVocab:
    """A real family's vocabulary, run by Hugging Face ``tokenizers``."""

    def __init__(self, name: str) -> None:
        from tokenizers import Tokenizer as HFTokenizer

        self.name = name
        self.tok = HFTokenizer.from_str(gzip.decompress((VOCAB_DIR / f"{name}.json.gz")
                                                        .read_bytes()).decode())
        # the read leaves about as much freed as it keeps (Qwen2's: 44 MB resident after it,
        # 21 MB after the trim, 2026-12-07), and a learner's kernel has a memory budget
        malloc_trim()
        self.special_strings = SPECIAL_TOKENS[name]
        from tokenizers import AddedToken

        # bos, eos and pad are special (skipped by decode) whatever the vocabulary file says
        self.tok.add_special_tokens([AddedToken(t, special=True, normalized=False)
                                     for t in dict.fromkeys(self.special_strings)])
        self.specials = tuple(int(self.tok.token_to_id(t)) for t in self.special_strings)
        # SentencePiece's dummy prefix: a text is encoded with a space before it
        self.prepends_space = name == "llama-spm"

    def encode(self, text: str) -> list[int]:
        return self.tok.encode(text, add_special_tokens=False).ids

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        return self.tok.decode(list(ids), skip_special_tokens=skip_special_tokens)

    def vocab(self) -> list[str]:
        v = self.tok.get_vocab(with_added_tokens=True)
        out = [""] * (max(v.values()) + 1)
        for piece, i in v.items():
            out[i] = piece
        return out


@cache
def vocabulary(name: str) -> _CourseVocab | _FamilyVocab:
    """A vocabulary by name (``"ovlab-course-bpe"`` or a ``FAMILIES`` one), loaded once."""
    return _CourseVocab() if name == _CourseVocab.name else _FamilyVocab(name)


def vocabulary_for(models_path: Any) -> _CourseVocab | _FamilyVocab:
    """The vocabulary of the zoo model a path names; the course BPE for the tiny model or a
    path that names no zoo model."""
    from ..models import llm_zoo as zoo
    from . import markers as export

    marked = export.marker_in_ir(models_path) if models_path is not None else None
    if marked is None and models_path is not None:
        marked = export.marker_of(models_path)
    if marked is not None:  # an exported folder, or its tokenizer IR read into a string
        models_path = export.zoo_path(*marked)
    found = zoo.parse_dir_name(Path(str(models_path)).name) if models_path is not None else None
    if found is None or found[0].name not in FAMILIES:
        return vocabulary(_CourseVocab.name)
    return vocabulary(FAMILIES[found[0].name][0])


class TokenizedInputs:
    """``input_ids`` and ``attention_mask``, int64 tensors of shape [batch, tokens]."""

    def __init__(self, input_ids: Any, attention_mask: Any) -> None:
        self.input_ids = input_ids if isinstance(input_ids, Tensor) else Tensor(np.asarray(input_ids))
        self.attention_mask = (attention_mask if isinstance(attention_mask, Tensor)
                               else Tensor(np.asarray(attention_mask)))


class Tokenizer:
    """Text to token ids and back. ``Tokenizer(tokenizer_path)`` loads the vocabulary of the
    zoo model the folder names (its family's real one, ``FAMILIES``; the course BPE for the tiny
    model and for a folder that names no zoo model); the folder need not exist."""

    def __init__(self, tokenizer_path: Any = None, properties: Any = None, *args: Any,
                 **kwargs: Any) -> None:
        # also (tokenizer_model, tokenizer_weights, detokenizer_model, detokenizer_weights): IRs
        # read into strings, as an exported folder's (export.py) carry the model's marker
        self._vocab = vocabulary_for(tokenizer_path)
        self.chat_template = CHAT_TEMPLATE

    @property
    def vocabulary_name(self) -> str:
        """Which vocabulary counts the tokens (ovlab's addition: ``FAMILIES``)."""
        return self._vocab.name

    # --- special tokens ------------------------------------------------------------------------
    def get_pad_token_id(self) -> int:
        return self._vocab.specials[2]

    def get_bos_token_id(self) -> int:
        return self._vocab.specials[0]

    def get_eos_token_id(self) -> int:
        return self._vocab.specials[1]

    def get_pad_token(self) -> str:
        return self._vocab.special_strings[2]

    def get_bos_token(self) -> str:
        return self._vocab.special_strings[0]

    def get_eos_token(self) -> str:
        return self._vocab.special_strings[1]

    def get_vocab(self) -> dict:
        return {p: i for i, p in enumerate(self._vocab.vocab())}

    def get_vocab_vector(self) -> list[str]:
        return self._vocab.vocab()

    def supports_paired_input(self) -> bool:
        return False

    # --- encode / decode -------------------------------------------------------------------------
    def encode(self, prompts: Any, add_special_tokens: bool = True, pad_to_max_length: bool = False,
               max_length: int | None = None, padding_side: str | None = None,
               truncation: bool = False) -> TokenizedInputs:
        """One prompt or a list of prompts; a batch is padded to its longest prompt (or to
        ``max_length`` with ``pad_to_max_length``) on ``padding_side`` (default right)."""
        batch = [prompts] if isinstance(prompts, str) else list(prompts)
        if not all(isinstance(p, str) for p in batch):
            raise TypeError("Tokenizer.encode takes a str or a list of str (paired inputs are not "
                            "supported by this tokenizer)")
        ids = [self._vocab.encode(p) for p in batch]
        if truncation and max_length is not None:
            ids = [t[:max_length] for t in ids]
        width = max((len(t) for t in ids), default=0)
        if pad_to_max_length and max_length is not None:
            width = max(width, int(max_length))
        side = padding_side or "right"
        if side not in ("left", "right"):
            raise ValueError(f"padding_side must be 'left' or 'right', not {side!r}")
        out = np.zeros((len(ids), width), np.int64)
        mask = np.zeros((len(ids), width), np.int64)
        for i, t in enumerate(ids):
            sl = slice(0, len(t)) if side == "right" else slice(width - len(t), width)
            out[i, sl], mask[i, sl] = t, 1
        return TokenizedInputs(Tensor(out), Tensor(mask))

    def decode(self, tokens: Any, skip_special_tokens: bool = True) -> str | list[str]:
        """A list of ids decodes to a str; a Tensor or a list of lists to a list of str."""
        if isinstance(tokens, Tensor):
            return [self._vocab.decode([int(t) for t in row], skip_special_tokens)
                    for row in np.asarray(tokens.data)]
        tokens = list(tokens)
        if tokens and not isinstance(tokens[0], (int, np.integer)):
            return [self._vocab.decode([int(t) for t in row], skip_special_tokens) for row in tokens]
        return self._vocab.decode([int(t) for t in tokens], skip_special_tokens)

    # --- chat ----------------------------------------------------------------------------------------
    def apply_chat_template(self, history: Any, add_generation_prompt: bool, chat_template: str = "",
                            tools: list | None = None, extra_context: dict | None = None) -> str:
        messages = history.get_messages() if isinstance(history, ChatHistory) else list(history)
        template = chat_template or self.chat_template
        if template == CHAT_TEMPLATE:
            return render_chat(messages, add_generation_prompt)
        try:
            import jinja2
        except ModuleNotFoundError:
            raise RuntimeError("a custom chat template needs jinja2 (pip install jinja2)") from None
        env = jinja2.Environment(undefined=jinja2.StrictUndefined)
        return env.from_string(template).render(messages=messages, tools=tools or [],
                                                add_generation_prompt=add_generation_prompt,
                                                **(extra_context or {}))

    def set_chat_template(self, chat_template: str) -> None:
        self.chat_template = chat_template

    def get_original_chat_template(self) -> str:
        return CHAT_TEMPLATE


_BPE: BPE | None = None


def _shared_bpe() -> BPE:
    global _BPE
    if _BPE is None:
        _BPE = BPE.from_json(TOKENIZER_FILE)
    return _BPE
