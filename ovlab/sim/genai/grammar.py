"""A ``StructuredOutputConfig`` as a grammar of llguidance, the engine that masks the tokens.

GenAI compiles the config with xgrammar (``xgrammar_backend.cpp``): ``json_schema``, ``regex`` and
``grammar`` (xgrammar's EBNF, GBNF's dialect with ``root ::=``) each make one grammar, and a
``structural_tags_config`` (a ``StructuralTagsConfig``, a builder expression such as
``ConstString("a") + JSONSchema(...)``, or xgrammar's structural-tag JSON as a string) makes
xgrammar's structural tag. ovlab runs the same grammars on llguidance (``llguidance`` on PyPI,
the engine llama.cpp, vLLM and SGLang ship; no dependencies): xgrammar's Python package imports
torch at its top level, which no fresh clone or Binder image can afford
(``docs/genai-structured-output.md``). This module writes each config as llguidance's Lark
dialect: JSON schemas as ``%json`` (in xgrammar's strict mode: an object without
``additionalProperties`` takes no others), EBNF through llguidance's GBNF converter, regular
expressions as lexemes, and the structural tags as the rules below (``TriggeredTags``' free text
as a lazy lexeme up to a trigger, as llguidance's own ``StructTag`` does it).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .structured import StructuralTagsConfig, StructuredOutputConfig, chosen_field

SOC = StructuredOutputConfig
_TEXT = r"(.|\n)*"


class GrammarError(RuntimeError):
    """A grammar GenAI's xgrammar would refuse too: the message says which part and why."""


def _anchored(pattern: str) -> str:
    """A string's ``pattern`` as xgrammar reads it: the whole string matches (JSON Schema's
    own rule is a search, which would let any text surround the match)."""
    p = pattern if pattern.startswith("^") else "^(?:" + pattern + ")"
    return p if p.endswith("$") and not p.endswith("\\$") else p + "$"


def strict_schema(schema: Any) -> Any:
    """xgrammar's strict mode (GenAI's default): an object schema that does not say
    ``additionalProperties`` takes no other properties; nested schemas alike; a string's
    ``pattern`` matches the whole string."""
    if isinstance(schema, dict):
        out = {k: strict_schema(v) for k, v in schema.items()}
        if isinstance(out.get("pattern"), str) and out.get("type", "string") == "string":
            out["pattern"] = _anchored(out["pattern"])
        if (out.get("type") == "object" or "properties" in out) \
                and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [strict_schema(v) for v in schema]
    return schema


def _schema_text(text: Any) -> str:
    try:
        schema = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError as err:
        raise GrammarError(f"the JSON schema is not valid JSON: {err}") from None
    if not isinstance(schema, (dict, bool)):
        raise GrammarError(f"a JSON schema is an object or a boolean, not {type(schema).__name__}")
    return json.dumps(strict_schema(schema))


def _regex_body(pattern: str) -> str:
    """A regular expression as a Lark lexeme: anchors dropped (a grammar matches whole), '/'
    escaped."""
    p = pattern
    if p.startswith("^"):
        p = p[1:]
    if p.endswith("$") and not p.endswith("\\$"):
        p = p[:-1]
    return "/" + re.sub(r"(?<!\\)/", r"\\/", p) + "/"


def _lit(text: str) -> str:
    return json.dumps(text)


