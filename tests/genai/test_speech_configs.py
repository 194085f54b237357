"""``WhisperGenerationConfig``, ``OmniTalkerSpeechConfig`` and ``GenerationConfig(json_path)``
against the real ``openvino_genai`` wheel: the same fields and defaults, the same ``validate()``
answers (message line included), the same reading of a ``generation_config.json``."""

from __future__ import annotations

import json

import pytest

real = pytest.importorskip("openvino_genai", reason="the real openvino-genai wheel is missing")

from ovlab.sim import genai as lab  # noqa: E402

LANGS = {"<|en|>": 50259, "<|fr|>": 50265}


def _fields(obj) -> dict:
    return {name: getattr(obj, name) for name in dir(obj)
            if not name.startswith("_") and not callable(getattr(obj, name))}


def _outcome(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the outcome is what is compared
        return type(exc).__name__, str(exc).strip().splitlines()[-1]
    return "ok"


@pytest.mark.parametrize("cls", ["WhisperGenerationConfig", "OmniTalkerSpeechConfig"])
def test_fields_and_defaults_are_the_wheels(cls):
    real_fields, lab_fields = _fields(getattr(real, cls)()), _fields(getattr(lab, cls)())
    assert set(lab_fields) == set(real_fields)
    for name, value in real_fields.items():
        if name in ("stop_criteria", "structured_output_config", "parsers", "adapters"):
            continue  # enum and object fields: compared by the GenerationConfig tests
        assert lab_fields[name] == value, name


def test_omni_config_is_not_a_generation_config():
    assert lab.GenerationConfig not in lab.OmniTalkerSpeechConfig.__mro__
    cfg = lab.OmniTalkerSpeechConfig()
    cfg.talker_temperature = 0.7
    assert cfg.talker_temperature == pytest.approx(0.7) and cfg.talker_temperature != 0.7
    with pytest.raises(TypeError):
        cfg.audio_chunk_frames = -1
    with pytest.raises(AttributeError):
        cfg.temperature = 1.0


@pytest.mark.parametrize("kwargs, attrs", [
    ({"max_new_tokens": 10}, {}),
    ({"max_new_tokens": 10, "lang_to_id": LANGS}, {}),
    ({"max_new_tokens": 10, "lang_to_id": LANGS}, {"language": "en"}),
    ({"max_new_tokens": 10, "lang_to_id": LANGS}, {"language": "<|fr|>"}),
    ({"max_new_tokens": 10, "lang_to_id": LANGS}, {"language": "de"}),
    ({"max_new_tokens": 10, "lang_to_id": LANGS}, {"language": "<||>"}),
    ({"max_new_tokens": 10, "lang_to_id": LANGS}, {"task": "translate"}),
    ({"max_new_tokens": 10, "lang_to_id": LANGS}, {"task": "summarize"}),
    ({"max_new_tokens": 10, "is_multilingual": False}, {"language": "en"}),
    ({"max_new_tokens": 10, "is_multilingual": False}, {"task": "transcribe"}),
    ({"max_new_tokens": 10, "is_multilingual": False}, {"num_return_sequences": 2,
                                                        "do_sample": True}),
    ({"max_new_tokens": 10, "is_multilingual": False}, {"num_assistant_tokens": 3}),
    ({"max_new_tokens": 10, "is_multilingual": False}, {"word_timestamps": True}),
    ({"max_new_tokens": 10, "is_multilingual": False},
     {"alignment_heads": [(1, 2)], "word_timestamps": True}),
    ({}, {}),
])
def test_whisper_validate_answers_as_the_wheel(kwargs, attrs):
    def build(mod):
        cfg = mod.WhisperGenerationConfig(**kwargs)
        for name, value in attrs.items():
            setattr(cfg, name, value)
        return cfg

    real_cfg, lab_cfg = build(real), build(lab)
    assert _outcome(lab_cfg.validate) == _outcome(real_cfg.validate)
    assert lab_cfg.apply_chat_template is False


@pytest.mark.parametrize("data", [
    {"eos_token_id": [2, 32000, 32007]},
    {"eos_token_id": 7, "max_new_tokens": 20, "early_stopping": "never", "num_beams": 4},
    {"eos_token_id": [5], "max_length": [1, 2], "do_sample": True, "temperature": 0.7,
     "early_stopping": True, "stop_token_ids": [9], "rng_seed": 3},
    {"max_new_tokens": 12.9, "top_k": -1, "repetition_penalty": 1, "early_stopping": False},
])
def test_generation_config_json_is_read_as_genai_reads_it(tmp_path, data):
    path = tmp_path / "generation_config.json"
    path.write_text(json.dumps(data))
    real_cfg, lab_cfg = real.GenerationConfig(str(path)), lab.GenerationConfig(str(path))
    for name, value in _fields(real_cfg).items():
        if name in ("structured_output_config", "parsers", "adapters"):
            continue
        got = getattr(lab_cfg, name)
        if name == "stop_criteria":
            assert got.name == value.name
        else:
            assert got == value, name


def test_whisper_json_reads_its_own_fields(tmp_path):
    data = {"eos_token_id": 50257, "is_multilingual": True, "lang_to_id": LANGS,
            "task_to_id": {"transcribe": 11, "translate": 12}, "suppress_tokens": [1, 2],
            "alignment_heads": [[3, 4]], "max_initial_timestamp_index": 7}
    path = tmp_path / "generation_config.json"
    path.write_text(json.dumps(data))
    real_cfg, lab_cfg = real.WhisperGenerationConfig(str(path)), \
        lab.WhisperGenerationConfig(str(path))
    for name in ("eos_token_id", "stop_token_ids", "lang_to_id", "transcribe_token_id",
                 "translate_token_id", "suppress_tokens", "alignment_heads",
                 "max_initial_timestamp_index", "apply_chat_template"):
        assert getattr(lab_cfg, name) == getattr(real_cfg, name), name
