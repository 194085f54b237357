"""``GenerationConfig``, the streamer types and the enums of ``openvino_genai``.

Field names and defaults are the 2026.4 wheel's (``tests/genai/test_api_surface.py`` reads them
from it); ``validate()`` raises the checks of ``generation_config.cpp`` that a learner meets.
Beam search, prompt-lookup and tree decoding and adapters are GenAI features this simulator
does not run everywhere (speculative decoding runs with a draft model, ``speculative.py``;
structured output runs, ``constrained.py``): setting them is allowed, generating with one where
it is not simulated raises a clear error naming the feature.
"""

from __future__ import annotations

import copy
import enum
import json
import operator
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


#: the C++ type of each field (``generation_config.hpp``): size_t, int64, float, bool, ...
_SIZE_T = {"max_new_tokens", "max_length", "min_new_tokens", "num_beam_groups", "num_beams",
           "num_return_sequences", "no_repeat_ngram_size", "top_k", "logprobs", "rng_seed",
           "max_ngram_size", "branching_factor", "tree_depth", "pruning_ratio",
           "num_assistant_tokens"}
_INT64 = {"eos_token_id"}
_FLOAT = {"temperature", "top_p", "min_p", "repetition_penalty", "presence_penalty",
          "frequency_penalty", "diversity_penalty", "length_penalty",
          "assistant_confidence_threshold", "relevance_weight"}
_BOOL = {"do_sample", "echo", "ignore_eos", "include_stop_str_in_output", "apply_chat_template",
         "return_omni_outputs"}
#: the setter's argument type as the binding's TypeError names it
_PY_TYPE = {**{k: "typing.SupportsInt" for k in _SIZE_T | _INT64},
            **{k: "typing.SupportsFloat" for k in _FLOAT}, **{k: "bool" for k in _BOOL},
            "num_assistant_tokens": "typing.SupportsInt | None",
            "stop_strings": "collections.abc.Set[str]",
            "stop_token_ids": "collections.abc.Set[typing.SupportsInt]",
            "stop_criteria": "openvino_genai.py_openvino_genai.StopCriteria"}
#: ``ov::Any``'s name for the C++ type a field converts to ("Bad as from: l to: m")
_ANY_CODE = {**{k: "m" for k in _SIZE_T}, **{k: "l" for k in _INT64},
             **{k: "f" for k in _FLOAT}, **{k: "b" for k in _BOOL},
             "stop_token_ids": "St3setIlSt4lessIlESaIlEE",
             "stop_strings": "St3setINSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESt4lessIS5_"
                             "ESaIS5_EE"}
#: the order ``GenerationConfig::update_config`` reads its fields in (generation_config.cpp)
_READ_ORDER = ("eos_token_id max_new_tokens max_length ignore_eos min_new_tokens stop_strings "
               "include_stop_str_in_output stop_token_ids echo logprobs num_return_sequences "
               "adapters apply_chat_template return_omni_outputs frequency_penalty "
               "presence_penalty repetition_penalty num_beam_groups num_beams diversity_penalty "
               "length_penalty stop_criteria no_repeat_ngram_size do_sample temperature top_p "
               "top_k min_p rng_seed assistant_confidence_threshold num_assistant_tokens "
               "max_ngram_size structured_output_config parsers pruning_ratio relevance_weight "
               "branching_factor tree_depth").split()
_STR_CODE = "NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"


def _f32(value: float) -> float:
    """A Python float through the C++ ``float`` field (``0.1`` reads back 0.10000000149011612)."""
    import numpy as np

    with np.errstate(over="ignore"):
        return float(np.float32(value))


def _c_float(value: float) -> str:
    """A float as ``std::ostream`` prints it (6 significant digits)."""
    return f"{value:g}"


def _any_code(value: Any) -> str:
    """``ov::Any``'s type code for a Python value the binding converts (py_object_to_any)."""
    if isinstance(value, bool):
        return "b"
    if isinstance(value, int):
        return "l"
    if isinstance(value, float):
        return "f"  # GenAI's binding makes a C++ float of a Python float
    if isinstance(value, str):
        return _STR_CODE
    if isinstance(value, (list, tuple, set, frozenset)):
        kind = "St6vector" if isinstance(value, (list, tuple)) else "St3set"
        items = list(value)
        if items and all(isinstance(v, str) for v in items):
            inner = "NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
            return f"{kind}I{inner}SaIS5_EE" if kind == "St6vector" else \
                f"{kind}I{inner}St4lessIS5_ESaIS5_EE"
        return f"{kind}IlSaIlEE" if kind == "St6vector" else f"{kind}IlSt4lessIlESaIlEE"
    return type(value).__name__


