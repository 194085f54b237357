"""Decoding under a grammar: the token mask of each step, for the real model and the stand-ins.

GenAI's sampler asks xgrammar for a bitmask of the tokens the grammar allows next and sets the
others' logits to -inf (``XGrammarLogitsTransformer::apply``); EOS (and the other stop tokens)
are allowed once the grammar accepts. ovlab does the same with llguidance's ``LLMatcher`` over
the model's own vocabulary (``vocab_tokens``: every token's bytes, whatever the tokenizer):

- the tiny model's logits are masked, then greedy or multinomial sampling picks as usual;
- a virtual model's stand-in writes text that the grammar allows (:class:`StandInChooser`):
  its own next token where the grammar allows it, otherwise a seeded pick among the allowed
  tokens that prefers words of the prompt and of the corpus, closes a value after a few tokens,
  and writes a tool call after a sentence when the grammar has triggers.

The mask is computed on the host CPU between two model steps, so it adds to every token's time
(TPOT). :func:`mask_seconds` models that cost from a measurement (a model, not a live timer:
simulated time stays deterministic).
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from typing import Any

import numpy as np

from .grammar import llguidance_grammar
from .structured import StructuredOutputConfig

#: host CPU seconds to compute one token mask: a base per token plus a part per vocabulary id
#: (the token trie's walk). Fitted to llguidance 1.9.1 measured by
#: ``benchmarks/bench_grammar_mask.py`` (one thread, JSON schema, no_forcing as ``grammar.py``
#: compiles it, the mean over an answer's tokens, median of 5 runs) on the build machine, lscpu
#: "Intel(R) Xeon(R) Processor" (2 vCPUs shared), 2026-12-07: 6.6-7.0 µs per token for the tiny
#: model's 512 tokens, 17.8-18.4 µs for Llama 2's 32,064, 29.5-31.7 µs for Qwen2's 151,936 ids.
#: Published figures are of the same order: XGrammar (GenAI's engine; Dong et al., MLSys 2025)
#: and llguidance (guidance-ai/jsonschemabench, maskbench) report tens of µs per token on
#: 128k-150k vocabularies. Beside a 7B model's 15-60 ms per token it is a small share of TPOT;
#: beside the tiny model's step it is not.
MASK_BASE_S, MASK_PER_VOCAB_S = 9.9e-6, 1.5e-10
#: host CPU seconds to compile a request's grammar (GenAI's grammar_compile_times): the same
#: measurement gave 0.9-3.2 ms whatever the vocabulary; its middle.
COMPILE_BASE_S, COMPILE_PER_VOCAB_S = 1.6e-3, 0.0


def mask_seconds(vocab_size: int) -> float:
    """The modelled host time of one token mask over a vocabulary of ``vocab_size`` tokens."""
    return MASK_BASE_S + MASK_PER_VOCAB_S * vocab_size


def compile_seconds(vocab_size: int) -> float:
    """The modelled host time of compiling one request's grammar."""
    return COMPILE_BASE_S + COMPILE_PER_VOCAB_S * vocab_size


def _byte_decoder() -> dict[str, int]:
    """GPT-2's byte-level alphabet, character -> byte (the inverse of bytes_to_unicode)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    cs, n = bs[:], 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs, strict=True)}


_BYTE_FALLBACK = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")


@cache
def vocab_tokens(vocab: Any) -> tuple[list[bytes], set[int]]:
    """Every token id's bytes (b"" for an id the vocabulary does not use) and the special ids.
    A special token is written as llguidance expects: 0xFF, then its text."""
    if vocab.name == "ovlab-course-bpe":
        from .bpe import SPECIALS

        pieces = list(vocab.bpe.pieces)
        specials = set(range(len(SPECIALS)))
        return [b"\xff" + p if i in specials else p for i, p in enumerate(pieces)], specials
    tok = vocab.tok
    table = tok.get_vocab(with_added_tokens=True)
    added = {i for i, t in tok.get_added_tokens_decoder().items() if t.special}
    out = [b""] * (max(table.values()) + 1)
    decoder = _byte_decoder()
    sentencepiece = getattr(vocab, "prepends_space", False)
    for piece, i in table.items():
        if i in added:
            out[i] = b"\xff" + piece.encode()
        elif sentencepiece:
            m = _BYTE_FALLBACK.match(piece)
            out[i] = bytes([int(m.group(1), 16)]) if m else piece.replace("\u2581", " ").encode()
        else:
            out[i] = bytes(decoder.get(c, 0) for c in piece)
    return out, added


def vocabulary_of(tokenizer: Any) -> Any:
    """The vocabulary a pipeline's tokenizer encodes with (the course BPE for the tiny model)."""
    from .tokenizer import vocabulary

    return getattr(tokenizer, "_vocab", None) or vocabulary("ovlab-course-bpe")


