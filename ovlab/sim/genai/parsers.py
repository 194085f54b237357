"""``IncrementalParser`` and ``TextParserStreamer``: parsing an answer while it streams.

GenAI's ``TextParserStreamer`` (``text_streamer.cpp``) is a ``TextStreamer`` whose text goes
through a list of incremental parsers before the user's ``write(message)`` gets it: each new
piece of text makes a fresh delta message; every parser may rewrite the text and add fields (a
tool call it recognised); the text becomes the delta's ``content``; the delta is folded into the
parsed message (strings appended, other fields set), which ``generate`` returns as
``DecodedResults.parsed[0]``. A parser's status other than RUNNING (``TOOL_CALL_STOP``) stops
the generation. The structured-output samples use it to stop at a complete tool call. GenAI's
built-in parsers (reasoning, Llama 3 tool calls) stay out of scope (``unsimulated.py``).
"""

from __future__ import annotations

from typing import Any

from .config import StreamingStatus, TextStreamer, _status, _TextStreamer


class IncrementalParser:
    """Base class of a streaming parser: ``parse(delta_message, delta_text, delta_tokens)``
    returns the text to pass on and may add fields to ``delta_message``; ``reset()`` clears its
    state before a generation."""

    def __init__(self) -> None:
        self._status = StreamingStatus.RUNNING

    def parse(self, delta_message: dict, delta_text: str,
              delta_tokens: list[int] | None = None) -> str:
        raise NotImplementedError("IncrementalParser.parse must be implemented by the subclass")

    def reset(self) -> None:
        raise NotImplementedError("IncrementalParser.reset must be implemented by the subclass")

    def get_status(self) -> StreamingStatus:
        return getattr(self, "_status", StreamingStatus.RUNNING)

    def set_status(self, status: StreamingStatus) -> None:
        self._status = StreamingStatus(int(status))


def _concatenate(message: dict, delta: dict) -> None:
    """JsonContainer::concatenate: a string field is appended to, any other field set."""
    for key, value in delta.items():
        if isinstance(value, str) and isinstance(message.get(key), str):
            message[key] += value
        else:
            message[key] = value


class TextParserStreamer(TextStreamer):
    """A text streamer whose pieces go through ``parsers``; subclasses implement
    ``write(message: dict)``."""

    def __init__(self, tokenizer: Any, parsers: list[IncrementalParser] | None = None) -> None:
        super().__init__(tokenizer, self._on_text)
        self._parsers = list(parsers or [])
        self._parsed: dict = {"content": ""}

    def _on_text(self, delta_text: str) -> StreamingStatus:
        delta: dict = {}
        parser_status = StreamingStatus.RUNNING
        for parser in self._parsers:
            delta_text = parser.parse(delta, delta_text, [])
            parser_status = parser.get_status()
            if parser_status != StreamingStatus.RUNNING:
                break
        delta["content"] = delta_text
        _concatenate(self._parsed, delta)
        status = _status(self.write(delta))
        return parser_status if parser_status != StreamingStatus.RUNNING else status

    def write(self, message: Any) -> Any:
        """The parsed delta message (a dict): the subclass's to implement. (A str is a new
        piece of text, as in GenAI's overload.)"""
        if isinstance(message, str):
            return self._on_text(message)
        raise NotImplementedError("TextParserStreamer.write(message) must be implemented by the "
                                  "subclass")

    def _token_feed(self) -> TokenFeed:
        """What the engine writes tokens to; GenAI resets the streamer before each generation."""
        self.reset()
        return TokenFeed(self)

    def get_parsed_message(self) -> dict:
        return dict(self._parsed)

    def reset(self) -> None:
        self._parsed = {"content": ""}
        for parser in self._parsers:
            parser.reset()


class TokenFeed:
    """What the engine writes tokens to for a ``TextParserStreamer``: its decoding half (the
    subclass's ``write`` takes messages, not tokens)."""

    def __init__(self, streamer: TextParserStreamer) -> None:
        self.streamer = streamer
        self._inner: _TextStreamer = streamer._inner

    def write(self, token: int | list[int]) -> StreamingStatus:
        return self._inner.write(token)

    def end(self) -> None:
        self._inner.end()
