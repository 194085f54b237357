"""``GenerationConfig``, the streamer types and the enums of ``openvino_genai``.

Field names and defaults are the 2026.4 wheel's (``tests/genai/test_api_surface.py`` reads them
from it); ``validate()`` raises the checks of ``generation_config.cpp`` that a learner meets.
Beam search, prompt-lookup and tree decoding, structured output and adapters are GenAI
features this simulator does not run (speculative decoding runs with a draft model,
``speculative.py``): setting them is allowed, generating with them raises a
clear error naming the feature.
"""

from __future__ import annotations

import copy
import enum
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

SIZE_MAX = 2**64 - 1


class StreamingStatus(enum.IntEnum):
    """What a streamer answers after each token: go on, stop (keep the text), or cancel."""

    RUNNING = 0
    STOP = 1
    CANCEL = 2
    TOOL_CALL_STOP = 3


class StopCriteria(enum.IntEnum):
    """Beam search's stopping condition (kept for the API; beam search is not simulated)."""

    EARLY = 0
    HEURISTIC = 1
    NEVER = 2


class GenerationFinishReason(enum.IntEnum):
    NONE = 0
    STOP = 1
    LENGTH = 2
    TOOL_CALL = 3


_DEFAULTS: dict[str, Any] = {
    "adapters": None, "apply_chat_template": True, "assistant_confidence_threshold": 0.0,
    "branching_factor": 1, "diversity_penalty": 0.0, "do_sample": False, "echo": False,
    "eos_token_id": -1, "frequency_penalty": 0.0, "ignore_eos": False,
    "include_stop_str_in_output": False, "length_penalty": 1.0, "logprobs": 0,
    "max_length": SIZE_MAX, "max_new_tokens": SIZE_MAX, "max_ngram_size": 0, "min_new_tokens": 0,
    "min_p": 0.0, "no_repeat_ngram_size": SIZE_MAX, "num_assistant_tokens": None,
    "num_beam_groups": 1, "num_beams": 1, "num_return_sequences": 1, "parsers": [],
    "presence_penalty": 0.0, "pruning_ratio": 0, "relevance_weight": 0.5,
    "repetition_penalty": 1.0, "return_omni_outputs": False, "rng_seed": 0,
    "stop_criteria": StopCriteria.HEURISTIC, "stop_strings": set(), "stop_token_ids": set(),
    "structured_output_config": None, "temperature": 1.0, "top_k": SIZE_MAX, "top_p": 1.0,
    "tree_depth": 0,
}