def _bad_as(value: Any, to: str) -> RuntimeError:
    return RuntimeError("Exception from src/core/include/openvino/core/any.hpp:783:\n"
                        f"Bad as from: {_any_code(value)} to: {to}\n")


def _to_any(name: str, value: Any) -> None:
    """The binding's first pass over the keyword arguments (``py_object_to_any``, in the
    order given): None is refused for a field that is not optional, and an int must fit a
    C++ ``long``."""
    if value is None and name not in ("adapters", "structured_output_config"):
        raise RuntimeError(f"Check '!value.is_none()' failed at src/python/py_utils.cpp:541:\n"
                           f'Property "{name}" can\'t be None.\n')
    if isinstance(value, int) and not isinstance(value, bool) and not -2**63 <= value < 2**63:
        raise RuntimeError("Unable to cast Python instance of type <class 'int'> to C++ type "
                           "'long'")


def _c_bool(value: str) -> bool:
    """``ov::Any``'s string to bool."""
    text = value.strip()
    if text.lower() in ("yes", "true", "1"):
        return True
    if text.lower() in ("no", "false", "0"):
        return False
    raise RuntimeError("Exception from src/core/src/any.cpp:219:\nCould not convert to bool "
                       f"from string {value}\n")


def _from_any(name: str, value: Any) -> Any:
    """A keyword argument of the constructor or ``update_generation_config``: the binding makes
    an ``ov::Any`` of the Python value and ``read_anymap_param`` reads it as the field's C++
    type (so -1 wraps round to SIZE_MAX, a bool is no number and a list is no set)."""
    if value is None:
        return None
    if name in _SIZE_T or name in _INT64:
        signed = name in _INT64
        if isinstance(value, bool):
            raise _bad_as(value, "l" if signed else "m")
        if isinstance(value, int):
            return value if signed else value % 2**64
        if isinstance(value, float):
            n = int(value)
            return n if signed else n % 2**64
        if isinstance(value, str):
            try:
                n = int(value.strip())
            except ValueError:
                raise RuntimeError("Exception from src/core/src/any.cpp:230:\nCould not convert "
                                   f"to: {'l' if signed else 'm'} from string \"{value}\": "
                                   f"{'stol' if signed else 'stoul'}\n") from None
            return n if signed else n % 2**64
        raise _bad_as(value, "l" if signed else "m")
    if name in _FLOAT:
        if isinstance(value, str):
            try:
                return _f32(float(value.strip()))
            except ValueError:
                raise RuntimeError("Exception from src/core/src/any.cpp:230:\nCould not convert "
                                   f"to: f from string \"{value}\": stof\n") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _bad_as(value, "f")
        return _f32(value)
    if name == "stop_criteria":
        if not isinstance(value, StopCriteria):
            raise _bad_as(value, "N2ov5genai12StopCriteriaE")
        return value
    if name in _BOOL:
        if isinstance(value, str):
            return _c_bool(value)
        if not isinstance(value, bool):
            raise _bad_as(value, "b")
        return value
    if name == "stop_token_ids" and isinstance(value, str):
        out = set()
        for word in value.split():  # ov::Any reads a set from text, item by item (stol)
            try:
                out.add(int(word))
            except ValueError:
                raise RuntimeError("Exception from src/core/src/any.cpp:230:\nCould not convert "
                                   f"to: l from string \"{word}\": stol\n") from None
        return out
    if name == "stop_strings" and isinstance(value, str):
        return set(value.split())
    if name in ("stop_token_ids", "stop_strings"):
        if not isinstance(value, (set, frozenset)):
            raise _bad_as(value, _ANY_CODE[name])
        want = str if name == "stop_strings" else int
        if not all(isinstance(v, want) and not isinstance(v, bool) for v in value):
            raise _bad_as(value, _ANY_CODE[name])
        return set(value)
    return value


#: the fields ``GenerationConfig(json_path)`` reads, in its order (``generation_config.cpp``;
#: ``stop_token_ids``, ``rng_seed`` and the other GenAI-only fields are not read from a file)
_JSON_ORDER = ("eos_token_id max_new_tokens max_length ignore_eos min_new_tokens stop_strings "
               "include_stop_str_in_output eos_token_id[] echo logprobs repetition_penalty frequency_penalty "
               "presence_penalty num_beam_groups num_beams diversity_penalty length_penalty "
               "num_return_sequences no_repeat_ngram_size do_sample temperature top_p top_k "
               "min_p assistant_confidence_threshold num_assistant_tokens max_ngram_size "
               "branching_factor tree_depth").split()


