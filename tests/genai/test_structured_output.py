"""Structured output (issue 37, item 5): the config and its builders as the wheel has them, the
grammar each becomes, decoding under it (the tiny model's logits masked, the stand-ins' text
chosen under the mask), its cost on the host in TPOT, and the parsers the samples stream through.
The token-for-token comparison with the real wheel is ``test_real_genai.py``."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

import ovlab.sim.genai as g
from ovlab.sim.genai import constrained
from ovlab.sim.genai.grammar import llguidance_grammar

S = g.StructuredOutputConfig
PERSON = {"type": "object", "properties": {
    "name": {"type": "string", "pattern": "^[A-Z][a-z]{1,20}$"},
    "age": {"type": "integer", "minimum": 0, "maximum": 128},
    "city": {"enum": ["Dublin", "Dubai", "Munich"]}}, "required": ["name", "age", "city"]}


@pytest.fixture(scope="module")
def tiny():
    return g.LLMPipeline("tiny-llm-fp16-ov", "CPU")


def _gen(pipe, config, prompt="Generate a json about a person.", **kw):
    cfg = g.GenerationConfig(max_new_tokens=kw.pop("max_new_tokens", 60),
                             structured_output_config=config, **kw)
    return pipe.generate(prompt, cfg)


# --- the config and its builders -------------------------------------------------------------
def test_builders_compose_print_and_check_as_the_wheel():
    real = pytest.importorskip("openvino_genai").StructuredOutputConfig
    for mod in (S, real):
        a = mod.ConstString("a") + mod.ConstString("b") + mod.ConstString("c")
        u = (mod.ConstString("a") + mod.ConstString("b")) | mod.ConstString("c") | mod.AnyText()
        t = mod.TriggeredTags(triggers=["<f"], tags=[mod.Tag(begin="<f>", content=mod.AnyText(),
                                                             end="</f>")], at_least_one=True)
        w = mod.TagsWithSeparator([mod.Tag("a", "{}", "b")], ";")
        assert len(a.elements) == 3 and len(u.elements) == 3
        assert t.at_least_one and not t.stop_after_first and w.separator == ";"
        with pytest.raises(ValueError, match="requires at least two elements"):
            mod.Union([mod.AnyText()])
        with pytest.raises(TypeError):
            mod.ConstString(5)
    ours = [repr(x) for x in (S.ConstString("a") + S.Regex("[0-9]") + S.JSONSchema("{}"),
                              S.Tag("a", "{}", "b"), S.QwenXMLParametersFormat("{}"))]
    theirs = [repr(x) for x in (real.ConstString("a") + real.Regex("[0-9]") + real.JSONSchema("{}"),
                                real.Tag("a", "{}", "b"), real.QwenXMLParametersFormat("{}"))]
    assert ours == theirs
    assert repr(S.TriggeredTags(["<f"], [S.Tag("<f>", S.AnyText(), "</f>")], True)) == \
        repr(real.TriggeredTags(["<f"], [real.Tag("<f>", real.AnyText(), "</f>")], True))
    assert repr(S.TagsWithSeparator([S.Tag("a", "{}", "b")], ";")) == \
        repr(real.TagsWithSeparator([real.Tag("a", "{}", "b")], ";"))


def test_exactly_one_grammar_field():
    with pytest.raises(RuntimeError, match="Only one of json, regex, grammar"):
        S(json_schema="{}", regex="a")
    with pytest.raises(RuntimeError, match="Only one of"):
        S().validate()
    cfg = S()
    cfg.regex = "[a-z]+"
    cfg.validate()
    with pytest.raises(AttributeError):
        cfg.backend = "xgrammar"


@pytest.mark.parametrize("config, message", [
    (S(json_schema="{not json"), "not valid JSON"),
    (S(structural_tags_config=S.TriggeredTags(["<g"], [S.Tag("<f>", S.AnyText(), "</f>")])),
     "does not start with any of the triggers"),
    (S(grammar="root ::= ("), "EBNF grammar could not be read"),
    (S(structural_tags_config='{"type": "structural_tag", "format": {"type": "nope"}}'),
     "unknown structural tag type"),
])
def test_a_bad_grammar_is_a_clear_error_when_generating(tiny, config, message):
    with pytest.raises(RuntimeError, match=message):
        _gen(tiny, config)


def test_grammars_become_llguidance_lark():
    lark = llguidance_grammar(S(structural_tags_config=S.ConstString("functools")
                                + S.JSONSchema(json.dumps(PERSON))))
    assert '"functools"' in lark and "%json" in lark and '"additionalProperties": false' in lark
    assert '"no_forcing": true' in lark  # the model tokenizes forced text, as with xgrammar
    old = S(structural_tags_config=g.StructuralTagsConfig(
        structural_tags=[g.StructuralTagItem(begin="<f>", schema=json.dumps(PERSON), end="</f>")],
        triggers=["<f"]))
    assert "[lazy]" in llguidance_grammar(old)


# --- the tiny model's real decoding under a grammar -------------------------------------------
@pytest.mark.parametrize("config, pattern", [
    (S(regex=r"[a-z]{1,8}@[a-z]{1,8}\.com"), r"[a-z]{1,8}@[a-z]{1,8}\.com"),
    (S(grammar='root ::= d d d d "-" d d "-" d d\nd ::= [0-9]'), r"\d{4}-\d\d-\d\d"),
    (S(json_schema=json.dumps({"enum": ["Dublin", "Dubai", "Munich"]})), r'"(Dublin|Dubai|Munich)"'),
    (S(structural_tags_config=S.ConstString("yes") | S.ConstString("no")), r"yes|no"),
    (S(compound_grammar=S.Tag(begin="<f>", content=S.Regex("[0-9]{2,4}"), end="</f>")),
     r"<f>[0-9]{2,4}</f>"),
    (S(structural_tags_config='{"type": "structural_tag", "format": '
                              '{"type": "const_string", "value": "abc"}}'), r"abc"),
])
def test_tiny_model_output_matches_its_grammar(tiny, config, pattern):
    for kw in ({}, {"do_sample": True, "temperature": 1.0, "rng_seed": 7}):
        text = _gen(tiny, config, **kw)
        assert re.fullmatch(pattern, text), (kw, text)
    sampled = [_gen(tiny, config, do_sample=True, rng_seed=3) for _ in range(2)]
    assert sampled[0] == sampled[1]  # same seed, same output


def test_tiny_model_masked_logits_never_leave_the_grammar(tiny):
    """Greedy under JSON schema: every prefix is a prefix the grammar allows (the tiny model
    never learnt JSON, so it may not finish; it never breaks the schema)."""
    res = tiny.generate(["Generate a json about a person."], g.GenerationConfig(
        max_new_tokens=30, structured_output_config=S(json_schema=json.dumps(PERSON))))
    text = res.texts[0]
    assert text.startswith("{")
    c = constrained.Constraint(S(json_schema=json.dumps(PERSON)),
                               constrained.vocabulary_of(tiny.get_tokenizer()), {2})
    for t in tiny.get_tokenizer().encode(text).input_ids.data[0].tolist():
        assert c.allowed()[t]
        c.accept(t)


# --- the stand-ins: schema-valid text on every device -----------------------------------------
@pytest.mark.parametrize("model, device", [("Qwen2.5-7B-Instruct-int4-ov", "CPU"),
                                           ("TinyLlama-1.1B-Chat-v1.0-int4-ov", "GPU"),
                                           ("phi-2-int4-ov", "CPU"),
                                           ("TinyLlama-1.1B-Chat-v1.0-int4-ov", "NPU")])
def test_virtual_models_write_schema_valid_json(model, device):
    pipe = g.LLMPipeline(model, device)
    config = S(json_schema=json.dumps(PERSON))
    texts = [_gen(pipe, config, max_new_tokens=120), _gen(pipe, config, max_new_tokens=120)]
    assert texts[0] == texts[1]
    jsonschema.validate(json.loads(texts[0]), PERSON)
    sampled = [_gen(pipe, config, max_new_tokens=120, do_sample=True, rng_seed=s) for s in range(4)]
    for text in sampled:
        jsonschema.validate(json.loads(text), PERSON)
    assert len(set(sampled)) > 1


def test_virtual_model_writes_tool_calls_after_a_trigger():
    pipe = g.LLMPipeline("Qwen2.5-7B-Instruct-int4-ov", "CPU")
    weather = {"type": "object", "properties": {"city": {"type": "string"},
                                                 "date": {"type": "string",
                                                          "pattern": r"2\d\d\d-[0-1]\d-[0-3]\d"}},
               "required": ["city", "date"]}
    config = S(structural_tags_config=S.TriggeredTags(triggers=["<function="], tags=[
        S.Tag(begin='<function="get_weather">', content=S.JSONSchema(json.dumps(weather)),
              end="</function>")]))
    calls = []
    for seed in range(3):
        text = _gen(pipe, config, prompt="What is the weather in Paris?", max_new_tokens=300,
                    do_sample=True, rng_seed=seed)
        calls += re.findall(r'<function="get_weather">(.*?)</function>', text, re.S)
    assert calls
    for call in calls:
        jsonschema.validate(json.loads(call), weather)


def test_grammar_cost_is_in_tpot_and_compile_time_in_the_metrics():
    """The mask is computed on the host between two steps: a free-text grammar leaves the
    stand-in's tokens as they are, and TPOT grows by the modelled mask time."""
    pipe = g.LLMPipeline("Qwen2.5-7B-Instruct-int4-ov", "CPU")
    prompt = "What does the NPU do?"
    base = pipe.generate([prompt], g.GenerationConfig(max_new_tokens=24, ignore_eos=True))
    masked = pipe.generate([prompt], g.GenerationConfig(
        max_new_tokens=24, ignore_eos=True, structured_output_config=S(
            structural_tags_config=S.ConstString("") + S.AnyText())))
    assert masked.texts == base.texts
    vocab = constrained.lltokenizer(constrained.vocabulary_of(pipe.get_tokenizer())).vocab_size
    extra_ms = masked.perf_metrics.get_tpot().mean - base.perf_metrics.get_tpot().mean
    assert extra_ms == pytest.approx(constrained.mask_seconds(vocab) * 1e3, rel=0.05)
    assert base.perf_metrics.get_grammar_compile_time().mean == -1.0
    assert masked.perf_metrics.get_grammar_compile_time().mean == \
        pytest.approx(constrained.compile_seconds(vocab) * 1e3)


