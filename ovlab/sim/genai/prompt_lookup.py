"""Prompt-lookup decoding: ``LLMPipeline(path, device, prompt_lookup=True)``.

GenAI's ``prompt_lookup/`` (openvino.genai@da1db864): before each step, every running sequence
gets up to ``num_assistant_tokens`` candidates copied from its own text: the longest n-gram
(``max_ngram_size`` down to 1) ending the prompt plus generated text that also occurs earlier,
and the tokens that followed it there (``generate_candidates``); short lists are padded with -1
to ``num_assistant_tokens``, "to maintain consistent shape". The main model then runs the last
token and all candidates in **one step** (1 + ``num_assistant_tokens`` tokens), and the sampler
accepts the leading candidates equal to its own greedy tokens, plus its next token. The text is
therefore the greedy text, unchanged (a reference run produces it, as for speculative decoding);
what changes is the number of main-model passes, each timed by the step cost at 1 + K tokens.
Batch 1, greedy, as GenAI's streaming path requires.
"""

from __future__ import annotations

from typing import Any

from ..trace.records import InferenceRecord
from .config import GenerationConfig, StreamingStatus, make_streamer
from .continuous_batching import SequenceStatus
from .results import DecodedResults, EncodedResults, PerfMetrics
from .timing import Chunk

PADDING_TOKEN_ID = -1  # continuous_batching_for_prompt_lookup.cpp


def generate_candidates(input_ids: list[int], num_pred_tokens: int, max_ngram_size: int
                        ) -> list[int]:
    """``ContinuousBatchingForPromptLookupImpl::generate_candidates``."""
    if num_pred_tokens == 0:
        return []
    n = len(input_ids)
    if max_ngram_size >= n:
        max_ngram_size = n // 2
    for size in range(max_ngram_size, 0, -1):
        ngram = input_ids[n - size:]
        for i in range(n - size):
            if input_ids[i:i + size] != ngram:
                continue
            start = i + size
            return input_ids[start:start + min(n - start, num_pred_tokens)]
    return []


def check(cfg: GenerationConfig) -> None:
    if not cfg.is_prompt_lookup():
        raise RuntimeError("`max_ngram_size` && `num_assistant_tokens` should be specified for "
                           "`prompt lookup decoding`")


