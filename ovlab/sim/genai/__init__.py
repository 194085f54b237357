"""OpenVINO GenAI on the virtual devices: ``openvino_genai``'s text-generation API.

``import ovlab.sim.genai as ov_genai`` in a lab, or ``import openvino_genai`` in a script run by
``python -m ovlab run`` (the runner serves this package under that name). Rooms:
``pipeline`` (LLMPipeline, ContinuousBatchingPipeline), ``engine`` (one step: schedule, time,
sample), ``continuous_batching`` and ``scheduler_config`` (GenAI's scheduler, ported),
``config`` (GenerationConfig, streamers), ``results`` (results and metrics), ``tokenizer`` and
``bpe``, ``chat``, ``models`` (what a models_path names), ``hetero``
(an LLM split over GPUs by HETERO PIPELINE_PARALLEL), ``speculative`` and ``sd_metrics``
(speculative decoding, ``draft_model``), ``timing`` (the
step cost, fitted on Intel's 165H iGPU rows), ``tiny`` (the real tiny model), ``standin``
(the large models' seeded text), ``corpus`` (the tiny model's training text),
``structured`` (StructuredOutputConfig and its grammar builders), ``adapters`` (LoRA's
Adapter, AdapterConfig), ``lora`` (adapters on a pipeline: matching, modes, their cost), ``unsimulated`` (the wheel's other pipelines, as stand-ins that
raise when used), ``speech_configs`` (Whisper's and the omni talker's configs, as data), ``npu_pipeline`` (the stateful pipelines: the NPU's static shapes, SDPA), ``memory`` (what the
pipelines hold and the package's shared bandwidth), ``device_choice`` (lab 14's experiment). The LLMs'
shapes are in the model catalogue (``ovlab.sim.models.llm_zoo``).
"""

from . import unsimulated as _unsimulated
from .adapters import Adapter, AdapterConfig
from .chat import ChatHistory
from .config import (
    GenerationConfig,
    GenerationFinishReason,
    StopCriteria,
    StreamerBase,
    StreamingStatus,
    TextStreamer,
)
from .parsers import IncrementalParser, TextParserStreamer
from .pipeline import ContinuousBatchingPipeline, GenerationHandle, LLMPipeline
from .results import (
    DecodedResults,
    EncodedGenerationResult,
    EncodedResults,
    GenerationOutput,
    GenerationResult,
    GenerationStatus,
    MeanStdPair,
    PerfMetrics,
    PipelineMetrics,
    RawPerfMetrics,
    SummaryStats,
)
from .scheduler_config import (
    AggregationMode,
    CacheEvictionConfig,
    KVCrushAnchorPointMode,
    KVCrushConfig,
    SchedulerConfig,
    SparseAttentionConfig,
    SparseAttentionMode,
)
from .sd_metrics import ExtendedPerfMetrics, SDPerfMetrics, SDPerModelsPerfMetrics
from .speculative import draft_model
from .speech_configs import OmniTalkerSpeechConfig, WhisperGenerationConfig
from .structured import StructuralTagItem, StructuralTagsConfig, StructuredOutputConfig
from .tokenizer import TokenizedInputs, Tokenizer

__version__ = "2026.4.1.0-ovlab"


def get_version() -> str:
    """The GenAI version this package follows (ovlab's simulation of it)."""
    return __version__


__all__ = [
    "Adapter", "AdapterConfig", "AggregationMode", "CacheEvictionConfig", "ChatHistory", "ContinuousBatchingPipeline",
    "DecodedResults", "EncodedGenerationResult", "EncodedResults", "ExtendedPerfMetrics",
    "GenerationConfig",
    "GenerationFinishReason", "GenerationHandle", "GenerationOutput", "GenerationResult",
    "GenerationStatus", "IncrementalParser", "KVCrushAnchorPointMode", "KVCrushConfig", "LLMPipeline", "MeanStdPair",
    "PerfMetrics", "PipelineMetrics", "RawPerfMetrics", "SDPerModelsPerfMetrics", "SDPerfMetrics",
    "SchedulerConfig", "SparseAttentionConfig",
    "SparseAttentionMode", "StopCriteria", "StreamerBase", "StreamingStatus",
    "StructuralTagItem", "StructuralTagsConfig", "StructuredOutputConfig", "SummaryStats",
    "TextParserStreamer", "TextStreamer", "TokenizedInputs", "Tokenizer", "draft_model",
    "get_version", "OmniTalkerSpeechConfig", "WhisperGenerationConfig",
]

# the wheel's other classes (Whisper, VLM, image generation...): stand-ins with every member of
# the real class, raising a clear error naming the feature when used (unsimulated.py)
_STANDINS = _unsimulated.standins(frozenset(globals()))
globals().update(_STANDINS)
__all__ += sorted(_STANDINS)