class _Writer:
    """Collects the rules and side grammars of one config."""

    def __init__(self) -> None:
        self.rules: list[str] = []
        self.side: list[dict[str, str]] = []
        self.n = 0

    def rule(self, body: str, lazy: bool = False, terminal: bool = False) -> str:
        self.n += 1
        name = f"{'T' if terminal else 'r'}{self.n}"
        self.rules.append(f"{name}{'[lazy]' if lazy else ''}: {body}")
        return name

    def ebnf(self, text: str) -> str:
        from llguidance.gbnf_to_lark import any_to_lark

        try:
            lark = any_to_lark(text)
        except Exception as err:  # the converter raises its own error types
            raise GrammarError(f"the EBNF grammar could not be read: {err}") from None
        name = f"g{len(self.side) + 1}"
        self.side.append({"name": name, "lark_grammar": lark})
        return self.rule("@" + name)

    def element(self, el: Any) -> str:
        """A Lark expression for a builder element."""
        if isinstance(el, str):
            return self.element(from_json(el))
        if isinstance(el, SOC.ConstString):
            return _lit(el.value) if el.value else '""'
        if isinstance(el, SOC.Regex):
            return self.rule(_regex_body(el.value))
        if isinstance(el, SOC.JSONSchema):
            return self.rule("%json " + _schema_text(el.value))
        if isinstance(el, SOC.EBNF):
            return self.ebnf(el.value)
        if isinstance(el, SOC.AnyText):
            return self.rule(f"/{_TEXT}/")
        if isinstance(el, SOC.QwenXMLParametersFormat):
            return self.qwen_xml(el.json_schema)
        if isinstance(el, SOC.Concat):
            return self.concat(list(el.elements))
        if isinstance(el, SOC.Union):
            if not el.elements:
                raise GrammarError("a Union needs at least one element")
            return self.rule(" | ".join(self.element(sub) for sub in el.elements))
        if isinstance(el, SOC.Tag):
            return self.tag(el)
        if isinstance(el, SOC.TriggeredTags):
            return self.triggered(el)
        if isinstance(el, SOC.TagsWithSeparator):
            return self.with_separator(el)
        raise GrammarError(f"{type(el).__name__} is not a structured-output element")

    def upto(self, text: str) -> str:
        """Any text up to and with the first ``text`` (an ``AnyText`` before a fixed string:
        a lazy lexeme, the shortest match, as xgrammar ends any text at what follows it)."""
        return self.rule(f"/{_TEXT}/ {_lit(text)}", lazy=True)

    def concat(self, items: list[Any]) -> str:
        parts, i = [], 0
        while i < len(items):
            el, nxt = items[i], items[i + 1] if i + 1 < len(items) else None
            if isinstance(el, SOC.AnyText) and isinstance(nxt, SOC.ConstString) and nxt.value:
                parts.append(self.upto(nxt.value))
                i += 2
                continue
            if isinstance(el, SOC.AnyText) and isinstance(nxt, SOC.Tag) and nxt.begin:
                parts += [self.upto(nxt.begin), self.tag(nxt, len(nxt.begin))]
                i += 2
                continue
            parts.append(self.element(el))
            i += 1
        return self.rule(" ".join(parts)) if parts else '""'

    def tag(self, t: Any, skip_begin: int = 0) -> str:
        """``begin``, the content, ``end`` (the first ``skip_begin`` characters of ``begin``
        already taken by a trigger)."""
        begin = t.begin[skip_begin:]
        if isinstance(t.content, SOC.AnyText) and t.end:
            parts = [_lit(begin) if begin else "", self.upto(t.end)]
        else:
            parts = [_lit(begin) if begin else "", self.element(t.content),
                     _lit(t.end) if t.end else ""]
        return self.rule(" ".join(p for p in parts if p) or '""')

    def triggered(self, tt: Any) -> str:
        """Free text; at a trigger, one of the tags whose ``begin`` starts with it."""
        if not tt.triggers:
            raise GrammarError("TriggeredTags needs at least one trigger")
        if not tt.tags:
            raise GrammarError("TriggeredTags needs at least one tag")
        triggered, direct = [], []
        for t in tt.tags:
            trig = next((g for g in tt.triggers if t.begin.startswith(g)), None)
            if trig is None:
                raise GrammarError(f"the tag begin {t.begin!r} does not start with any of the "
                                   f"triggers {tt.triggers!r}")
            head = self.rule(f"/{_TEXT}/ {_lit(trig)}", lazy=True)  # text up to the trigger
            triggered.append(self.rule(f"{head} {self.tag(t, len(trig))}"))
            direct.append(self.tag(t))
        text = self.rule(f"/{_TEXT}/")
        any_tag = self.rule(" | ".join(triggered))
        first = self.rule(" | ".join(direct))
        if tt.stop_after_first:
            return first if tt.at_least_one else self.rule(f"{any_tag} | {text}")
        if tt.at_least_one:
            return self.rule(f"{first} {any_tag}* {text}")
        return self.rule(f"{any_tag}* {text}")

    def with_separator(self, ts: Any) -> str:
        if not ts.tags:
            raise GrammarError("TagsWithSeparator needs at least one tag")
        one = self.rule(" | ".join(self.tag(t) for t in ts.tags))
        if ts.stop_after_first:
            return one if ts.at_least_one else self.rule(f"{one}?")
        sep = _lit(ts.separator) if ts.separator else ""
        many = self.rule(f"{one} ({sep} {one})*")
        return many if ts.at_least_one else self.rule(f"{many}?")

    def qwen_xml(self, schema_text: str) -> str:
        """Qwen's XML tool-call parameters: ``<parameter=NAME>VALUE</parameter>`` for each
        property in order (required ones always, others optional); a string's value is raw
        text, any other value JSON (an enum's in quotes, as xgrammar writes it)."""
        schema = json.loads(_schema_text(schema_text))
        props = schema.get("properties", {}) if isinstance(schema, dict) else {}
        required = set(schema.get("required", [])) if isinstance(schema, dict) else set()
        parts = []
        for name, sub in props.items():
            if isinstance(sub, dict) and sub.get("type") == "string" and "enum" not in sub:
                value = self.rule(_regex_body(sub["pattern"])) if "pattern" in sub \
                    else self.rule(r"/[^<]*/")
            else:
                value = self.rule("%json " + json.dumps(sub))
            item = self.rule(f'/\\s*/ "<parameter={name}>" {value} "</parameter>"')
            parts.append(item if name in required else f"{item}?")
        return self.rule(" ".join(parts) + ' /\\s*/') if parts else '""'