@cache
def lltokenizer(vocab: Any):
    """llguidance's tokenizer over a vocabulary (built once per vocabulary: ~0.1-1 s)."""
    import llguidance

    tokens, specials = vocab_tokens(vocab)
    eos = vocab.specials[1]

    class _Wrapped:
        eos_token_id, bos_token_id = eos, vocab.specials[0]
        special_token_ids = sorted(specials)

        def __call__(self, text: bytes | str) -> list[int]:
            s = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
            if getattr(vocab, "prepends_space", False):  # the exact bytes: no dummy prefix
                return [t.id for t in vocab.tok.model.tokenize(s.replace(" ", "\u2581"))]
            return vocab.encode(s)

    _Wrapped.tokens = tokens
    return llguidance.LLTokenizer(llguidance.TokenizerWrapper(_Wrapped()))


@lru_cache(maxsize=64)
def _grammar(config_key: str, config: StructuredOutputConfig) -> str:
    return llguidance_grammar(config)


def compile_grammar(config: StructuredOutputConfig) -> str:
    """The llguidance grammar of a config; a config that cannot be compiled raises a
    RuntimeError that says why, as GenAI's ``create_grammar`` does when a request is added."""
    from .grammar import GrammarError

    try:
        return _grammar(repr(config), config)
    except GrammarError as err:
        raise RuntimeError(f"Structured output: {err}") from None
    except ValueError as err:  # llguidance's own refusals (a schema or regex it cannot read)
        raise RuntimeError(f"Structured output: the grammar could not be compiled: {err}") from None


class Constraint:
    """One sequence's grammar state: which tokens may come next, and the tokens taken."""

    def __init__(self, config: StructuredOutputConfig, vocab: Any, stop_ids: set[int]) -> None:
        import llguidance

        self.vocab = vocab
        self.tokenizer = lltokenizer(vocab)
        self.size = self.tokenizer.vocab_size
        self.matcher = llguidance.LLMatcher(self.tokenizer, compile_grammar(config), log_level=0)
        if self.matcher.is_error():
            raise RuntimeError("Structured output: the grammar could not be compiled: "
                               + self.matcher.get_error())
        self.eos = int(vocab.specials[1])
        self.stop_ids = {int(t) for t in stop_ids if 0 <= int(t) < self.size}

    def allowed(self) -> np.ndarray:
        """A bool per token id: allowed next. Stop tokens are allowed once the grammar accepts
        (GenAI overrides the grammar's stop tokens with the request's)."""
        bits = np.unpackbits(np.frombuffer(self.matcher.compute_bitmask(), np.uint8),
                             bitorder="little")[:self.size].astype(bool)
        if bits[self.eos] or self.matcher.is_accepting():
            bits[list(self.stop_ids | {self.eos})] = True
        return bits

    def accept(self, token: int) -> None:
        """Advance the grammar by ``token`` (a stop token ends the sequence instead)."""
        if token in self.stop_ids or token == self.eos:
            return
        if not self.matcher.consume_token(int(token)):
            raise RuntimeError(f"Structured output: token {token} is not allowed by the grammar "
                               f"({self.matcher.get_error()})")

    def forced(self) -> list[int]:
        """Tokens the grammar forces from here (a tag's fixed end, a key's name)."""
        return list(self.matcher.compute_ff_tokens())


