"""Sequences and sequence groups: the scheduler's view of a generation request.

Ported from openvino.genai@da1db864 ``src/cpp/src/sequence_group.hpp`` / ``sequence_group.cpp``
(``Sequence``, ``SequenceGroup``, ``SequenceStatus``), keeping what scheduling, the block manager
and prefix caching read and write: statuses, processed / scheduled token counts, preemption by
recompute (``preempt_tokens``), ``schedule_tokens`` / ``finish_iteration``, forking (beam
search), and the prefix hashes of KV blocks. Streaming, perf metrics and hidden states stay in
the pipeline (``ovlab.sim.genai``), which owns the generation handles.

A group holds one sequence per beam or parallel sample; they share the prompt and, through
reference counts in the block manager, its KV blocks.

Differences from C++, on purpose:
- the block hash is BLAKE2b over the same int64 content (prefix hash + block tokens) instead of
  ``std::hash<std::string_view>``, so that it is the same on every machine and run;
- ``sampling_params`` is duck-typed: anything with GenAI ``GenerationConfig``'s fields
  (``max_new_tokens``, ``max_length``, ``num_beams``, ``num_return_sequences``, ``do_sample``)
  works, ``ovlab.sim.genai.GenerationConfig`` included; :class:`SamplingParams` is the minimal one.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import struct
from collections.abc import Sequence as _Seq
from dataclasses import dataclass
from typing import Any

import numpy as np

SIZE_MAX = 2**64 - 1


def _require(condition: bool, *message: object) -> None:
    """``OPENVINO_ASSERT`` (GenAI's Python binding surfaces it as RuntimeError)."""
    if not condition:
        raise RuntimeError("".join(str(m) for m in message))


class SequenceStatus(enum.IntEnum):
    RUNNING = 0
    FINISHED = 1
    OUT_OF_MEMORY = 2
    WAITING = 3


class SequenceGroupType(enum.IntEnum):
    TOKENS = 0
    EMBEDDINGS = 1


class GenerationStatus(enum.IntEnum):
    """``ov::genai::GenerationStatus`` (generation_handle.hpp): what the handle reports."""

    RUNNING = 0
    FINISHED = 1
    IGNORED = 2
    CANCEL = 3
    STOP = 4


@dataclass
class SamplingParams:
    """The fields of ``GenerationConfig`` the scheduler reads (generation_config.cpp)."""

    max_new_tokens: int = SIZE_MAX
    max_length: int = SIZE_MAX
    num_beams: int = 1
    num_return_sequences: int = 1
    do_sample: bool = False
    tree_depth: int = 0


def get_greedy_config() -> SamplingParams:
    """``utils::get_greedy_config()``: greedy, 30 new tokens."""
    return SamplingParams(max_new_tokens=30)


def get_beam_search_config() -> SamplingParams:
    """``utils::get_beam_search_config()``: 4 beams (2 groups), 3 returned, 100 new tokens."""
    return SamplingParams(max_new_tokens=100, num_beams=4, num_return_sequences=3)


def get_multinomial_config() -> SamplingParams:
    """``utils::get_multinomial_config()``: sampling, 3 returned, 30 new tokens."""
    return SamplingParams(max_new_tokens=30, do_sample=True, num_return_sequences=3)


def is_beam_search(params: Any) -> bool:
    return getattr(params, "num_beams", 1) > 1


def is_multinomial(params: Any) -> bool:
    return bool(getattr(params, "do_sample", False))


def get_max_new_tokens(params: Any, prompt_length: int) -> int:
    """``GenerationConfig::get_max_new_tokens``: max_new_tokens if set, else max_length - prompt."""
    max_new = getattr(params, "max_new_tokens", SIZE_MAX)
    if max_new is None:
        max_new = SIZE_MAX
    if max_new != SIZE_MAX:
        return int(max_new)
    max_length = getattr(params, "max_length", SIZE_MAX)
    _require(max_length > prompt_length, "Internal error: generation_config.max_length should be "
             "bigger than number of prompt tokens")
    return int(max_length) - prompt_length


_sequence_ids = itertools.count()  # Sequence::_get_next_global_sequence_id

_EMBEDDINGS_HASH_MAX_NUM_VALUES = 10
_EMBEDDINGS_HASH_CALCULATION_STRIDE = 50


def _hash_int64(content: list[int]) -> int:
    """A 64-bit hash of an int64 vector (sequence_group.cpp hashes the same bytes)."""
    mask = (1 << 64) - 1  # the int64 bytes C++ hashes (prefix hashes are unsigned 64-bit)
    data = np.asarray([v & mask for v in content], dtype=np.uint64).tobytes()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def _reduce_embedding(embedding: _Seq[float]) -> list[int]:
    """``Sequence::_reduce_embedding``: every 50th float's bits, at most 10 of them."""
    n = min(-(-len(embedding) // _EMBEDDINGS_HASH_CALCULATION_STRIDE),
            _EMBEDDINGS_HASH_MAX_NUM_VALUES)
    out = []
    for idx in range(n):
        bits = struct.unpack("<I", struct.pack("<f", float(embedding[idx * 50])))[0]
        out.append(bits)  # the float's 4 bytes in the low half of an int64, as memcpy does
    return out


class Sequence:
    """One sequence of tokens (a beam or a sample) within a :class:`SequenceGroup`."""

    def __init__(self, grouped_id: int, type: SequenceGroupType = SequenceGroupType.TOKENS,
                 hidden_size: int = 0) -> None:
        self._grouped_id = grouped_id
        self._id = next(_sequence_ids)
        self._type = type
        self._hidden_size = hidden_size
        self._generated_ids: list[int] = []
        self._generated_log_probs: list[float] = []
        self._generated_ids_embeds: list[list[float]] = []
        self._status = SequenceStatus.RUNNING
        self._finish_reason = None
        self._cumulative_log_prob = 0.0
        self._prefix_hashes: list[int] = []
        self._sequence_group: SequenceGroup | None = None

    @classmethod
    def create(cls, grouped_id: int, type: SequenceGroupType = SequenceGroupType.TOKENS,
               hidden_size: int = 0) -> Sequence:
        return cls(grouped_id, type, hidden_size)

    @classmethod
    def fork(cls, sequence: Sequence, grouped_id: int) -> Sequence:
        """``Sequence::fork``: a copy with a new global id (beam search)."""
        s = cls(grouped_id, sequence._type, sequence._hidden_size)
        s._generated_ids = list(sequence._generated_ids)
        s._generated_log_probs = list(sequence._generated_log_probs)
        s._generated_ids_embeds = [list(e) for e in sequence._generated_ids_embeds]
        s._status = sequence._status
        s._cumulative_log_prob = sequence._cumulative_log_prob
        s._prefix_hashes = list(sequence._prefix_hashes)
        s._sequence_group = sequence._sequence_group
        return s

    def __repr__(self) -> str:
        return (f"<Sequence id={self._id} grouped_id={self._grouped_id} "
                f"{self._status.name} generated={len(self._generated_ids)}>")

    def get_id(self) -> int:
        return self._id

    def get_grouped_id(self) -> int:
        return self._grouped_id

    def has_finished(self) -> bool:
        return self._status == SequenceStatus.FINISHED

    def is_running(self) -> bool:
        return self._status == SequenceStatus.RUNNING

    def out_of_memory(self) -> bool:
        return self._status == SequenceStatus.OUT_OF_MEMORY

    def is_waiting(self) -> bool:
        return self._status == SequenceStatus.WAITING

    def set_status(self, status: SequenceStatus) -> None:
        self._status = SequenceStatus(status)

    def get_status(self) -> SequenceStatus:
        return self._status

    def get_finish_reason(self):
        return self._finish_reason

    def set_finish_reason(self, reason) -> None:
        self._finish_reason = reason

    def append_token(self, token_id: int, log_prob: float) -> None:
        self._cumulative_log_prob += log_prob
        self._generated_log_probs.append(float(log_prob))
        self._generated_ids.append(int(token_id))

    def remove_last_tokens(self, n: int) -> None:
        """Drop the last ``n`` generated tokens (stop strings, rejected draft tokens)."""
        _require(n >= 0, "Number of tokens to remove must be greater than or equal to 0")
        _require(len(self._generated_ids) >= n, "Cannot remove more tokens than has been generated")
        for _ in range(n):
            self._cumulative_log_prob -= self._generated_log_probs.pop()
            self._generated_ids.pop()
        if self._type == SequenceGroupType.EMBEDDINGS and n:
            del self._generated_ids_embeds[-n:]

    def append_generated_ids_embeds(self, embeds: Any) -> None:
        """Embeddings of generated tokens, ``[1, n, hidden]`` (as C++) or ``[n, hidden]``."""
        _require(self._type == SequenceGroupType.EMBEDDINGS)
        arr = np.asarray(embeds, dtype=np.float32)
        if arr.ndim == 3:
            arr = arr[0]
        _require(arr.ndim == 2 and arr.shape[1] == self._hidden_size,
                 f"generated embeddings must be [tokens, {self._hidden_size}]")
        self._generated_ids_embeds.extend([float(x) for x in row] for row in arr)

    def get_generated_ids_embeds(self) -> list[list[float]]:
        return self._generated_ids_embeds

    def get_generated_len(self) -> int:
        return len(self._generated_ids)

    def get_generated_ids(self) -> list[int]:
        return self._generated_ids

    def get_generated_log_probs(self) -> list[float]:
        return self._generated_log_probs

    def get_cumulative_log_prob(self) -> float:
        return self._cumulative_log_prob

    def set_sequence_group_ptr(self, sequence_group: SequenceGroup) -> None:
        self._sequence_group = sequence_group

    def get_sequence_group_ptr(self) -> SequenceGroup:
        _require(self._sequence_group is not None, "Sequence is not attached to a sequence group")
        return self._sequence_group

    # --- prefix hashes (sequence_group.cpp) -------------------------------------------------
    def _make_hash(self, content_length: int, block_size: int) -> int:
        """``Sequence::_make_hash``: hash(prefix hash of the previous block + this block's
        tokens), for the block that holds token ``content_length - 1``."""
        _require(content_length > 0, "Hash computation requires positive content length")
        _require(block_size > 0, "Hash computation requires positive block size")
        group = self.get_sequence_group_ptr()
        block_start_idx = content_length - (content_length % block_size)
        if block_start_idx == content_length:
            block_start_idx -= block_size
        content: list[int] = []
        filled_blocks_count = block_start_idx // block_size
        _require(filled_blocks_count <= len(self._prefix_hashes))
        if filled_blocks_count > 0:
            content.append(self._prefix_hashes[filled_blocks_count - 1])
        if group.get_sequence_group_type() == SequenceGroupType.TOKENS:
            prompt_ids = group.get_prompt_ids()
            _require(content_length <= len(prompt_ids) + len(self._generated_ids))
            if block_start_idx < len(prompt_ids):
                content.extend(prompt_ids[block_start_idx:min(len(prompt_ids), content_length)])
            if content_length > len(prompt_ids):
                start = 0 if block_start_idx < len(prompt_ids) else block_start_idx - len(prompt_ids)
                content.extend(self._generated_ids[start:content_length - len(prompt_ids)])
        else:
            input_embeds = group.get_input_embeds()
            generated = self._generated_ids_embeds
            _require(content_length <= len(input_embeds) + len(generated))
            if block_start_idx < len(input_embeds):
                for idx in range(block_start_idx, min(len(input_embeds), content_length)):
                    content.extend(_reduce_embedding(input_embeds[idx]))
            if content_length > len(input_embeds):
                start = 0 if block_start_idx < len(input_embeds) else block_start_idx - len(input_embeds)
                for idx in range(start, content_length - len(input_embeds)):
                    content.extend(_reduce_embedding(generated[idx]))
        return _hash_int64(content)

    def get_hash(self, content_length: int | None = None, block_size: int | None = None) -> int:
        """``Sequence::get_hash(content_length, block_size)``; ``get_hash(block_size=b)`` uses the
        group's context length, as ``get_hash(size_t block_size)`` does."""
        group = self.get_sequence_group_ptr()
        if block_size is None:
            raise TypeError("get_hash needs block_size")
        if content_length is None:
            content_length = group.get_context_len()
        _require(content_length > 0, "Hash computation requires positive content length")
        _require(block_size > 0, "Hash computation requires positive block size")
        cur_content = block_size * (len(self._prefix_hashes) + 1)
        while cur_content <= content_length:
            self._prefix_hashes.append(self._make_hash(cur_content, block_size))
            cur_content += block_size
        if content_length % block_size == 0:
            return self._prefix_hashes[content_length // block_size - 1]
        return self._make_hash(content_length, block_size)


class SequenceGroup:
    """A request: its prompt, its sequences (one, or one per beam / sample) and where its
    processing stands (``sequence_group.hpp``, class ``SequenceGroup``).

    ``prompt`` is a 1-D sequence of int token ids, or a 2-D ``[tokens, hidden]`` (or 3-D
    ``[1, tokens, hidden]``) float array of input embeddings.
    """

    def __init__(self, request_id: int, prompt: Any, sampling_params: Any = None) -> None:
        self._request_id = int(request_id)
        self._sampling_params = sampling_params if sampling_params is not None else SamplingParams()
        self._sequences: list[Sequence] = []
        self._prompt_ids: list[int] = []
        self._input_embeds: list[list[float]] = []
        self._num_evicted_tokens = 0
        self._next_sequence_id = 0
        self._num_processed_tokens = 0
        self._num_scheduled_tokens = 0
        self._max_content_len = 0
        self._num_validation_tokens = 0
        self._is_gen_paused = False
        self._output_seq_len = 0
        self._generation_status = GenerationStatus.RUNNING
        arr = np.asarray(prompt)
        hidden_size = 0
        _require(arr.size > 0, "Prompt length cannot be 0")
        if arr.dtype.kind in "iu":
            self._type = SequenceGroupType.TOKENS
            self._prompt_ids = [int(t) for t in arr.reshape(-1)]
            prompt_len = len(self._prompt_ids)
        elif arr.dtype.kind == "f":
            self._type = SequenceGroupType.EMBEDDINGS
            if arr.ndim == 3:
                arr = arr[0]
            _require(arr.ndim == 2, "Input embeddings must be [tokens, hidden_size]")
            hidden_size = int(arr.shape[1])
            self._input_embeds = [list(map(float, row)) for row in arr]
            prompt_len = len(self._input_embeds)
        else:
            raise RuntimeError("Unknown tensor format.")
        _require(prompt_len > 0, "Prompt length cannot be 0")
        self.add_sequence(Sequence.create(self._next_sequence_id, self._type, hidden_size))
        self._next_sequence_id += 1

    def __repr__(self) -> str:
        return (f"<SequenceGroup request_id={self._request_id} prompt={self.get_prompt_len()} "
                f"processed={self._num_processed_tokens} scheduled={self._num_scheduled_tokens} "
                f"seqs={[s.get_status().name for s in self._sequences]}>")

    # --- sequences --------------------------------------------------------------------------
    def add_sequence(self, sequence: Sequence) -> None:
        sequence.set_sequence_group_ptr(self)
        self._sequences.append(sequence)

    def remove_sequence(self, sequence_id: int) -> None:
        before = len(self._sequences)
        self._sequences = [s for s in self._sequences if s.get_id() != sequence_id]
        _require(len(self._sequences) != before, "Failed to remove sequence with specified ID")

    def fork_sequence(self, sequence: Sequence) -> Sequence:
        forked = Sequence.fork(sequence, self._next_sequence_id)
        self._next_sequence_id += 1
        self._sequences.append(forked)
        return forked

    def __getitem__(self, index: int) -> Sequence:
        _require(len(self._sequences) > index)
        return self._sequences[index]

    def get_sequences(self) -> list[Sequence]:
        return self._sequences

    def num_total_seqs(self) -> int:
        return len(self._sequences)

    def num_running_seqs(self) -> int:
        return sum(1 for s in self._sequences if s.is_running())

    def has_finished(self) -> bool:
        return not self.is_running()

    def is_running(self) -> bool:
        return self.num_running_seqs() > 0

    def has_sequence_with_id(self, seq_id: int) -> bool:
        return any(s.get_id() == seq_id for s in self._sequences)

    def get_sequence_by_id(self, seq_id: int) -> Sequence:
        for s in self._sequences:
            if s.get_id() == seq_id:
                return s
        raise RuntimeError(f"sequence with id {seq_id} not found in sequence group with request "
                           f"id {self._request_id}")

    def get_not_finished_sequences(self) -> list[Sequence]:
        return [s for s in self._sequences if not s.has_finished()]

    def get_running_sequences(self) -> list[Sequence]:
        return [s for s in self._sequences if s.is_running()]

    def get_finished_sequences(self) -> list[Sequence]:
        return [s for s in self._sequences if s.has_finished() or s.out_of_memory()
                or self.handle_stopped() or self.handle_cancelled()]

    # --- the prompt -------------------------------------------------------------------------
    def get_request_id(self) -> int:
        return self._request_id

    def get_prompt_len(self) -> int:
        if self._type == SequenceGroupType.EMBEDDINGS:
            return len(self._input_embeds)
        return len(self._prompt_ids)

    def get_prompt_ids(self) -> list[int]:
        return self._prompt_ids

    def get_input_embeds(self) -> list[list[float]]:
        _require(self._type == SequenceGroupType.EMBEDDINGS)
        return self._input_embeds

    def get_sequence_group_type(self) -> SequenceGroupType:
        return self._type

    def get_sampling_parameters(self) -> Any:
        return self._sampling_params

    def get_max_new_tokens(self) -> int:
        return get_max_new_tokens(self._sampling_params, self.get_prompt_len())

    # --- where processing stands ------------------------------------------------------------
    def pause_generation(self, status: bool) -> None:
        self._is_gen_paused = bool(status)

    def can_generate_tokens(self) -> bool:
        """Whether the whole prompt was processed once (then each step makes a token)."""
        return (self._max_content_len + self._num_validation_tokens >= self.get_prompt_len()
                and not self._is_gen_paused)

    def get_num_scheduled_tokens(self) -> int:
        return self._num_scheduled_tokens

    def get_num_processed_tokens(self) -> int:
        return self._num_processed_tokens

    def get_output_seq_len(self) -> int:
        return self._output_seq_len

    def set_output_seq_len(self, n: int) -> None:
        self._output_seq_len = n

    def register_token_eviction(self, num_evicted_tokens: int) -> None:
        self._num_evicted_tokens += num_evicted_tokens

    def reset_eviction_token_count(self) -> None:
        self._num_evicted_tokens = 0

    def get_num_evicted_tokens(self) -> int:
        return self._num_evicted_tokens

    def preempt_tokens(self, num_preempt_tokens: int) -> None:
        """Preemption by recompute: forget the KV of the last ``num_preempt_tokens`` tokens."""
        _require(num_preempt_tokens <= self._num_processed_tokens)
        self._num_processed_tokens -= num_preempt_tokens

    def get_context_len(self) -> int:
        return self._num_processed_tokens + self._num_scheduled_tokens

    def requires_sampling(self) -> bool:
        return (self.get_context_len() >= self.get_prompt_len()
                and self.get_context_len() > self._max_content_len
                and self.get_max_new_tokens() > 0)

    def schedule_tokens(self, num_tokens: int) -> None:
        self._num_scheduled_tokens = num_tokens
        self._output_seq_len = num_tokens  # unless told otherwise, the sampler reads them all

    def clear_scheduled_tokens(self) -> None:
        self._num_scheduled_tokens = 0
        self._num_validation_tokens = 0
        self._output_seq_len = 0

    def is_scheduled(self) -> bool:
        return self._num_scheduled_tokens > 0

    def set_num_validated_tokens(self, k: int) -> None:
        self._num_validation_tokens = k

    def get_num_tokens_to_validate(self) -> int:
        return self._num_validation_tokens

    def get_num_available_tokens_for_batching(self) -> int:
        """Tokens this group could run now: the rest of the prompt (or of what was preempted),
        at least 1, plus tokens to validate."""
        _require(not self.has_finished(), "Internal error: this function cannot be called on "
                 "finished sequence group")
        _require(self._num_scheduled_tokens == 0, "Internal error: this function cannot be "
                 "called when we are already in scheduling phase")
        num_available = max(self.get_prompt_len(), self._max_content_len)
        return max(num_available - self._num_processed_tokens, 1) + self._num_validation_tokens

    def finish_iteration(self) -> None:
        """After the model ran: scheduled tokens become processed ones."""
        self._num_processed_tokens += self._num_scheduled_tokens
        # if some processed tokens were evicted, max content len is greater than processed
        self._max_content_len = max(self._max_content_len, self._num_processed_tokens)
        self.clear_scheduled_tokens()

    def update_processed_tokens_num(self, processed_tokens: int) -> None:
        self._num_processed_tokens = processed_tokens
        self._max_content_len = processed_tokens

    def get_num_cached_tokens(self) -> int:
        _require(self._num_processed_tokens >= self._num_evicted_tokens)
        return self._num_processed_tokens - self._num_evicted_tokens

    # --- statuses ---------------------------------------------------------------------------
    def clear_waiting_sequences(self) -> None:
        if not self.is_waiting():
            return
        for s in self._sequences:
            if s.is_waiting():
                s.set_status(SequenceStatus.RUNNING)

    def set_out_of_memory(self) -> None:
        for s in self._sequences:
            if s.is_running():
                s.set_status(SequenceStatus.OUT_OF_MEMORY)

    def out_of_memory(self) -> bool:
        return any(s.out_of_memory() for s in self._sequences)

    def set_waiting(self) -> None:
        for s in self._sequences:
            if s.is_running():
                s.set_status(SequenceStatus.WAITING)

    def is_waiting(self) -> bool:
        return any(s.is_waiting() for s in self._sequences) or self._is_gen_paused

    # --- the generation handle's status (GenerationStream) ----------------------------------
    def set_generation_status(self, status: GenerationStatus) -> None:
        self._generation_status = GenerationStatus(status)

    def get_generation_status(self) -> GenerationStatus:
        return self._generation_status

    def handle_stopped(self) -> bool:
        return self._generation_status == GenerationStatus.STOP

    def handle_cancelled(self) -> bool:
        return self._generation_status == GenerationStatus.CANCEL
