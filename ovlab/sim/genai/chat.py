"""``ChatHistory``: the messages of a chat, as ``openvino_genai.ChatHistory`` holds them."""

from __future__ import annotations

from typing import Any


class ChatHistory:
    """A list of ``{"role": ..., "content": ...}`` messages, plus tools and extra context."""

    def __init__(self, messages: list | None = None) -> None:
        self._messages: list[dict] = []
        self._tools: list = []
        self._extra: dict = {}
        if messages is not None:
            self.set_messages(messages)

    @staticmethod
    def _check(message: Any) -> dict:
        if not isinstance(message, dict):
            raise TypeError(f"a chat message is a dict such as {{'role': 'user', 'content': "
                            f"'...'}}, not {type(message).__name__}")
        return dict(message)

    def append(self, message: dict) -> None:
        self._messages.append(self._check(message))

    def pop(self) -> dict:
        if not self._messages:
            raise IndexError("pop from an empty ChatHistory")
        return self._messages.pop()

    def clear(self) -> None:
        self._messages.clear()

    def get_messages(self) -> list:
        return [dict(m) for m in self._messages]

    def set_messages(self, messages: list) -> None:
        self._messages = [self._check(m) for m in messages]

    def get_tools(self) -> list:
        return list(self._tools)

    def set_tools(self, tools: list) -> None:
        self._tools = list(tools)

    def get_extra_context(self) -> dict:
        return dict(self._extra)

    def set_extra_context(self, extra_context: dict) -> None:
        self._extra = dict(extra_context)

    def __len__(self) -> int:
        return len(self._messages)

    def __bool__(self) -> bool:
        return bool(self._messages)

    def __getitem__(self, index: int) -> dict:
        return self._messages[index]

    def __repr__(self) -> str:
        return f"ChatHistory({self._messages!r})"