def mask_logits(logits: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Logits with every token the grammar forbids at -inf (the bitmask of xgrammar's
    ``ApplyTokenBitmaskInplaceCPU``)."""
    out = np.array(logits, dtype=np.float64, copy=True)
    n = min(len(out), len(allowed))
    out[:n][~allowed[:n]] = -np.inf
    out[n:] = -np.inf
    return out


# --- the stand-ins' text under a grammar ------------------------------------------------------
_WORD = re.compile(rb"[A-Za-z]+")
#: tokens of a value a stand-in writes before it tends to close it: the chance to close grows by
#: this much per token (a string of 2-8 words, a number of 1-3 digits)
CLOSE_STEP = 0.3
#: the prompt's last tokens (the question, in a chat template) whose words a value takes first
QUESTION_TOKENS = 48
#: the chance that a stand-in takes a word of the prompt for a free value (an argument, a name)
COPY_CHANCE = 0.5
#: a stand-in ends a list when it may with a chance that grows from 0 after STRUCTURE_MIN tokens
#: to 0.9 (about two tool calls, a handful of items; never an empty list at once)
STRUCTURE_TOKENS, STRUCTURE_MIN = 100, 20
#: the chance that a stand-in writes a tool call (a trigger) after a sentence of free text
TRIGGER_CHANCE = 0.6


@cache
def _corpus_words() -> frozenset[bytes]:
    from . import corpus

    words = set()
    for doc in corpus.documents(0, 400):
        words.update(w.lower() for w in _WORD.findall(doc.encode()))
    return frozenset(words)


@cache
def token_prior(vocab: Any) -> np.ndarray:
    """A stand-in's weight for each token when it must pick among the allowed ones: printable
    ASCII words and punctuation are likely, the corpus's words more so; other scripts, bare
    whitespace and special tokens are rare."""
    tokens, specials = vocab_tokens(vocab)
    words = _corpus_words()
    prior = np.zeros(len(tokens))
    for i, t in enumerate(tokens):
        if not t or i in specials:
            continue
        if not all(32 <= b < 127 for b in t):
            prior[i] = 1e-6 if t.strip() else 1e-4
            continue
        core = t.strip()
        if not core:
            prior[i] = 1e-3
            continue
        if core != t and not any(chr(b).isalnum() for b in core):
            prior[i] = 1e-3  # punctuation with a space around it (' ,'): JSON writes it bare
            continue
        w = 1.0
        if core.isalpha() and core.lower() in words:
            w = 200.0
        prior[i] = w / (1.0 + 0.15 * len(core))
    return prior


def _closes(token: bytes) -> bool:
    """A token with no letter or digit: it can end a value ('"', '",', '}')."""
    return bool(token.strip()) and not any(chr(b).isalnum() for b in token)


class StandInChooser:
    """A virtual model's next token under a grammar: the stand-in's own text where the grammar
    allows it, a seeded pick among the allowed tokens otherwise."""

    def __init__(self, constraint: Constraint, prompt_ids: list[int], seed: list[int],
                 triggers: list[str]) -> None:
        self.c = constraint
        self.rng = np.random.default_rng(seed)
        self.tokens, _ = vocab_tokens(constraint.vocab)
        self.prior = token_prior(constraint.vocab)
        self.n_real = sum(1 for t in self.tokens if t)  # ids a cut vocabulary leaves unused
        # words of the prompt are likely values, those of its end (the question) the likeliest
        self.in_prompt = np.zeros(len(self.tokens), bool)
        self.in_prompt[[t for t in prompt_ids if 0 <= t < len(self.tokens)]] = True
        self.boost = np.where(self.in_prompt, 3.0, 1.0)
        self.boost[[t for t in prompt_ids[-QUESTION_TOKENS:] if 0 <= t < len(self.tokens)]] = 30.0
        self.triggers = [constraint.vocab.encode(" " + t.lstrip()) if t[:1].isalnum() else
                         constraint.vocab.encode(t) for t in triggers]
        self.run = 0  # tokens of the value being written
        self.count = 0  # tokens chosen
        self.word = False  # the last token was a whole word of the corpus
        self.pending: list[int] = []
        self.tags_written = 0

    def choose(self, proposal: int, allowed: np.ndarray) -> int:
        """The next token: ``proposal`` is the stand-in's own (its chain's next word)."""
        self.count += 1
        if self.pending:
            tok = self.pending.pop(0)
            if allowed[tok]:
                return tok
            self.pending.clear()
        ids = np.nonzero(allowed)[0]
        if len(ids) == 1:
            return int(ids[0])
        eos, accepting = self.c.eos, self.c.matcher.is_accepting()
        free = len(ids) > 0.5 * self.n_real
        proposal_ok = proposal < len(allowed) and bool(allowed[proposal])
        if free and accepting:  # free text: the stand-in's own words, and sometimes a tool call
            self.count = 0  # (a structure's length counts from its start)
            if self.triggers and proposal < len(self.tokens) and \
                    self.tokens[proposal].rstrip().endswith((b".", b"!", b"?")) and \
                    self.rng.random() < TRIGGER_CHANCE / (1 + self.tags_written):
                self.tags_written += 1
                self.pending = list(self.triggers[int(self.rng.integers(len(self.triggers)))])
            if proposal_ok:
                return proposal
        if accepting and not free and (set(ids.tolist()) <= self.c.stop_ids | {eos}
                                       or self.rng.random() < 0.7):
            return eos  # the structure is complete: end the answer there, as a model would
        ids = ids[(ids < len(self.tokens)) & (ids != eos)] if len(ids) > 1 else ids
        if len(ids) == 0:
            return eos
        blank = np.array([not self.tokens[i].strip() for i in ids])
        if (~blank).any():  # optional whitespace between JSON's tokens: a model writes it compact
            ids = ids[~blank]
        closing = np.array([_closes(self.tokens[i]) for i in ids])
        w = self.prior[ids] * self.boost[ids]
        if free:  # inside a value (a string): the stand-in's words, closed after a few
            if closing.any() and self.rng.random() < min(0.95, CLOSE_STEP * self.run):
                tok = self._closer(ids[closing], w[closing])
                self.run, self.word = 0, False
                return tok
            copied = ids[self.in_prompt[ids] & ~closing]
            if len(copied) and self.rng.random() < COPY_CHANCE:  # a value from the prompt
                cw = self.boost[copied] ** 2 * (self.prior[copied] > 0.01)  # the question's
                if cw.sum() <= 0:
                    cw = np.ones(len(copied))
                tok = int(copied[int(self.rng.choice(len(copied), p=cw / cw.sum()))])
                self.run += 1
                return tok
            if proposal_ok and proposal != eos:
                self.run += 1
                return proposal
            else:
                ids, w = ids[~closing], w[~closing]
        elif closing.all() and self.rng.random() < min(
                0.9, max(0, self.count - STRUCTURE_MIN) / STRUCTURE_TOKENS):
            return self._closer(ids, w)  # punctuation only (',' or ']'): end the structure
        elif closing.all() and len(ids) <= 64:  # not yet: an empty list or object is rare
            w = w * np.where(self._ends(ids), 0.02, 1.0)
        elif closing.any() and (~closing).any():  # a number, a name: close after a few tokens
            p_close = min(0.95, 2.5 * CLOSE_STEP * self.run + (0.5 if self.word else 0.0))
            w = np.where(closing, w * p_close / max(w[closing].sum(), 1e-30),
                         w * (1 - p_close) / max(w[~closing].sum(), 1e-30))
        if len(ids) == 0:
            return eos
        if w.sum() <= 0:
            w = np.ones(len(ids))
        tok = int(ids[int(self.rng.choice(len(ids), p=w / w.sum()))])
        self.run = 0 if _closes(self.tokens[tok]) else self.run + 1
        self.word = self.prior[tok] * (1.0 + 0.15 * len(self.tokens[tok].strip())) >= 200.0
        return tok


    def _ends(self, ids: np.ndarray) -> np.ndarray:
        """Whether the grammar accepts (the answer may end) after each of ``ids``."""
        m, out = self.c.matcher, np.zeros(len(ids), bool)
        for k, t in enumerate(ids):
            if m.consume_token(int(t)):
                out[k] = m.is_accepting()
                m.rollback(1)
        return out

    def _closer(self, ids: np.ndarray, w: np.ndarray, tries: int = 24) -> int:
        """The punctuation token that ends what is being written: of the likeliest few, the one
        after which the grammar accepts, or else allows the fewest tokens (a closing quote, not
        a comma inside the string; ']' rather than one more array item), the shortest on a tie;
        found by taking each and rolling it back."""
        plain = self.prior[ids] >= 0.01  # not '":"",\n': whitespace-padded punctuation
        if plain.any():
            ids, w = ids[plain], w[plain]
        order = np.argsort(-w, kind="stable")[:tries]
        m, best, best_key = self.c.matcher, int(ids[order[0]]), None
        for k in order:
            t = int(ids[k])
            if not m.consume_token(t):
                continue
            key = (not m.is_accepting(),
                   int(np.unpackbits(np.frombuffer(m.compute_bitmask(), np.uint8)).sum()),
                   len(self.tokens[t]))
            m.rollback(1)
            if best_key is None or key < best_key:
                best, best_key = t, key
        return best


def top_triggers(config: StructuredOutputConfig) -> list[str]:
    """The triggers of a config's outermost ``TriggeredTags`` (where free text may call a
    tool), for the stand-ins."""
    from .grammar import from_json
    from .structured import StructuralTagsConfig

    value = config.structural_tags_config if config.structural_tags_config is not None \
        else config.compound_grammar
    if isinstance(value, StructuralTagsConfig):
        return list(value.triggers)
    if isinstance(value, str):
        try:
            value = from_json(value)
        except Exception:
            return []
    if isinstance(value, StructuredOutputConfig.TriggeredTags) and not value.stop_after_first:
        return list(value.triggers)
    return []


def schema_of(config: StructuredOutputConfig) -> Any:
    """The JSON schema a config asks for, or None (for a test's validation)."""
    return json.loads(config.json_schema) if config.json_schema is not None else None