def _from_json(name: str, value: Any) -> Any:
    """One JSON value as nlohmann's ``get<T>()`` converts it to the field's C++ type: a number
    or bool for a number (a float truncated, a negative count wrapped round), a bool for a
    bool; anything else is nlohmann's ``type_error``."""
    def type_error(want: str) -> RuntimeError:
        kind = {str: "string", dict: "object"}.get(type(value), "number")
        kind = "boolean" if isinstance(value, bool) else kind
        return RuntimeError(f"[json.exception.type_error.302] type must be {want}, but is {kind}")

    if name in _BOOL:
        if not isinstance(value, bool):
            raise type_error("boolean")
        return value
    if name == "stop_strings":
        raise type_error("array")
    if not isinstance(value, (bool, int, float)):
        raise type_error("number")
    if name in _FLOAT:
        return _f32(float(value))
    n = int(value)
    return n if name in _INT64 else n % 2**64


class GenerationConfig:
    """How to generate: length, sampling, stop conditions (``ov::genai::GenerationConfig``).

    ``GenerationConfig(json_path)`` reads a ``generation_config.json``;
    ``GenerationConfig(**kwargs)`` sets fields by name (unknown names are ignored, as the
    binding ignores them). Fields keep their C++ types: floats are ``float`` (32 bits), counts
    ``size_t``; ``tests/differential/test_generation_config.py`` compares all of it with the
    wheel."""

    def __init__(self, json_path: Any = None, **kwargs: Any) -> None:
        for name, value in _DEFAULTS.items():
            object.__setattr__(self, name, copy.copy(value))
        if json_path is not None:
            self._read_json(json_path)
        self.update_generation_config(**kwargs)

    def _read_json(self, json_path: Any) -> None:
        """``GenerationConfig(json_path)`` as ``generation_config.cpp`` reads the file: its
        fields in its order through ``read_json_param`` (a value of the wrong JSON kind, such as
        an array for a number, leaves the field as it is), a list of ``eos_token_id`` read as
        ``stop_token_ids`` (its first item the EOS id), ``early_stopping`` as ``stop_criteria``,
        and the EOS id added to ``stop_token_ids`` last."""
        path = Path(json_path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError:
            raise RuntimeError(f"Failed to open '\"{path}\"' with generation config") from None
        if not isinstance(data, dict):
            return
        for name in _JSON_ORDER:
            if name == "eos_token_id[]":  # the list of EOS ids, read as stop_token_ids
                ids = data.get("eos_token_id")
                if isinstance(ids, list) and ids:
                    self.stop_token_ids.update(int(i) for i in ids)
                    if self.eos_token_id == -1:
                        object.__setattr__(self, "eos_token_id", int(ids[0]))
                continue
            value = data.get(name)
            if value is None or isinstance(value, list):
                continue
            object.__setattr__(self, name, _from_json(name, value))
        early = data.get("early_stopping")
        if early == "never":
            object.__setattr__(self, "stop_criteria", StopCriteria.NEVER)
        elif early is True or early is False:
            object.__setattr__(self, "stop_criteria",
                               StopCriteria.EARLY if early else StopCriteria.HEURISTIC)
        if self.eos_token_id != -1:
            self.set_eos_token_id(self.eos_token_id)

    def _incompatible(self, name: str, value: Any) -> TypeError:
        return TypeError(
            "(): incompatible function arguments. The following argument types are supported:\n"
            f"    1. (self: openvino_genai.py_openvino_genai.GenerationConfig, arg0: "
            f"{_PY_TYPE.get(name, 'object')}) -> None\n\nInvoked with: <openvino_genai."
            f"py_openvino_genai.GenerationConfig object at {hex(id(self))}>, {value!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        """The binding's property setters (pybind11's conversions)."""
        if name not in _DEFAULTS:
            raise AttributeError("'openvino_genai.py_openvino_genai.GenerationConfig' object has "
                                 f"no attribute '{name}'")
        if name in _SIZE_T or name in _INT64:
            if value is None and name == "num_assistant_tokens":
                pass
            else:
                lo, hi = (-2**63, 2**63) if name in _INT64 else (0, 2**64)
                if isinstance(value, float) or not hasattr(value, "__index__") \
                        or not lo <= operator.index(value) < hi:
                    raise self._incompatible(name, value)
                value = operator.index(value)
        elif name in _FLOAT:
            if isinstance(value, str) or not hasattr(value, "__float__"):
                raise self._incompatible(name, value)
            value = _f32(float(value))
        elif name in _BOOL:
            if value is None:
                value = False
            elif isinstance(value, str) or not hasattr(value, "__bool__"):
                raise self._incompatible(name, value)
            else:
                value = bool(value)
        elif name in ("stop_strings", "stop_token_ids"):
            if not isinstance(value, (set, frozenset)):
                raise self._incompatible(name, value)
            want = str if name == "stop_strings" else int
            if not all(isinstance(v, want) for v in value):
                raise self._incompatible(name, value)
            value = {int(v) for v in value} if want is int else set(value)
        elif name == "stop_criteria" and not isinstance(value, StopCriteria):
            raise self._incompatible(name, value)
        object.__setattr__(self, name, value)

    def update_generation_config(self, **kwargs: Any) -> None:
        """Set the named fields as the constructor does, in GenAI's order (``update_config``
        reads them one by one, so the first bad one in that order is the error); unknown names
        are ignored."""
        for name, value in kwargs.items():
            if name in _DEFAULTS:
                _to_any(name, value)
        for name in _READ_ORDER:
            if name not in kwargs:
                continue
            object.__setattr__(self, name, _from_any(name, kwargs[name]))
        if "eos_token_id" in kwargs and self.eos_token_id != -1:
            self.stop_token_ids.add(self.eos_token_id)  # the binding's set_eos_token_id

    def set_eos_token_id(self, tokenizer_eos_token_id: int) -> None:
        """``set_eos_token_id``: the EOS id, added to ``stop_token_ids``."""
        object.__setattr__(self, "eos_token_id", int(tokenizer_eos_token_id))
        self.stop_token_ids.add(self.eos_token_id)

    # --- which decoding this is (generation_config.cpp) ----------------------------------------
    @property
    def _n_assistant(self) -> int:
        return int(self.num_assistant_tokens or 0)

    def is_greedy_decoding(self) -> bool:
        return not self.do_sample and not self.is_beam_search() and not self.is_tree_search()

    def is_beam_search(self) -> bool:
        return self.num_beams > 1

    def is_multinomial(self) -> bool:
        return bool(self.do_sample)

    def is_assisting_generation(self) -> bool:
        return self.assistant_confidence_threshold > 0 or self._n_assistant > 0

    def is_prompt_lookup(self) -> bool:
        return self.max_ngram_size > 0 and self._n_assistant > 0

    def is_tree_search(self) -> bool:
        return self.tree_depth > 0

    def get_max_new_tokens(self, prompt_length: int = 0) -> int:
        if self.max_new_tokens != SIZE_MAX:
            return int(self.max_new_tokens)
        return int(self.max_length) - prompt_length

    def validate(self) -> None:
        """``GenerationConfig::validate`` of GenAI 2026.4 (``generation_config.cpp``), check
        for check, with its messages."""
        def check(ok: bool, message: str) -> None:
            if not ok:
                raise RuntimeError(message)

        n_assistant = self._n_assistant
        check(self.num_return_sequences > 0, "num_return_sequences must be greater than 0")
        # stop conditions
        check(self.eos_token_id == -1 or self.eos_token_id in self.stop_token_ids,
              "'stop_token_ids' must contain 'eos_token_id'. Please, call 'set_eos_token_id' "
              "with 'eos_token_id' value")
        negative = [t for t in self.stop_token_ids if t < 0]
        check(not negative, "'stop_token_ids' must be non-negative, but it contains a value "
              f"{negative[0] if negative else ''}")
        check(not self.ignore_eos or self.max_new_tokens != SIZE_MAX
              or self.max_length != SIZE_MAX, "ignore_eos is true, in this case either "
              "'max_new_tokens', or 'max_length' should be defined.")
        check(self.eos_token_id != -1 or bool(self.stop_token_ids) or bool(self.stop_strings)
              or self.max_new_tokens != SIZE_MAX or self.max_length != SIZE_MAX,
              "Either 'eos_token_id', or 'stop_token_ids', or 'stop_strings', or "
              "'max_new_tokens', or 'max_length' should be defined.")
        check(self.max_new_tokens > 0 or (self.max_new_tokens == 0 and self.echo),
              "'max_new_tokens' must be greater than 0, if `echo` is set, 0 is also accepted")
        check(self.min_new_tokens <= self.max_new_tokens,
              "min_new_tokens must be less or equal max_new_tokens")
        # sampling strategies
        check(self.num_return_sequences == 1 or self.is_multinomial() or self.is_beam_search(),
              "'num_return_sequences' can be more than 1 only in case of beam search or "
              f"multinomial sampling, but got {self.num_return_sequences}")
        if not self.is_beam_search():
            check(-2.0 <= self.frequency_penalty <= 2.0, "'frequence_penalty' penalty must be "
                  f"within [-2.0; 2.0], but got {_c_float(self.frequency_penalty)}")
            check(-2.0 <= self.presence_penalty <= 2.0, "'presence_penalty' penalty must be "
                  f"within [-2.0; 2.0], but got {_c_float(self.presence_penalty)}")
            check(self.repetition_penalty > 0.0, "'repetition_penalty' must be a strictly "
                  f"positive float, but got {_c_float(self.repetition_penalty)}")
        else:
            check(self.frequency_penalty == 0.0, "'frequency_penalty' is not currently supported "
                  "by beam search and should be 0.0f, but got "
                  f"{_c_float(self.frequency_penalty)}")
            check(self.presence_penalty == 0.0, "'presence_penalty' is not currently supported "
                  f"by beam search and should be 0.0f, but got {_c_float(self.presence_penalty)}")
            check(self.repetition_penalty == 1.0, "'repetition_penalty' is not currently "
                  "supported by beam search and should be 1.0f, but got "
                  f"{_c_float(self.repetition_penalty)}")
        if self.is_multinomial():
            check(0 < self.top_p <= 1.0, "When 'do_sample' is true, top_p must be a positive "
                  f"float > 0.0 and <= 1.0, but got {_c_float(self.top_p)}")
            check(self.temperature > 0, "When 'do_sample' is true, temperature must be a "
                  f"strictly positive float, but got {_c_float(self.temperature)}")
            check(0.0 <= self.min_p < 1.0, "When 'do_sample' is true, min_p must be in "
                  f"[0.0, 1.0), but got {_c_float(self.min_p)}")
        if self.is_beam_search():
            check(self.num_beam_groups != 0 and self.num_beams % self.num_beam_groups == 0,
                  f"'num_beams' ({self.num_beams}) should be divisible by 'num_beam_groups' "
                  f"({self.num_beam_groups})")
            check(self.num_beams >= self.num_return_sequences, f"'num_beams' ({self.num_beams})"
                  f" must be greater equal than 'num_return_sequences' "
                  f"({self.num_return_sequences})")
            check(not self.do_sample, "Beam search with sampling is not supported yet. Please "
                  "either set do_sample=false to use beam search or set num_beams=1 if you with "
                  "to use multinomial sampling.")
            check(self.no_repeat_ngram_size > 0, "'no_repeat_ngram_size' must be positive")
            if self.num_beam_groups > 1:
                check(self.diversity_penalty != 0.0, "For grouped beam search "
                      "'diversity_penalty' should not be zero, otherwise it fallbacks to "
                      "non-grouped beam search")
            else:
                check(self.diversity_penalty == 0.0, "For beam search 'diversity_penalty' is "
                      "applicable only when grouped beam search is used, but got "
                      "'num_beam_groups' == 1")
        if self.is_tree_search():
            check(not self.do_sample, "Tree search (EAGLE) is incompatible with do_sample=true; "
                  "set tree_depth=0 or do_sample=false")
            check(self.num_beams == 1, "Tree search (EAGLE) is incompatible with beam search; "
                  "set tree_depth=0 or num_beams=1")
            check(self.branching_factor > 0, "'branching_factor' must be > 0 when tree search is "
                  f"enabled, but got {self.branching_factor}")
            check(self.num_assistant_tokens is not None, "'num_assistant_tokens' must be set "
                  "when tree search is enabled.")
            check(n_assistant > 0, "'num_assistant_tokens' must be > 0 when tree search is "
                  f"enabled, but got {n_assistant}")
            check(n_assistant >= self.tree_depth, f"'num_assistant_tokens' ({n_assistant}) must "
                  f"be >= 'tree_depth' ({self.tree_depth}) to allow at least one node per draft "
                  "layer")
        if self.is_assisting_generation():
            check(not self.is_beam_search() and self.num_return_sequences == 1,
                  "Beam search and parallel sampling are not compatible with assistant generation")
            check(self.assistant_confidence_threshold == 0.0 or n_assistant == 0,
                  "Parameters `assistant_confidence_threshold` and `num_assistant_tokens` are "
                  "mutually exclusive in `GenerationConfig`")
        if n_assistant == 0:
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
    if hasattr(streamer, "_token_feed"):  # a TextParserStreamer (parsers.py): reset, then fed
        return streamer._token_feed()
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