# --- the parsers the compound-grammar sample streams through ----------------------------------
def test_text_parser_streamer_stops_at_a_tool_call():
    class Calls(g.IncrementalParser):
        def __init__(self):
            super().__init__()
            self.text = ""

        def parse(self, msg, delta_text, delta_tokens=None):
            self.text += delta_text
            if "functools" in self.text:
                try:
                    msg["tool_calls"] = json.loads(self.text.split("functools", 1)[1])
                    self.set_status(g.StreamingStatus.TOOL_CALL_STOP)
                except json.JSONDecodeError:
                    pass
            return delta_text

        def reset(self):
            self.set_status(g.StreamingStatus.RUNNING)
            self.text = ""

    seen = []

    class Content(g.TextParserStreamer):
        def write(self, message):
            seen.append(message["content"])
            return g.StreamingStatus.RUNNING

    pipe = g.LLMPipeline("Qwen2.5-7B-Instruct-int4-ov", "CPU")
    schema = {"type": "array", "items": {"type": "object", "properties": {
        "name": {"enum": ["book_hotel"]}, "city": {"type": "string"}},
        "required": ["name", "city"]}, "minItems": 1}
    config = S(structural_tags_config=S.ConstString("functools") + S.JSONSchema(json.dumps(schema)))
    streamer = Content(pipe.get_tokenizer(), parsers=[Calls()])
    res = pipe.generate(g.ChatHistory([{"role": "user", "content": "Book a hotel in Paris."}]),
                        g.GenerationConfig(max_new_tokens=200, structured_output_config=config),
                        streamer=streamer)
    assert res.finish_reasons[0] == g.GenerationFinishReason.TOOL_CALL
    assert res.parsed[0]["tool_calls"][0]["name"] == "book_hotel"
    assert "".join(seen) == res.parsed[0]["content"] == res.texts[0]
