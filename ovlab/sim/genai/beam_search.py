"""Beam search in continuous batching: GenAI's ``Sampler::GroupBeamSearcher``, ported.

openvino.genai@da1db864 ``src/cpp/src/sampling/sampler.cpp``: ``num_beams`` beams in
``num_beam_groups`` groups of ``num_beams / num_beam_groups``; at each step every beam of a group
offers its ``2 * group_size`` best tokens (log-softmax, minus ``diversity_penalty`` for each beam
of an earlier group that chose the same token this step, and ``no_repeat_ngram_size``), the best
``2 * group_size`` candidates of the group are kept, a stop token among the first ``group_size``
finishes a hypothesis (its score divided by ``generated_len ** length_penalty``, EOS counted),
the others become the group's next beams: a parent chosen more than once is **forked** (a new
sequence sharing its KV blocks, copied on write by the block manager), a parent not chosen is
**dropped** (its blocks freed). ``stop_criteria`` ends a group (EARLY, HEURISTIC, NEVER as in
``Group::is_done``); at ``max_new_tokens`` the running beams are finished (``finalize``). The
result is the finished sequences by ``cumulative_log_prob / generated_len ** length_penalty``,
the first ``num_return_sequences`` of them.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass

import numpy as np

from .config import GenerationFinishReason, StopCriteria
from .continuous_batching import SequenceGroup, SequenceStatus


@dataclass
class Beam:
    sequence: object
    global_beam_idx: int = 0
    log_prob: float = 0.0
    token_id: int = -1
    score: float = float("-inf")

    def copy(self) -> Beam:
        return Beam(self.sequence, self.global_beam_idx, self.log_prob, self.token_id, self.score)


class _Group:
    def __init__(self) -> None:
        self.ongoing: list[Beam] = []
        self.min_heap: list[tuple[float, int, Beam]] = []  # (score, tie, beam): worst first
        self.done = False

    def finish(self, beam: Beam, cfg, stop_ids: set[int], tie: int) -> int:
        """``Group::finish``: the id of the sequence pushed out of the hypotheses, or -1."""
        n = beam.sequence.get_generated_len() + (1 if beam.token_id in stop_ids else 0)
        beam = beam.copy()
        beam.score = _div(beam.score, float(n) ** cfg.length_penalty)
        heapq.heappush(self.min_heap, (beam.score, tie, beam))
        if len(self.min_heap) > cfg.num_beams // cfg.num_beam_groups:
            return heapq.heappop(self.min_heap)[2].sequence.get_id()
        return -1

    def is_done(self, cfg, max_new_tokens: int) -> None:
        group_size = cfg.num_beams // cfg.num_beam_groups
        if len(self.min_heap) < group_size:
            return
        best, worst = self.ongoing[0], self.min_heap[0][0]
        cur_len = best.sequence.get_generated_len()
        if cfg.stop_criteria == StopCriteria.EARLY:
            self.done = True
        elif cfg.stop_criteria == StopCriteria.HEURISTIC:
            self.done = worst >= _div(best.score, float(cur_len) ** cfg.length_penalty)
        else:  # NEVER
            length = max_new_tokens if cfg.length_penalty > 0.0 else cur_len
            self.done = worst >= _div(best.score, float(length) ** cfg.length_penalty)


def _div(a: float, b: float) -> float:
    """``a / b`` as C++ floats divide (a zero length gives inf or nan, not an exception)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


def log_softmax(row: np.ndarray) -> np.ndarray:
    x = row.astype(np.float32)
    m = x.max()
    return x - (m + np.log(np.exp(x - m).sum()))


