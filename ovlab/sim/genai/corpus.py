"""The text the tiny real LLM was trained on, made by a seeded grammar (no third-party text).

ovlab ships one LLM with real weights (``tiny.py``); it learns English-like sentences about the
devices and features ovlab teaches, as chats and as plain paragraphs. The grammar is ours, so
the corpus is free of any licence, and it is deterministic: ``corpus(seed)`` is the same text on
every machine. ``tools/train_tiny_llm.py`` trains on it; the seeded stand-in that writes the
large models' text (``standin.py``) samples a bigram chain of its tokens.
"""

from __future__ import annotations

import random

DEVICES = {
    "the CPU": ("runs every model", "has a few fast cores", "is the device that starts first",
                "keeps the weights in the system memory"),
    "the GPU": ("runs large batches fast", "needs a long compile", "shares the memory with the CPU",
                "is best for throughput"),
    "the NPU": ("runs small models at low power", "needs static shapes",
                "serves one request at a time", "is the quiet device"),
}
FEATURES = {
    "continuous batching": ("packs the tokens of many requests into one step",
                            "keeps the device busy", "schedules the decode of every sequence"),
    "the KV cache": ("holds the keys and values of every token", "grows with the prompt",
                     "is split into blocks", "limits how many sequences can run"),
    "prefix caching": ("reuses the blocks of a prompt seen before", "makes the first token fast",
                       "helps in a long chat"),
    "split fuse": ("cuts a long prompt into chunks", "mixes prompt chunks with decode steps",
                   "keeps the token budget full"),
    "automatic batching": ("collects requests of a static model", "waits for a full batch or a timeout",
                           "cannot batch a stateful model"),
    "the prefill": ("is bound by compute", "reads the whole prompt at once",
                    "decides the time to the first token"),
    "the decode": ("is bound by memory", "makes one token per step",
                   "reads every weight for each token"),
}
QUESTIONS = ("What does {x} do?", "Tell me about {x}.", "Why should I use {x}?",
             "How does {x} work?", "What is {x}?")
OPENERS = ("", "", "Sure. ", "Good question. ", "In short, ", "Well, ")
LINKS = (" and it ", ", so it ", ". Also, it ", ". It ")
TOPICS = ("the sky", "a model", "the lab", "a request", "the scheduler", "the token budget")
TOPIC_FACTS = ("is blue because light scatters", "waits in a queue", "runs on a virtual device",
               "is measured in milliseconds", "counts tokens", "has a seed")


def _sentence(rng: random.Random, name: str, facts: tuple[str, ...]) -> str:
    a, b = rng.sample(facts, 2) if len(facts) > 1 else (facts[0], facts[0])
    text = name[0].upper() + name[1:] + " " + a
    if rng.random() < 0.6:
        text += rng.choice(LINKS) + b
    return text + "."


def _answer(rng: random.Random, name: str, facts: tuple[str, ...]) -> str:
    body = " ".join(_sentence(rng, name, facts) for _ in range(rng.randint(1, 3)))
    opener = rng.choice(OPENERS)
    if opener.endswith(", ") and name.startswith("the "):
        body = body[0].lower() + body[1:]
    return opener + body


def documents(seed: int = 0, n: int = 6000) -> list[str]:
    """``n`` documents: chats (user, assistant) and plain paragraphs, each ending with EOS text.

    Chats use the tiny tokenizer's chat template (``tokenizer.CHAT_TEMPLATE``), so a chat
    prompt is followed by an answer the model has learnt to end.
    """
    rng = random.Random(seed)
    table = {**DEVICES, **FEATURES, **{t: TOPIC_FACTS for t in TOPICS}}
    names = list(table)
    docs = []
    for _ in range(n):
        name = rng.choice(names)
        facts = table[name]
        kind = rng.random()
        if kind < 0.55:
            q = rng.choice(QUESTIONS).format(x=name)
            docs.append(f"<|user|>\n{q}</s>\n<|assistant|>\n{_answer(rng, name, facts)}</s>")
        else:
            other = rng.choice(names)
            docs.append(_answer(rng, name, facts) + " " + _sentence(rng, other, table[other]) + "</s>")
    return docs
