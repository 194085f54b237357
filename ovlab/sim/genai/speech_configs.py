"""The configuration classes of GenAI's speech pipelines, as data: ``WhisperGenerationConfig``
and ``OmniTalkerSpeechConfig``.

ovlab does not simulate speech recognition or omni models (their pipelines are stand-ins,
``unsimulated.py``), but their configs are plain structs a learner builds, reads and validates
before any model is loaded, and GenAI's own model-free tests do exactly that
(``tests/genai_suite/``). So they are real here: the wheel's fields and defaults (2026.4),
``WhisperGenerationConfig.validate()`` as ``whisper/generation_config.cpp`` checks, and its
``generation_config.json`` reading.
"""

from __future__ import annotations

import json
import operator
from pathlib import Path
from typing import Any

from .config import SIZE_MAX, GenerationConfig, _f32

#: WhisperGenerationConfig's own fields and defaults (``whisper_generation_config.hpp``)
_WHISPER: dict[str, Any] = {
    "decoder_start_token_id": 50258, "pad_token_id": 50257, "translate_token_id": 50358,
    "transcribe_token_id": 50359, "prev_sot_token_id": 50361, "no_timestamps_token_id": 50363,
    "max_initial_timestamp_index": 50, "is_multilingual": True, "language": None,
    "lang_to_id": {}, "task": None, "return_timestamps": False, "word_timestamps": False,
    "alignment_heads": [], "initial_prompt": None, "hotwords": None,
    "begin_suppress_tokens": [], "suppress_tokens": [],
}
_W_INT = {"decoder_start_token_id", "pad_token_id", "translate_token_id", "transcribe_token_id",
          "prev_sot_token_id", "no_timestamps_token_id", "max_initial_timestamp_index"}
_W_BOOL = {"is_multilingual", "return_timestamps", "word_timestamps"}
_W_OPT_STR = {"language", "task", "initial_prompt", "hotwords"}
#: what ``update_generation_config`` reads (``prev_sot_token_id`` is read from a file only)
_W_UPDATE = [k for k in _WHISPER if k != "prev_sot_token_id"]
#: what ``WhisperGenerationConfig(json_path)`` reads, by its JSON name
_W_JSON = ["begin_suppress_tokens", "suppress_tokens", "decoder_start_token_id", "pad_token_id",
           "no_timestamps_token_id", "max_initial_timestamp_index", "prev_sot_token_id",
           "is_multilingual"]


def _whisper_value(name: str, value: Any) -> Any:
    """A Whisper field's value as the binding converts it (a TypeError for the wrong kind)."""
    def wrong() -> TypeError:
        return TypeError(f"WhisperGenerationConfig.{name}: incompatible value {value!r}")

    if name in _W_INT:
        if isinstance(value, (bool, float)) or not hasattr(value, "__index__"):
            raise wrong()
        return operator.index(value)
    if name in _W_BOOL:
        if not isinstance(value, bool):
            raise wrong()
        return value
    if name in _W_OPT_STR:
        if value is not None and not isinstance(value, str):
            raise wrong()
        return value
    if name == "lang_to_id":
        if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
                for k, v in value.items()):
            raise wrong()
        return dict(value)
    if name == "alignment_heads":
        try:
            return [(int(a), int(b)) for a, b in value]
        except (TypeError, ValueError):
            raise wrong() from None
    if isinstance(value, (str, bytes)) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise wrong()
    return [int(v) for v in value]  # begin_suppress_tokens, suppress_tokens