class GroupBeamSearcher:
    """The beams of one request (one ``SequenceGroup``)."""

    def __init__(self, group: SequenceGroup, cfg, stop_ids: set[int]) -> None:
        assert group.num_running_seqs() == 1
        if cfg.num_beams % cfg.num_beam_groups:
            raise RuntimeError("number of beams should be divisible by number of groups")
        self.group, self.cfg, self.stop_ids = group, cfg, set(stop_ids)
        self.group_size = cfg.num_beams // cfg.num_beam_groups
        self.groups = [_Group() for _ in range(cfg.num_beam_groups)]
        base = group.get_running_sequences()[0]
        for g in self.groups:
            g.ongoing = [Beam(base) for _ in range(self.group_size)]
            g.ongoing[0].score = 0.0
        self._tie = itertools.count()

    def select_next_tokens(self, logits: np.ndarray, prompt_ids: list[int]
                           ) -> tuple[dict[int, list[int]], list[int]]:
        """One step: ``logits`` has a row per running sequence (in ``get_running_sequences``
        order). Returns (forked: parent id -> child ids, dropped sequence ids)."""
        cfg, sg, gs = self.cfg, self.group, self.group_size
        forked: dict[int, list[int]] = {}
        dropped: list[int] = []
        children_of: dict[int, int] = {}
        running_ids = [s.get_id() for s in sg.get_running_sequences()]
        for g in self.groups:
            if not g.done:
                for beam in g.ongoing:
                    beam.global_beam_idx = running_ids.index(beam.sequence.get_id())
                    children_of[beam.sequence.get_id()] = 0

        def try_to_finish(g: _Group, cand: Beam) -> None:
            seq_id = cand.sequence.get_id()
            preempted = g.finish(cand, cfg, self.stop_ids, next(self._tie))
            if preempted == seq_id:
                return
            if preempted >= 0:
                sg.remove_sequence(preempted)
            child = sg.fork_sequence(cand.sequence)
            child.set_status(SequenceStatus.FINISHED)
            child.set_finish_reason(GenerationFinishReason.STOP)
            for _, _, b in g.min_heap:
                if b.sequence.get_id() == seq_id:
                    b.sequence = child
                    break
            child.append_token(cand.token_id, cand.log_prob)

        child_beams: dict[int, list[Beam]] = {}
        for gid, g in enumerate(self.groups):
            if g.done:
                continue
            candidates: list[Beam] = []
            for beam in g.ongoing:
                lp = log_softmax(logits[beam.global_beam_idx])
                for prev in range(gid):
                    for pb in child_beams.get(prev, []):
                        lp[pb.token_id] -= cfg.diversity_penalty
                n = cfg.no_repeat_ngram_size
                full = list(prompt_ids) + list(beam.sequence.get_generated_ids())
                if len(full) > 1 and n < 2**63 and len(full) >= n:
                    tail = full[len(full) - n + 1:]
                    for i in range(len(full) - len(tail)):
                        if full[i:i + len(tail)] == tail:
                            lp[full[i + len(tail)]] = -np.inf
                order = np.argsort(-lp, kind="stable")[:2 * gs]
                for tok in order:
                    c = beam.copy()
                    c.log_prob = float(lp[tok])
                    c.score = beam.score + c.log_prob
                    c.token_id = int(tok)
                    candidates.append(c)
            if len(candidates) < 2 * gs:
                raise RuntimeError("No beams left to search")
            candidates.sort(key=lambda b: -b.score)  # partial_sort of the first 2 * group_size
            picked: list[Beam] = []
            for idx, cand in enumerate(candidates):
                if cand.token_id in self.stop_ids:
                    if idx >= gs:
                        continue
                    try_to_finish(g, cand)
                    continue
                children_of[cand.sequence.get_id()] += 1
                picked.append(cand)
                if len(picked) == gs:
                    break
            child_beams[gid] = picked
            if g.ongoing:
                g.is_done(cfg, sg.get_max_new_tokens())
            if not picked:
                g.done = True
            if g.done:
                for beam in g.ongoing:
                    seq_id = beam.sequence.get_id()
                    if sg.has_sequence_with_id(seq_id):
                        sg.remove_sequence(seq_id)
                        dropped.append(seq_id)
                g.ongoing = []
        for gid, g in enumerate(self.groups):
            if g.done:
                continue
            for child in child_beams[gid]:
                parent = child.sequence.get_id()
                if children_of[parent] > 1:
                    child.sequence = sg.fork_sequence(child.sequence)
                    child.sequence.append_token(child.token_id, child.log_prob)
                    children_of[parent] -= 1
                    forked.setdefault(parent, []).append(child.sequence.get_id())
                elif children_of[parent] == 1:
                    child.sequence.append_token(child.token_id, child.log_prob)
            for beam in g.ongoing:
                seq_id = beam.sequence.get_id()
                if children_of.get(seq_id, 0) == 0 and sg.has_sequence_with_id(seq_id):
                    dropped.append(seq_id)
                    sg.remove_sequence(seq_id)
            g.ongoing = child_beams[gid]
        return forked, dropped

    def finalize(self) -> list[int]:
        """``finalize``: at ``max_new_tokens`` the running beams become hypotheses."""
        dropped = []
        for g in self.groups:
            if g.done:
                continue
            for beam in g.ongoing:
                preempted = g.finish(beam, self.cfg, self.stop_ids, next(self._tie))
                if preempted >= 0 and self.group.has_sequence_with_id(preempted):
                    self.group.remove_sequence(preempted)
                beam.sequence.set_status(SequenceStatus.FINISHED)
                beam.sequence.set_finish_reason(GenerationFinishReason.LENGTH)
                dropped.append(beam.sequence.get_id())
        return dropped

    def results(self) -> list:
        """The finished sequences, best first (``get_finished_sequences``' order for beams)."""
        def score(s) -> float:
            n = max(1, s.get_generated_len())
            return _div(s.get_cumulative_log_prob(), float(n) ** self.cfg.length_penalty)

        seqs = sorted(self.group.get_sequences(), key=score, reverse=True)
        return [(s, score(s)) for s in seqs][:self.cfg.num_return_sequences]