def generate(pipe, ids_rows: list[list[int]], cfg: GenerationConfig, streamer: Any,
             encoded: bool):
    """Prompt-lookup generation on ``pipe``'s engine (its device, clock and trace)."""
    from ..runtime.core import Core

    check(cfg)
    if len(ids_rows) != 1:
        raise RuntimeError("Currently only batch size=1 is supported")
    eng = pipe._engine
    clock, core = eng.core.clock, eng.core
    start = clock.now
    ids = ids_rows[0]
    if getattr(pipe, "_pl_reference", None) is None:
        pipe._pl_reference = type(pipe)(pipe._models_path, "CPU",  # an LLMPipeline
                                        core=Core(core.platform, seed=core.seed))
    ref = pipe._pl_reference
    if eng.model is not None and ref._engine.model is not None:  # the same LoRA (lora.py)
        ref._engine.model.w, ref._engine.model.lora = eng.model.w, eng.model.lora
    plain = cfg.copy()
    plain.num_assistant_tokens, plain.max_ngram_size = None, 0
    reqs = ref._run([ids], [plain], None, ref._engine.core.clock.now)
    tokens = list(reqs[0].group.get_sequences()[0].get_generated_ids())

    pm = PerfMetrics()
    pm.num_input_tokens = len(ids)
    pm.load_time = pipe._load_time_ms
    raw = pm.raw_metrics
    stream = make_streamer(streamer, pipe._tokenizer)
    k_max = int(cfg.num_assistant_tokens)
    passes = [0]

    def run(chunk: Chunk) -> None:
        seconds, memory_s = eng.step_seconds([chunk])
        t0 = clock.now
        eng._run_on_device(seconds, memory_s)
        passes[0] += 1
        core.trace.add(InferenceRecord(core._next_seq(), 0, eng.name, eng.device, t0, t0,
                                       clock.now, worker="genai", batch_id=passes[0],
                                       batch_size=chunk.tokens))

    def emit(new: list[int]) -> bool:
        raw.m_new_token_times.append(clock.now)
        raw.m_batch_sizes.append(len(new))
        if stream is not None:
            for t in new:
                if stream.write(t) != StreamingStatus.RUNNING:
                    return False
        return True

    # the request in the main engine's scheduler: candidates are appended to the sequence and
    # take KV slots for the validation step, as in GenAI; rejected ones are removed afterwards
    # and their blocks freed (``Scheduler.clean_empty_blocks`` at the next schedule)
    req = eng.add_request(pipe._next_id, ids, plain)
    pipe._next_id += 1
    eng.awaiting.remove(req.group)
    group = req.group
    seq = group.get_sequences()[0]
    emitted, going, accepted_total, proposed = 0, bool(tokens), 0, 0
    while going and emitted < len(tokens):
        k = 0
        cands: list[int] = []
        if emitted:  # generate_candidates_for_prompt_lookup: none before the first token
            left = cfg.get_max_new_tokens(len(ids)) - emitted - 1
            cands = generate_candidates(ids + tokens[:emitted], min(k_max, max(0, left)),
                                        int(cfg.max_ngram_size))
            k = k_max  # padded with -1 to num_assistant_tokens, "to maintain consistent shape"
            for c in cands + [PADDING_TOKEN_ID] * (k - len(cands)):
                seq.append_token(c, 0.0)
            group.set_num_validated_tokens(k)
        out = eng.scheduler.schedule([group])
        eng.step_count += 1
        core.trace.scheduler_step(out.step_record(eng.step_count, clock.now, eng.device, eng.name))
        eng.metrics.cache_usage = out.m_cache_usage
        eng.metrics.max_cache_usage = max(eng.metrics.max_cache_usage, out.m_cache_usage)
        if out.m_total_num_scheduled_tokens == 0:
            raise RuntimeError("prompt lookup: the KV cache has no room for the prompt and its "
                               f"{k} candidates")
        run(Chunk(group.get_num_scheduled_tokens(), group.get_num_processed_tokens()))
        sampling = group.requires_sampling()
        accepted = 0
        if sampling:
            for c in cands:
                if emitted + accepted < len(tokens) and c == tokens[emitted + accepted]:
                    accepted += 1
                else:
                    break
            seq.remove_last_tokens(k)  # candidates: the accepted ones come back as tokens
            new = tokens[emitted:emitted + accepted + 1]
            for t in new:
                seq.append_token(t, 0.0)
        group.finish_iteration()
        if sampling:
            if k:
                proposed += k
                accepted_total += accepted
                # the KV of the rejected candidates is dropped: processed up to the last token
                group.update_processed_tokens_num(len(ids) + emitted + len(new) - 1)
            emitted += len(new)
            going = emit(new)
    seq.set_status(SequenceStatus.FINISHED)
    if eng.scheduler.has_block_table(seq.get_id()):
        eng.scheduler.free_sequence(seq.get_id())
    eng.forget(req)
    if stream is not None:
        stream.end()
    pm.evaluate(start)
    pm.raw_metrics.generate_durations = [(clock.now - start) * 1e6]
    tokens = tokens[:emitted]
    pipe._pl_last = {"passes": passes[0], "accepted": accepted_total, "proposed": proposed}
    if encoded:
        res = EncodedResults()
        res.tokens = [tokens]
    else:
        res = DecodedResults()
        res.texts = [pipe._tokenizer.decode(tokens)]
    res.scores = [reqs[0].cumulative_log_prob]
    res.finish_reasons = [reqs[0].finish_reason]
    res.perf_metrics = pm
    return res


__all__ = ["generate", "generate_candidates"]