class WhisperGenerationConfig(GenerationConfig):
    """Whisper's generation settings (``ov::genai::WhisperGenerationConfig``): every field of
    ``GenerationConfig`` (``apply_chat_template`` off) plus the speech ones; ``validate()``
    adds Whisper's checks (the language against ``lang_to_id``, the task, one sequence, no
    assisted generation, word timestamps only with alignment heads)."""

    def __init__(self, json_path: Any = None, **kwargs: Any) -> None:
        for name, value in _WHISPER.items():
            object.__setattr__(self, name, value.copy() if hasattr(value, "copy") else value)
        super().__init__(json_path)
        object.__setattr__(self, "apply_chat_template", False)
        if json_path is not None:
            self._read_whisper_json(json_path)
        self.update_generation_config(**kwargs)

    def _read_whisper_json(self, json_path: Any) -> None:
        data = json.loads(Path(json_path).read_text(encoding="utf-8"))
        for name in _W_JSON:
            value = data.get(name)
            if value is not None:
                object.__setattr__(self, name, _whisper_value(name, value))
        if self.is_multilingual:
            tasks = data.get("task_to_id") or {}
            for task in ("transcribe", "translate"):
                if isinstance(tasks.get(task), int):
                    object.__setattr__(self, f"{task}_token_id", tasks[task])
        for name in ("lang_to_id", "alignment_heads"):
            if data.get(name) is not None:
                object.__setattr__(self, name, _whisper_value(name, data[name]))

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _WHISPER:
            object.__setattr__(self, name, _whisper_value(name, value))
            return
        super().__setattr__(name, value)

    def update_generation_config(self, **kwargs: Any) -> None:
        """Whisper's fields, then ``GenerationConfig``'s (unknown names ignored)."""
        for name in _W_UPDATE:
            if name in kwargs:
                object.__setattr__(self, name, _whisper_value(name, kwargs[name]))
        super().update_generation_config(**{k: v for k, v in kwargs.items() if k not in _WHISPER})

    def validate(self) -> None:
        """``WhisperGenerationConfig::validate``: ``GenerationConfig``'s checks, then
        Whisper's, with their messages."""
        super().validate()

        def check(ok: bool, message: str) -> None:
            if not ok:
                raise RuntimeError(message)

        if self.is_multilingual:
            check(bool(self.lang_to_id),
                  "'lang_to_id' map must be provided for multilingual models.\n'lang_to_id' map "
                  "can be provided as custom std::map<std::string, int64_t>\nOr initialized from "
                  "generation_config.json: \nov::genai::WhisperGenerationConfig config = "
                  "pipeline.get_generation_config();\nov::genai::WhisperGenerationConfig "
                  "config{models_path / \"generation_config.json\"};")
            if self.language is not None:
                lang = self.language
                wrapped = len(lang) > 4 and lang.startswith("<|") and lang.endswith("|>")
                check((lang if wrapped else f"<|{lang}|>") in self.lang_to_id,
                      f"'language' {lang} must be provided in 'lang_to_id' map.")
            if self.task is not None:
                check(self.task in ("transcribe", "translate"), "'task' mast be 'transcribe' or "
                      f"'translate'. Task provided: '{self.task}'.")
        else:
            check(self.language is None, "Cannot specify 'language' for not multilingual model.")
            check(self.task is None, "Cannot specify 'task' for not multilingual model.")
        check(self.num_return_sequences == 1,
              f"'num_return_sequences' must be 1. Provided: {self.num_return_sequences}.")
        check(not self.is_assisting_generation(), "Assisted generation is not supported.")
        check(not self.word_timestamps or bool(self.alignment_heads), "'word_timestamps' can be "
              "true only when 'alignment_heads' is set and not empty.")


#: OmniTalkerSpeechConfig's fields and defaults (``omni/talker_speech_config.hpp``)
_OMNI: dict[str, Any] = {
    "return_audio": True, "speaker": "", "speaker_embedding": None, "audio_chunk_frames": 4,
    "max_new_tokens": SIZE_MAX, "rng_seed": 0, "talker_temperature": None,
    "talker_top_k": None, "talker_repetition_penalty": None, "cp_temperature": None,
    "cp_top_k": None,
}
_O_SIZE = {"audio_chunk_frames", "max_new_tokens", "rng_seed", "talker_top_k", "cp_top_k"}
_O_FLOAT = {"talker_temperature", "talker_repetition_penalty", "cp_temperature"}


class OmniTalkerSpeechConfig:
    """An omni model's speech settings (``ov::genai::OmniTalkerSpeechConfig``): a struct of its
    own, not a ``GenerationConfig`` (GenAI 2026.4 broke that inheritance on purpose). The
    ``talker_*``/``cp_*`` overrides are optional (None when unset); floats are C++ floats,
    counts ``size_t``. ``OmniTalkerSpeechConfig(models_path)`` reads the default speaker from
    ``config.json``'s ``talker_config.speaker_id``, as GenAI does."""

    def __init__(self, models_path: Any = None) -> None:
        for name, value in _OMNI.items():
            object.__setattr__(self, name, value)
        if models_path is None:
            return
        config = Path(models_path) / "config.json"
        if not config.is_file():
            return
        talker = json.loads(config.read_text(encoding="utf-8")).get("talker_config") or {}
        if isinstance(talker.get("speaker_id"), str):
            object.__setattr__(self, "speaker", talker["speaker_id"])

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in _OMNI:
            raise AttributeError("'openvino_genai.py_openvino_genai.OmniTalkerSpeechConfig' "
                                 f"object has no attribute '{name}'")
        optional = name in ("talker_top_k", "cp_top_k") or name in _O_FLOAT
        if value is None and (optional or name == "speaker_embedding"):
            pass
        elif name in _O_SIZE:
            if isinstance(value, float) or not hasattr(value, "__index__") \
                    or not 0 <= operator.index(value) < 2**64:
                raise TypeError(f"OmniTalkerSpeechConfig.{name}: incompatible value {value!r}")
            value = operator.index(value)
        elif name in _O_FLOAT:
            if isinstance(value, str) or not hasattr(value, "__float__"):
                raise TypeError(f"OmniTalkerSpeechConfig.{name}: incompatible value {value!r}")
            value = _f32(float(value))
        elif name == "return_audio":
            if not isinstance(value, bool):
                raise TypeError(f"OmniTalkerSpeechConfig.{name}: incompatible value {value!r}")
        elif name == "speaker" and not isinstance(value, str):
            raise TypeError(f"OmniTalkerSpeechConfig.{name}: incompatible value {value!r}")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        changed = {k: getattr(self, k) for k in _OMNI if getattr(self, k) != _OMNI[k]}
        return f"OmniTalkerSpeechConfig({', '.join(f'{k}={v!r}' for k, v in changed.items())})"
