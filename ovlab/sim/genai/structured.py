"""``StructuredOutputConfig`` with its grammar builders, ``StructuralTagItem``,
``StructuralTagsConfig`` (``openvino_genai``'s structured output).

The builders compose as the wheel's do: ``a + b`` is a ``Concat`` (flattened: ``a + b + c`` has
three elements, as GenAI's ``operator+`` makes it), ``a | b`` a ``Union`` (likewise), and each
prints as the wheel prints it (``ConstString("x")``). Members, constructors and their checks
follow the 2026.4 wheel (``data/genai_api.json``, read from it with ``tests/genai``). A config
is compiled to a grammar by ``grammar.py`` and decoded under it by ``constrained.py``.
"""

from __future__ import annotations

from typing import Any


def _text(value: Any) -> str:
    """An element in a builder's repr: a str content (xgrammar's JSON) as it is."""
    return value if isinstance(value, str) else repr(value)


def _element(value: Any) -> Any:
    if isinstance(value, (str, _Element)):
        return value
    raise RuntimeError(f"{type(value)} type isn't supported for StructuralTag: {value!r}")


class _Element:
    """A grammar element: ``+`` concatenates, ``|`` is an alternative."""

    def __add__(self, other: Any) -> StructuredOutputConfig.Concat:
        return StructuredOutputConfig.Concat(*_joined(self, other, StructuredOutputConfig.Concat))

    def __or__(self, other: Any) -> StructuredOutputConfig.Union:
        return StructuredOutputConfig.Union(*_joined(self, other, StructuredOutputConfig.Union))


def _joined(left: Any, right: Any, kind: type) -> list[Any]:
    """GenAI's operator+ / operator|: a side that is already of ``kind`` gives its elements."""
    items = []
    for side in (left, _element(right)):
        items += list(side.elements) if isinstance(side, kind) else [side]
    return items


class _Valued(_Element):
    def __init__(self, arg0: str) -> None:
        if not isinstance(arg0, str):
            raise TypeError(f"__init__(): incompatible constructor arguments: "
                            f"{type(self).__name__}(arg0: str), invoked with {arg0!r}")
        self.value = arg0

    def __repr__(self) -> str:
        return f'{type(self).__name__}("{self.value}")'


class _Elements(_Element):
    def __init__(self, *args: Any, elements: Any = None) -> None:
        items = list(elements) if elements is not None else (
            list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args))
        if len(items) < 2:
            raise ValueError(f"StructuredOutputConfig.{type(self).__name__} requires at least "
                             "two elements")
        self.elements = [_element(e) for e in items]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(_text, self.elements))})"


def _flag(value: bool, python: bool) -> str:
    return ("True" if value else "False") if python else ("true" if value else "false")


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
            return f"QwenXMLParametersFormat(json_schema={self.json_schema})"

    class Concat(_Elements):
        """The elements one after the other."""

    class Union(_Elements):
        """One of the elements."""

    class Tag(_Element):
        """``begin``, then ``content`` (an element, or xgrammar's JSON as a str), then ``end``."""

        def __init__(self, begin: str, content: Any, end: str) -> None:
            self.begin, self.content, self.end = str(begin), _element(content), str(end)

        def __repr__(self) -> str:
            return f'Tag(begin="{self.begin}", content={_text(self.content)}, end="{self.end}")'

    class TriggeredTags(_Element):
        """Free text until a trigger, then one of ``tags`` (whose ``begin`` starts with it)."""

        def __init__(self, triggers: Any, tags: Any, at_least_one: bool = False,
                     stop_after_first: bool = False) -> None:
            self.triggers, self.tags = [str(t) for t in triggers], _tags(tags)
            self.at_least_one, self.stop_after_first = bool(at_least_one), bool(stop_after_first)

        def __repr__(self) -> str:
            triggers = ", ".join(f'"{t}"' for t in self.triggers)
            return (f"TriggeredTags(triggers=[{triggers}], tags=[{', '.join(map(repr, self.tags))}], "
                    f"at_least_one={_flag(self.at_least_one, True)}, "
                    f"stop_after_first={_flag(self.stop_after_first, True)})")

    class TagsWithSeparator(_Element):
        """``tags`` separated by ``separator``."""

        def __init__(self, tags: Any, separator: str, at_least_one: bool = False,
                     stop_after_first: bool = False) -> None:
            self.tags, self.separator = _tags(tags), str(separator)
            self.at_least_one, self.stop_after_first = bool(at_least_one), bool(stop_after_first)

        def __repr__(self) -> str:  # the wheel prints these two flags in C++'s spelling
            return (f'TagsWithSeparator(separator="{self.separator}", '
                    f"tags=[{', '.join(map(repr, self.tags))}], "
                    f"at_least_one={_flag(self.at_least_one, False)}, "
                    f"stop_after_first={_flag(self.stop_after_first, False)})")

    _FIELDS = ("json_schema", "regex", "grammar", "structural_tags_config", "compound_grammar")

    def __init__(self, **kwargs: Any) -> None:
        for name in self._FIELDS:
            object.__setattr__(self, name, None)
        for name, value in kwargs.items():
            setattr(self, name, value)
        if len([n for n in self._FIELDS if getattr(self, n) is not None]) > 1:
            self.validate()  # the wheel's constructor checks a config given more than one field

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._FIELDS:
            raise AttributeError(f"'StructuredOutputConfig' object has no attribute '{name}'")
        if value is not None and name in ("json_schema", "regex", "grammar"):
            value = str(value)
        elif value is not None and not isinstance(value, StructuralTagsConfig):
            value = _element(value)
        object.__setattr__(self, name, value)

    def validate(self) -> None:
        """Exactly one field is set (``StructuredOutputConfig::validate``)."""
        chosen_field(self)

    def __repr__(self) -> str:
        return "StructuredOutputConfig(" + ", ".join(
            f"{n}={getattr(self, n)!r}" for n in self._FIELDS) + ")"


def _tags(tags: Any) -> list:
    out = list(tags)
    for t in out:
        if not isinstance(t, StructuredOutputConfig.Tag):
            raise TypeError(f"tags must be StructuredOutputConfig.Tag, not {type(t).__name__}")
    return out


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


def chosen_field(config: StructuredOutputConfig) -> str:
    """The one field set, as ``StructuredOutputConfig::validate`` demands (its message)."""
    fields = [n for n in StructuredOutputConfig._FIELDS if getattr(config, n) is not None]
    if len(fields) != 1:
        shown = ", ".join(f"{n}={getattr(config, n)!r}" for n in fields)
        raise RuntimeError("Only one of json, regex, grammar, structural_tags_config, or "
                           f"compound_grammar should be set in StructuredOutputConfig, but got: "
                           f"{shown}")
    return fields[0]