def from_json(text: str) -> Any:
    """xgrammar's structural-tag JSON (``{"type": "structural_tag", "format": ...}``, or one
    format object) as builder elements."""
    try:
        obj = json.loads(text) if isinstance(text, str) else text
    except json.JSONDecodeError as err:
        raise GrammarError(f"the structural tag is not valid JSON: {err}") from None
    if isinstance(obj, dict) and obj.get("type") == "structural_tag":
        obj = obj.get("format")
    if not isinstance(obj, dict) or "type" not in obj:
        raise GrammarError(f"a structural tag format is an object with a 'type', not {obj!r}")
    kind = obj["type"]
    try:
        if kind == "const_string":
            return SOC.ConstString(obj["value"])
        if kind == "regex":
            return SOC.Regex(obj["pattern"])
        if kind == "json_schema":
            return SOC.JSONSchema(json.dumps(obj["json_schema"]))
        if kind == "grammar":
            return SOC.EBNF(obj["grammar"])
        if kind == "any_text":
            return SOC.AnyText()
        if kind == "qwen_xml_parameter":
            return SOC.QwenXMLParametersFormat(json.dumps(obj["json_schema"]))
        if kind == "sequence":
            return SOC.Concat(*[from_json(e) for e in obj["elements"]])
        if kind == "or":
            return SOC.Union(*[from_json(e) for e in obj["elements"]])
        if kind == "tag":
            return SOC.Tag(obj["begin"], from_json(obj["content"]), obj["end"])
        if kind == "triggered_tags":
            return SOC.TriggeredTags(obj["triggers"], [from_json(t) for t in obj["tags"]],
                                     obj.get("at_least_one", False),
                                     obj.get("stop_after_first", False))
        if kind == "tags_with_separator":
            return SOC.TagsWithSeparator([from_json(t) for t in obj["tags"]], obj["separator"],
                                         obj.get("at_least_one", False),
                                         obj.get("stop_after_first", False))
    except KeyError as err:
        raise GrammarError(f"the structural tag of type '{kind}' has no {err}") from None
    raise GrammarError(f"unknown structural tag type '{kind}'")


def _old_tags(config: StructuralTagsConfig) -> Any:
    """The deprecated ``StructuralTagsConfig``: triggers, and tags with a JSON schema each."""
    return SOC.TriggeredTags(list(config.triggers), [
        SOC.Tag(t.begin, SOC.JSONSchema(t.schema), t.end) for t in config.structural_tags])


def llguidance_grammar(config: StructuredOutputConfig) -> str:
    """The llguidance grammar (Lark text, or its JSON form with side grammars) of a config.

    ``no_forcing``: a text the grammar forces is left to the model to tokenize, token by token
    under the mask, as xgrammar does (llguidance would otherwise force its canonical tokens:
    'un' where xgrammar lets a model write 'u', 'n'; the real wheel's greedy tokens on the tiny
    model differ then, ``benchmarks/bench_genai_real.py``)."""
    from llguidance import LLMatcher

    field = chosen_field(config)
    value = getattr(config, field)
    w = _Writer()
    if field == "json_schema":
        start = "%json " + _schema_text(value)
    elif field == "regex":
        start = _regex_body(str(value))
    elif field == "grammar":
        start = w.ebnf(str(value))
    else:
        el = _old_tags(value) if isinstance(value, StructuralTagsConfig) else value
        start = w.element(el)
    lark = '%llguidance {"no_forcing": true}\nstart: ' + start + "\n" + "\n".join(w.rules) + "\n"
    if not w.side:
        return LLMatcher.grammar_from_lark(lark)
    return json.dumps({"grammars": [{"name": "main", "lark_grammar": lark}, *w.side]})