class GenerationConfig:
    """How to generate: length, sampling, stop conditions (``ov::genai::GenerationConfig``).

    ``GenerationConfig(json_path)`` reads a ``generation_config.json``;
    ``GenerationConfig(**kwargs)`` sets fields by name."""

    def __init__(self, json_path: Any = None, **kwargs: Any) -> None:
        for name, value in _DEFAULTS.items():
            object.__setattr__(self, name, copy.copy(value))
        if json_path is not None:
            data = json.loads(Path(json_path).read_text())
            self.update_generation_config(**{k: v for k, v in data.items() if k in _DEFAULTS})
        self.update_generation_config(**kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in _DEFAULTS:
            raise AttributeError(f"'GenerationConfig' object has no attribute '{name}'")
        if name in ("stop_strings", "stop_token_ids"):
            value = set(value)
        object.__setattr__(self, name, value)

    def update_generation_config(self, **kwargs: Any) -> None:
        for name, value in kwargs.items():
            if name not in _DEFAULTS:
                raise ValueError(f"GenerationConfig has no field '{name}' (fields: "
                                 f"{', '.join(sorted(_DEFAULTS))})")
            setattr(self, name, value)

    def set_eos_token_id(self, tokenizer_eos_token_id: int) -> None:
        self.eos_token_id = int(tokenizer_eos_token_id)
        self.stop_token_ids.add(self.eos_token_id)

    # --- which decoding this is (generation_config.cpp) ----------------------------------------
    def is_greedy_decoding(self) -> bool:
        return not self.do_sample and not self.is_beam_search()

    def is_beam_search(self) -> bool:
        return self.num_beams > 1

    def is_multinomial(self) -> bool:
        return bool(self.do_sample)

    def is_assisting_generation(self) -> bool:
        return bool(self.num_assistant_tokens) or self.assistant_confidence_threshold > 0

    def is_prompt_lookup(self) -> bool:
        return self.max_ngram_size > 0 and bool(self.num_assistant_tokens)

    def is_tree_search(self) -> bool:
        return self.tree_depth > 0

    def get_max_new_tokens(self, prompt_length: int = 0) -> int:
        if self.max_new_tokens != SIZE_MAX:
            return int(self.max_new_tokens)
        return int(self.max_length) - prompt_length

    def validate(self) -> None:
        """GenAI's checks, with its messages (the ones a text-generation user can hit)."""
        def check(ok: bool, message: str) -> None:
            if not ok:
                raise RuntimeError(message)

        check(self.max_new_tokens != SIZE_MAX or self.max_length != SIZE_MAX,
              "'max_new_tokens' must be set")  # set by LLMPipeline to its default otherwise
        check(self.max_new_tokens > 0 or self.echo,
              "'max_new_tokens' must be greater when 'echo' is disabled")
        check(self.min_new_tokens <= self.max_new_tokens,
              "min_new_tokens must be less or equal max_new_tokens")
        check(self.eos_token_id != -1 or self.stop_token_ids or self.stop_strings or self.ignore_eos
              or self.max_new_tokens != SIZE_MAX or self.max_length != SIZE_MAX,
              "Either 'eos_token_id', or 'stop_token_ids', or 'stop_strings', or 'max_new_tokens', "
              "or 'max_length' should be defined.")
        if self.do_sample:
            check(self.temperature > 0, "When 'do_sample' is true, temperature must be a strictly "
                  f"positive float, but got {self.temperature:g}")
            check(0 < self.top_p <= 1, f"When 'do_sample' is true, top_p must be a positive float "
                  f"> 0.0 and <= 1.0, but got {self.top_p:g}")
            check(self.top_k > 0, "When 'do_sample' is true, top_k must be a strictly positive, "
                  f"but got {self.top_k}")
        check(self.repetition_penalty > 0, "'repetition_penalty' must be a strictly positive "
              f"float, but got {self.repetition_penalty:g}")
        check(self.num_return_sequences > 0, "num_return_sequences must be greater than 0")
        if self.is_assisting_generation():
            check(not self.is_beam_search() and self.num_return_sequences == 1,
                  "Beam search and parallel sampling are not compatible with assistant generation")
            check(self.assistant_confidence_threshold == 0.0 or not self.num_assistant_tokens,
                  "Parameters `assistant_confidence_threshold` and `num_assistant_tokens` are "
                  "mutually exclusive in `GenerationConfig`")
        if not self.num_assistant_tokens:
            check(self.max_ngram_size == 0, "'max_ngram_size' should be set to default value 0 "
                  "when prompt lookup is disabled")

    def unsupported_feature(self) -> str | None:
        """The first GenAI decoding feature set here that ovlab does not simulate, or None.
        (Beam search is simulated on the real tiny model in continuous batching: the engine
        lets it through there, ``beam_search.py``.)"""
        if self.is_beam_search():
            return ("beam search (num_beams > 1) on a virtual model's stand-in text or a "
                    "stateful (NPU) pipeline; it runs on tiny-llm in continuous batching")
        if self.num_return_sequences > 1:
            return "several return sequences"
        # num_assistant_tokens / assistant_confidence_threshold alone are ignored without a
        # draft model, as GenAI's continuous batching ignores them (speculative.py runs them)
        if self.is_prompt_lookup() or self.is_tree_search():
            return "prompt-lookup / tree decoding"
        if self.structured_output_config is not None:
            return "structured output"
        if self.adapters is not None:
            return "LoRA adapters"
        if self.echo or self.logprobs:
            return "echo and logprobs"
        return None

    def copy(self) -> GenerationConfig:
        return copy.deepcopy(self)

    def __repr__(self) -> str:
        changed = {k: getattr(self, k) for k in _DEFAULTS if getattr(self, k) != _DEFAULTS[k]}
        return f"GenerationConfig({', '.join(f'{k}={v!r}' for k, v in changed.items())})"


class StreamerBase:
    """Base class for streamers: ``write(token)`` gets each new token id and answers a
    :class:`StreamingStatus`; ``end()`` is called when the generation ends."""

    def __init__(self) -> None:
        pass

    def write(self, token: int | list[int]) -> StreamingStatus:
        raise NotImplementedError("StreamerBase.write must be implemented by the subclass")

    def end(self) -> None:
        raise NotImplementedError("StreamerBase.end must be implemented by the subclass")


class _TextStreamer:
    """A callable streamer gets text, not tokens: GenAI's ``TextStreamer`` decodes the tokens so
    far and hands over the new text once it is complete (no half UTF-8 character; held back
    until a word may have ended)."""

    def __init__(self, tokenizer, callback: Callable[[str], Any]) -> None:
        self.tokenizer, self.callback = tokenizer, callback
        self.tokens: list[int] = []
        self.printed = 0

    def write(self, token: int | list[int]) -> StreamingStatus:
        self.tokens.extend(token if isinstance(token, list) else [token])
        text = self.tokenizer.decode(self.tokens)
        if text.endswith("\ufffd") or len(text) <= self.printed:
            return StreamingStatus.RUNNING
        chunk, self.printed = text[self.printed:], len(text)
        return _status(self.callback(chunk))

    def end(self) -> None:
        text = self.tokenizer.decode(self.tokens)
        if len(text) > self.printed:
            self.callback(text[self.printed:])
        self.tokens, self.printed = [], 0


def _status(value: Any) -> StreamingStatus:
    """A callback's answer: None / False run on, True stops (the old bool API), or a status."""
    if value is None:
        return StreamingStatus.RUNNING
    if isinstance(value, bool):
        return StreamingStatus.STOP if value else StreamingStatus.RUNNING
    return StreamingStatus(int(value))


def make_streamer(streamer: Any, tokenizer) -> StreamerBase | _TextStreamer | None:
    """The streamer argument of ``generate``: None, a ``StreamerBase`` or a callable on text."""
    if streamer is None:
        return None
    if isinstance(streamer, StreamerBase):
        return streamer
    if callable(streamer):
        return _TextStreamer(tokenizer, streamer)
    raise TypeError(f"streamer must be a callable taking the new text or a StreamerBase, not "
                    f"{type(streamer).__name__}")


class TextStreamer(StreamerBase):
    """``openvino_genai.TextStreamer(tokenizer, callback)``: decodes tokens and calls
    ``callback`` with each complete piece of new text."""

    def __init__(self, tokenizer, callback: Callable[[str], Any], detokenization_params: dict | None = None
                 ) -> None:
        super().__init__()
        self._inner = _TextStreamer(tokenizer, callback)

    def write(self, token: int | list[int]) -> StreamingStatus:
        return self._inner.write(token)

    def end(self) -> None:
        self._inner.end()
