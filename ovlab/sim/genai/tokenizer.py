"""``openvino_genai.Tokenizer`` over ovlab's byte-level BPE (``bpe.py``).

Every model of ovlab's LLM zoo speaks this vocabulary of 512 tokens (the tiny real model was
trained on it; the large models' stand-in samples in it), so token counts are those of a small
BPE: close to a real tokenizer's on the simple English the labs use. ``encode`` returns
``TokenizedInputs`` of int64 ``Tensor`` s as GenAI does; ``apply_chat_template`` renders the
tiny model's chat format (a Jinja template, as the real tokenizer carries one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

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


class TokenizedInputs:
    """``input_ids`` and ``attention_mask``, int64 tensors of shape [batch, tokens]."""

    def __init__(self, input_ids: Any, attention_mask: Any) -> None:
        self.input_ids = input_ids if isinstance(input_ids, Tensor) else Tensor(np.asarray(input_ids))
        self.attention_mask = (attention_mask if isinstance(attention_mask, Tensor)
                               else Tensor(np.asarray(attention_mask)))


class Tokenizer:
    """Text to token ids and back. ``Tokenizer(tokenizer_path)`` loads ovlab's BPE whatever the
    folder (a zoo model's folder need not exist, as for the pipelines)."""

    def __init__(self, tokenizer_path: Any = None, properties: dict | None = None, **kwargs: Any) -> None:
        self._bpe = _shared_bpe()
        self.chat_template = CHAT_TEMPLATE

    # --- special tokens ------------------------------------------------------------------------
    def get_pad_token_id(self) -> int:
        return 0

    def get_bos_token_id(self) -> int:
        return 1

    def get_eos_token_id(self) -> int:
        return 2

    def get_pad_token(self) -> str:
        return SPECIALS[0]

    def get_bos_token(self) -> str:
        return SPECIALS[1]

    def get_eos_token(self) -> str:
        return SPECIALS[2]

    def get_vocab(self) -> dict:
        return {p.decode("utf-8", errors="replace"): i for i, p in enumerate(self._bpe.pieces)}

    def get_vocab_vector(self) -> list[str]:
        return [p.decode("utf-8", errors="replace") for p in self._bpe.pieces]

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
        ids = [self._bpe.encode(p) for p in batch]
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
            return [self._bpe.decode(row, skip_special_tokens) for row in np.asarray(tokens.data)]
        tokens = list(tokens)
        if tokens and not isinstance(tokens[0], (int, np.integer)):
            return [self._bpe.decode([int(t) for t in row], skip_special_tokens) for row in tokens]
        return self._bpe.decode([int(t) for t in tokens], skip_special_tokens)

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
