"""``StructuredOutputConfig`` with its grammar builders, ``StructuralTagItem``,
``StructuralTagsConfig`` (``openvino_genai``'s structured output), as data.

The builders compose as the wheel's do: ``a + b`` is a ``Concat``, ``a | b`` a ``Union``, and each
prints as the wheel prints it (``ConstString("x")``). Members and constructors follow the 2026.4
wheel (``data/genai_api.json``). Decoding under a grammar is not simulated yet: a
``GenerationConfig`` that carries one raises a clear error when generating.
"""

from __future__ import annotations

from typing import Any


class _Element:
    """A grammar element: ``+`` concatenates, ``|`` is an alternative."""

    def __add__(self, other: Any) -> StructuredOutputConfig.Concat:
        return StructuredOutputConfig.Concat(self, other)

    def __or__(self, other: Any) -> StructuredOutputConfig.Union:
        return StructuredOutputConfig.Union(self, other)


class _Valued(_Element):
    def __init__(self, arg0: str) -> None:
        self.value = str(arg0)

    def __repr__(self) -> str:
        return f'{type(self).__name__}("{self.value}")'

    def __eq__(self, other: Any) -> bool:
        return type(self) is type(other) and self.value == other.value

    __hash__ = None  # type: ignore[assignment]


class _Elements(_Element):
    def __init__(self, *args: Any, elements: Any = None) -> None:
        items = list(elements) if elements is not None else (
            list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args))
        self.elements = items

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self.elements))})"


class StructuredOutputConfig:
    """How the output must be structured: one of ``json_schema``, ``regex``, ``grammar`` (EBNF),
    ``structural_tags_config`` or ``compound_grammar`` (a builder expression)."""

    class ConstString(_Valued):
        """Exactly this text."""

    class Regex(_Valued):
        """Text that matches this regular expression."""

    class JSONSchema(_Valued):
        """JSON valid against this schema (a JSON string)."""

    class EBNF(_Valued):
        """Text of this EBNF grammar."""

    class AnyText(_Element):
        """Any text."""

        def __repr__(self) -> str:
            return "AnyText()"

    class QwenXMLParametersFormat(_Element):
        """Tool-call parameters in Qwen's XML format, valid against a JSON schema."""

        def __init__(self, arg0: str) -> None:
            self.json_schema = str(arg0)

        def __repr__(self) -> str:
            return f'QwenXMLParametersFormat("{self.json_schema}")'

    class Concat(_Elements):
        """The elements one after the other."""

    class Union(_Elements):
        """One of the elements."""

    class Tag(_Element):
        """``begin``, then ``content`` (text or an element), then ``end``."""

        def __init__(self, begin: str, content: Any, end: str) -> None:
            self.begin, self.content, self.end = begin, content, end

        def __repr__(self) -> str:
            return f"Tag(begin={self.begin!r}, content={self.content!r}, end={self.end!r})"

    class TriggeredTags(_Element):
        """Free text until a trigger, then one of ``tags``."""

        def __init__(self, triggers: Any, tags: Any, at_least_one: bool = False,
                     stop_after_first: bool = False) -> None:
            self.triggers, self.tags = list(triggers), list(tags)
            self.at_least_one, self.stop_after_first = bool(at_least_one), bool(stop_after_first)

        def __repr__(self) -> str:
            return (f"TriggeredTags(triggers={self.triggers!r}, tags={self.tags!r}, "
                    f"at_least_one={self.at_least_one}, stop_after_first={self.stop_after_first})")

    class TagsWithSeparator(_Element):
        """``tags`` separated by ``separator``."""

        def __init__(self, tags: Any, separator: str, at_least_one: bool = False,
                     stop_after_first: bool = False) -> None:
            self.tags, self.separator = list(tags), separator
            self.at_least_one, self.stop_after_first = bool(at_least_one), bool(stop_after_first)

        def __repr__(self) -> str:
            return (f"TagsWithSeparator(tags={self.tags!r}, separator={self.separator!r}, "
                    f"at_least_one={self.at_least_one}, stop_after_first={self.stop_after_first})")

    _FIELDS = ("json_schema", "regex", "grammar", "structural_tags_config", "compound_grammar")

    def __init__(self, **kwargs: Any) -> None:
        for name in self._FIELDS:
            object.__setattr__(self, name, None)
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._FIELDS:
            raise AttributeError(f"'StructuredOutputConfig' object has no attribute '{name}'")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return "StructuredOutputConfig(" + ", ".join(
            f"{n}={getattr(self, n)!r}" for n in self._FIELDS) + ")"


class StructuralTagItem:
    """One tag of a ``StructuralTagsConfig``: ``begin``, a JSON ``schema``, ``end``."""

    def __init__(self, **kwargs: Any) -> None:
        self.begin, self.schema, self.end = "", "", ""
        for name, value in kwargs.items():
            if name not in ("begin", "schema", "end"):
                raise AttributeError(f"'StructuralTagItem' object has no attribute '{name}'")
            setattr(self, name, value)

    def __repr__(self) -> str:
        return f"StructuralTagItem(begin={self.begin!r}, schema={self.schema!r}, end={self.end!r})"


class StructuralTagsConfig:
    """Free text, and after one of ``triggers`` one of ``structural_tags``."""

    def __init__(self, **kwargs: Any) -> None:
        self.structural_tags: list = []
        self.triggers: list = []
        for name, value in kwargs.items():
            if name not in ("structural_tags", "triggers"):
                raise AttributeError(f"'StructuralTagsConfig' object has no attribute '{name}'")
            setattr(self, name, list(value))

    def __repr__(self) -> str:
        return (f"StructuralTagsConfig(structural_tags={self.structural_tags!r}, "
                f"triggers={self.triggers!r})")
