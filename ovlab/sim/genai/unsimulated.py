"""Every class of the real ``openvino_genai`` that ovlab does not simulate, as a stand-in.

ovlab simulates text generation with LLMs. The wheel's other pipelines (Whisper and ASR, VLM,
image and video generation, text to speech, embeddings and reranking, omni models) and their
parts are built here from the wheel's own listing (``data/genai_api.json``, written by
``tools/gen_genai_names.py``): each class has every member of the real one, nested classes and
enums included, so that ``import``, ``isinstance`` and reading an enum work, and constructing the
class or calling any member raises ``NotImplementedError`` naming the feature.
"""

from __future__ import annotations

import enum
import json
from functools import cache
from pathlib import Path
from typing import Any

API_FILE = Path(__file__).with_name("data") / "genai_api.json"

#: name prefix or name -> the feature it belongs to (first match wins)
FEATURES = [
    (("Whisper", "ASR"), "speech recognition (WhisperPipeline, ASRPipeline)"),
    (("VLM", "Qwen2_5_VL", "VideoMetadata"), "visual language models (VLMPipeline)"),
    (("Text2Video", "VideoGeneration", "LTXVideo", "AutoencoderKLLTXVideo"),
     "video generation (Text2VideoPipeline)"),
    (("Text2Speech", "SpeechGeneration"), "text to speech (Text2SpeechPipeline)"),
    (("Omni", "Talker"), "omni models (OmniPipeline)"),
    (("TextEmbedding", "Embed", "TextRerank"), "text embeddings and reranking "
                                               "(TextEmbeddingPipeline, TextRerankPipeline)"),
    (("Parser", "ReasoningIncremental",
      "VLLMParserWrapper", "Llama3", "DeepSeekR1", "Phi4Reasoning"),
     "output parsers (reasoning and tool-call parsing)"),
    (("Text2Image", "Image2Image", "Inpainting", "ImageGeneration", "RawImageGeneration",
      "Autoencoder", "CLIPText", "UNet2D", "SD3", "Flux", "T5Encoder", "Qwen3TextEncoder",
      "QwenImage", "ZImage", "Generator", "CppStdGenerator", "TorchGenerator", "Scheduler",
      "TaylorSeer"), "image generation (Text2ImagePipeline and its models)"),
]
MESSAGE = ("openvino_genai.{name} is not available on ovlab: {feature} is not simulated "
           "(ovlab simulates text generation with LLMs: LLMPipeline, ContinuousBatchingPipeline)")


def feature(name: str) -> str:
    top = name.split(".", 1)[0]
    for prefixes, what in FEATURES:
        if top.startswith(prefixes):
            return what
    return "this GenAI feature"


@cache
def api() -> dict[str, dict]:
    """qualname -> {"members": [...], "enum": {...}?, "dunders": [...]} of the real wheel."""
    return json.loads(API_FILE.read_text())["classes"]


def _raiser(message: str, name: str) -> Any:
    def unsupported(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(message)

    unsupported.__name__ = name
    unsupported.__doc__ = message
    return unsupported


def build(qualname: str) -> type:
    """The stand-in for the real class ``qualname`` (``"WhisperPipeline"``,
    ``"TextEmbeddingPipeline.PoolingType"``)."""
    entry = api()[qualname]
    message = MESSAGE.format(name=qualname, feature=feature(qualname))
    short = qualname.rsplit(".", 1)[-1]
    if "enum" in entry:  # an enum: real values, so reading them works
        cls: type = enum.IntEnum(short, {k: v for k, v in entry["enum"].items()})
        cls.__qualname__ = qualname
        cls.__module__ = "openvino_genai"
        cls.__doc__ = message
        return cls
    namespace: dict[str, Any] = {"__doc__": message, "__ovlab_standin__": message,
                                 "__module__": "openvino_genai", "__qualname__": qualname,
                                 "__init__": _raiser(message, "__init__")}
    for member in entry["members"]:
        nested = f"{qualname}.{member}"
        if nested in api():
            namespace[member] = build(nested)
        else:
            namespace[member] = _raiser(message, member)
    return type(short, (), namespace)


@cache
def standins(implemented: frozenset[str]) -> dict[str, type]:
    """A stand-in for every top-level real class not in ``implemented``."""
    return {name: build(name) for name in api() if "." not in name and name not in implemented}
