"""ovlab's GenAI against the real ``openvino_genai``, step by step, on the same tiny LLM.

``tools/export_tiny_llm_ir.py`` writes ovlab's tiny model (the same float16 weights) as an
OpenVINO IR; the real ``ContinuousBatchingPipeline`` (openvino-genai 2026.4.1, CPU plugin, f32
inference and f32 KV cache) and ovlab's run the same requests (token ids, greedy, ``ignore_eos``)
with the same ``SchedulerConfig``. After every ``step()`` both report ``PipelineMetrics``
(requests, scheduled requests, cache usage); at the end, every request's tokens. The benchmark
prints the steps side by side and counts the differences: scheduling decisions and cache usage
are compared exactly, tokens exactly (a float near-tie could flip a greedy pick; none has).
Wall-clock times are not compared: the real pipeline runs on this 2-vCPU machine, ovlab's time is
a virtual 165H. Structured output (issue 37): the same grammars (JSON schema, regex, EBNF, the
structural-tag builders) on both, greedy: the real one masks with xgrammar, ovlab's with
llguidance; the tokens are compared, and each output is checked against its grammar.

Run: ``python benchmarks/bench_genai_real.py`` (needs the openvino-genai wheel).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

PROMPTS = ["What does the NPU do?", "Tell me about the KV cache.", "How does split fuse work?",
           "What is prefix caching?", "Why should I use the GPU?", "What is the prefill?"]
CASES = {  # name: (SchedulerConfig fields, new tokens)
    "split-fuse, budget 32, 64 blocks": (dict(max_num_batched_tokens=32, num_kv_blocks=64,
                                              dynamic_split_fuse=True), 24),
    "vLLM mode, budget 64, 64 blocks": (dict(max_num_batched_tokens=64, num_kv_blocks=64,
                                             dynamic_split_fuse=False, max_num_seqs=4), 24),
    "split-fuse, 4 blocks (preemption by recompute)": (dict(max_num_batched_tokens=64, num_kv_blocks=4,
                                               dynamic_split_fuse=True), 40),
    "split-fuse + prefix caching, shared system prompt": (
        dict(max_num_batched_tokens=64, num_kv_blocks=64, dynamic_split_fuse=True,
             enable_prefix_caching=True), 16),
}
SYSTEM = "You are the assistant of the ovlab course. Answer in short sentences. " * 3


def _prompt_ids(system: bool = False) -> list[list[int]]:
    from ovlab.sim.genai.tokenizer import Tokenizer

    tok = Tokenizer()
    head = [{"role": "system", "content": SYSTEM}] if system else []
    return [tok.encode(tok.apply_chat_template(head + [{"role": "user", "content": p}], True))
            .input_ids.data[0].tolist() for p in PROMPTS]


def _drive(pipe, make_tensor, config, ids) -> tuple[list[tuple], dict[int, list[int]]]:
    handles = [pipe.add_request(i, make_tensor(np.asarray([p], np.int64)), config)
               for i, p in enumerate(ids)]
    steps, tokens = [], {i: [] for i in range(len(ids))}
    while pipe.has_non_finished_requests():
        pipe.step()
        m = pipe.get_metrics()
        steps.append((m.requests, m.scheduled_requests, round(float(m.cache_usage), 3)))
        for i, h in enumerate(handles):
            while h.can_read():
                for out in h.read().values():
                    tokens[i] += list(out.generated_ids)
    return steps, tokens


def run_real(model_dir: Path, fields: dict, new_tokens: int, ids):
    import openvino as ov
    import openvino_genai as real

    sc = real.SchedulerConfig()
    for k, v in fields.items():
        setattr(sc, k, v)
    pipe = real.ContinuousBatchingPipeline(str(model_dir), sc, "CPU",
                                           {"INFERENCE_PRECISION_HINT": "f32",
                                            "KV_CACHE_PRECISION": "f32"})
    cfg = real.GenerationConfig(max_new_tokens=new_tokens, ignore_eos=True)
    return _drive(pipe, ov.Tensor, cfg, ids)


def run_ovlab(fields: dict, new_tokens: int, ids):
    import contextlib
    import io

    import ovlab
    import ovlab.sim.genai as lab
    from ovlab.sim.runtime.tensor import Tensor

    sc = lab.SchedulerConfig()
    for k, v in fields.items():
        setattr(sc, k, v)
    with contextlib.redirect_stderr(io.StringIO()):
        pipe = lab.ContinuousBatchingPipeline("tiny-llm-fp16-ov", sc, "CPU", core=ovlab.Core("cpu"))
    cfg = lab.GenerationConfig(max_new_tokens=new_tokens, ignore_eos=True)
    return _drive(pipe, Tensor, cfg, ids)


def compare(model_dir: Path, verbose: bool = True, cases: dict | None = None) -> dict[str, dict]:
    out = {}
    for name, (fields, new_tokens) in (cases or CASES).items():
        ids = _prompt_ids(system=fields.get("enable_prefix_caching", False))
        real_steps, real_tokens = run_real(model_dir, fields, new_tokens, ids)
        lab_steps, lab_tokens = run_ovlab(fields, new_tokens, ids)
        n = max(len(real_steps), len(lab_steps))
        step_diffs = sum(1 for i in range(n) if i >= len(real_steps) or i >= len(lab_steps)
                         or real_steps[i] != lab_steps[i])
        token_diffs = sum(1 for i in real_tokens if real_tokens[i] != lab_tokens[i])
        out[name] = {"steps_real": len(real_steps), "steps_ovlab": len(lab_steps),
                     "step_diffs": step_diffs, "requests_with_other_tokens": token_diffs,
                     "real": real_steps, "ovlab": lab_steps}
        if verbose:
            print(f"== {name}: {len(real_steps)} real steps, {len(lab_steps)} ovlab steps, "
                  f"{step_diffs} steps differ, {token_diffs} of {len(ids)} requests' tokens differ")
            print(f"{'step':>4s}  {'real (requests, scheduled, cache %)':36s} ovlab")
            for i in range(n):
                r = real_steps[i] if i < len(real_steps) else "-"
                o = lab_steps[i] if i < len(lab_steps) else "-"
                mark = "" if r == o else "   <- differs"
                if i < 6 or r != o or i == n - 1:
                    print(f"{i + 1:4d}  {str(r):36s} {o}{mark}")
    return out


BEAMS = {  # name: GenerationConfig fields (beam search, issue 37)
    "beam search, 4 beams, 3 returned": dict(max_new_tokens=24, num_beams=4,
                                             num_return_sequences=3),
    "beam search, 4 beams in 2 groups, diversity 1.0": dict(
        max_new_tokens=24, num_beams=4, num_beam_groups=2, diversity_penalty=1.0,
        num_return_sequences=4),
    "beam search, 3 beams, length_penalty 0.5, EARLY": dict(
        max_new_tokens=40, num_beams=3, length_penalty=0.5, stop_criteria="EARLY",
        num_return_sequences=3),
}


def beams(model_dir: Path, ids, fields: dict) -> tuple[list, list]:
    """The same beam search on the real ContinuousBatchingPipeline and on ovlab's: per prompt,
    the returned sequences' tokens and scores."""
    import contextlib
    import io

    import openvino as ov
    import openvino_genai as real

    import ovlab
    import ovlab.sim.genai as lab
    from ovlab.sim.runtime.tensor import Tensor

    out = []
    for mod, tensor in ((real, ov.Tensor), (lab, Tensor)):
        cfg = mod.GenerationConfig()
        for k, v in fields.items():
            setattr(cfg, k, getattr(mod.StopCriteria, v) if k == "stop_criteria" else v)
        if mod is real:
            pipe = real.ContinuousBatchingPipeline(str(model_dir), real.SchedulerConfig(), "CPU",
                                                   {"INFERENCE_PRECISION_HINT": "f32",
                                                    "KV_CACHE_PRECISION": "f32"})
        else:
            with contextlib.redirect_stderr(io.StringIO()):
                pipe = lab.ContinuousBatchingPipeline("tiny-llm-fp16-ov", lab.SchedulerConfig(),
                                                      "CPU", core=ovlab.Core("cpu"))
        results = pipe.generate([tensor(np.asarray([p], np.int64)) for p in ids],
                                [cfg] * len(ids))
        out.append([[(list(g), round(float(s), 3)) for g, s in zip(r.m_generation_ids,
                                                                     r.m_scores, strict=True)]
                    for r in results])
    return out[0], out[1]


def compare_beams(model_dir: Path, verbose: bool = True) -> dict[str, int]:
    ids = _prompt_ids()[:3]
    diffs = {}
    for name, fields in BEAMS.items():
        real_res, lab_res = beams(model_dir, ids, fields)
        diffs[name] = sum(1 for r, o in zip(real_res, lab_res, strict=True)
                          if [t for t, _ in r] != [t for t, _ in o]
                          or any(abs(a - b) > 2e-3 for (_, a), (_, b) in zip(r, o, strict=False)))
        if verbose:
            print(f"== {name}: {diffs[name]} of {len(ids)} prompts differ (tokens or scores)")
            for r, o in zip(real_res, lab_res, strict=True):
                print("   real ", [s for _, s in r], " ovlab", [s for _, s in o])
    return diffs


LORA_ALPHAS = (None, 1.0, 0.5, 0.0)  # None: generate(adapters=AdapterConfig()), no adapter


def lora(model_dir: Path, ids: list[list[int]], new_tokens: int = 32,
         adapter_path: Path | None = None) -> dict[str, list[list[list[int]]]]:
    """Greedy tokens of each prompt, real LLMPipeline and ovlab's, built with the shipped LoRA
    adapter (``tools/train_tiny_lora.py``) and switched per generate call: no adapter, then
    alpha 1, 0.5 and 0. {"real": [per alpha: [per prompt: tokens]], "ovlab": ...}."""
    import openvino as ov
    import openvino_genai as real

    import ovlab
    import ovlab.sim.genai as lab
    from ovlab.sim.genai.tiny import DATA
    from ovlab.sim.runtime.tensor import Tensor

    path = adapter_path or DATA / "tiny_lora_lab.safetensors"
    out = {}
    for name, mod, tensor, model, props in (
            ("real", real, ov.Tensor, str(model_dir),
             {"INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32"}),
            ("ovlab", lab, Tensor, "tiny-llm-fp16-ov", {"core": ovlab.Core("cpu")})):
        adapter = mod.Adapter(str(path))
        pipe = mod.LLMPipeline(model, "CPU", adapters=mod.AdapterConfig(adapter), **props)
        rows = []
        for alpha in LORA_ALPHAS:
            config = mod.AdapterConfig() if alpha is None else mod.AdapterConfig(adapter, alpha)
            rows.append([list(pipe.generate(tensor(np.asarray([p], np.int64)),
                                            max_new_tokens=new_tokens, adapters=config).tokens[0])
                         for p in ids])
        out[name] = rows
    return out


def _differing(res: dict[str, list[list[list[int]]]], i: int) -> int:
    """How many prompts' tokens differ between the real wheel and ovlab under setting ``i``."""
    return sum(1 for r, o in zip(res["real"][i], res["ovlab"][i], strict=True) if r != o)


def compare_lora(model_dir: Path, verbose: bool = True) -> dict[str, int]:
    """Per alpha: how many prompts' greedy tokens differ between the real wheel and ovlab."""
    from ovlab.sim.genai.tokenizer import Tokenizer

    ids = _prompt_ids()
    res = lora(model_dir, ids)
    tok = Tokenizer()
    diffs = {}
    for i, alpha in enumerate(LORA_ALPHAS):
        label = "no adapter" if alpha is None else f"alpha {alpha}"
        diffs[label] = _differing(res, i)
        if verbose:
            print(f"== LoRA, {label}: {diffs[label]} of {len(ids)} prompts' greedy tokens differ; "
                  f"first answer: {tok.decode(res['ovlab'][i][0])!r}")
    return diffs


PROMPT_LOOKUP = ((5, 3), (3, 2), (8, 4))  # (num_assistant_tokens, max_ngram_size)


def prompt_lookup(model_dir: Path, ids: list[list[int]], new_tokens: int = 40,
                  settings=PROMPT_LOOKUP) -> dict[str, list[list[list[int]]]]:
    """Greedy tokens of each prompt with prompt-lookup decoding (``LLMPipeline(...,
    prompt_lookup=True)``), the real wheel's and ovlab's, for each (candidates, n-gram size):
    {"real": [per setting: [per prompt: tokens]], "ovlab": ...}. Greedy acceptance keeps the
    greedy text, so both must also give plain greedy decoding's tokens."""
    import openvino as ov
    import openvino_genai as real

    import ovlab.sim.genai as lab
    from ovlab.sim.runtime.tensor import Tensor

    out = {}
    for name, mod, tensor, path in (("real", real, ov.Tensor, str(model_dir)),
                                    ("ovlab", lab, Tensor, "tiny-llm-fp16-ov")):
        props = ({"INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32"}
                 if mod is real else {})
        pipe = mod.LLMPipeline(path, "CPU", prompt_lookup=True, **props)
        rows = []
        for k, n in settings:
            cfg = mod.GenerationConfig(max_new_tokens=new_tokens, num_assistant_tokens=k,
                                       max_ngram_size=n)
            rows.append([list(pipe.generate(tensor(np.asarray([p], np.int64)), cfg).tokens[0])
                         for p in ids])
        out[name] = rows
    return out


def compare_prompt_lookup(model_dir: Path, verbose: bool = True) -> dict[str, int]:
    """Per setting: how many prompts' tokens differ between the real wheel and ovlab."""
    ids = _prompt_ids()
    res = prompt_lookup(model_dir, ids)
    diffs = {}
    for i, (k, n) in enumerate(PROMPT_LOOKUP):
        label = f"{k} candidates, n-grams up to {n}"
        diffs[label] = _differing(res, i)
        if verbose:
            print(f"== prompt lookup, {label}: {diffs[label]} of {len(ids)} prompts' tokens differ")
    return diffs


STRUCTURED_PROMPTS = ["Generate a json about a person.", "What does the NPU do?"]
PERSON = {"type": "object", "properties": {
    "name": {"type": "string", "pattern": "^[A-Z][a-z]{1,20}$"},
    "age": {"type": "integer", "minimum": 0, "maximum": 128},
    "city": {"enum": ["Dublin", "Dubai", "Munich"]}}, "required": ["name", "age", "city"]}


def structured_cases(S) -> dict:
    """name: (StructuredOutputConfig of module ``S``'s class, the check of a complete output)."""
    import json
    import re

    def schema_check(schema):
        def ok(text):
            import jsonschema

            try:
                jsonschema.validate(json.loads(text), schema)
                return True
            except (ValueError, jsonschema.ValidationError):
                return False
        return ok

    enum = {"enum": ["Dublin", "Dubai", "Munich"]}
    integer = {"type": "integer", "minimum": 0, "maximum": 1000}
    array = {"type": "array", "items": {"type": "integer"}, "maxItems": 3}
    tag_a = S.Tag(begin="<f>", content=S.ConstString("A"), end="</f>")
    tag_b = S.Tag(begin="<f>", content=S.ConstString("B"), end="</f>")
    return {
        "json_schema, person": (S(json_schema=json.dumps(PERSON)), schema_check(PERSON)),
        "json_schema, enum": (S(json_schema=json.dumps(enum)), schema_check(enum)),
        "json_schema, integer": (S(json_schema=json.dumps(integer)), schema_check(integer)),
        "json_schema, array": (S(json_schema=json.dumps(array)), schema_check(array)),
        "regex, email": (S(regex=r"[a-z]{1,8}@[a-z]{1,8}\.com"),
                         lambda t: re.fullmatch(r"[a-z]{1,8}@[a-z]{1,8}\.com", t) is not None),
        "regex, JSON": (S(regex=r'\{"city":"(Dublin|Dubai|Munich)"\}'),
                        lambda t: re.fullmatch(r'\{"city":"(Dublin|Dubai|Munich)"\}', t) is not None),
        "EBNF, date": (S(grammar='root ::= date\ndate ::= d d d d "-" d d "-" d d\nd ::= [0-9]'),
                       lambda t: re.fullmatch(r"\d{4}-\d{2}-\d{2}", t) is not None),
        "Union": (S(structural_tags_config=S.ConstString("yes") | S.ConstString("no")),
                  lambda t: t in ("yes", "no")),
        "Concat, JSONSchema": (S(structural_tags_config=S.ConstString("functools")
                                 + S.JSONSchema(json.dumps({"enum": ["a", "b"]}))),
                               lambda t: t in ('functools"a"', 'functools"b"')),
        "Tag, Regex": (S(structural_tags_config=S.Tag(begin="<f>", content=S.Regex("[0-9]{2,4}"),
                                                      end="</f>")),
                       lambda t: re.fullmatch(r"<f>[0-9]{2,4}</f>", t) is not None),
        "TriggeredTags": (S(structural_tags_config=S.TriggeredTags(
            triggers=["<f"], tags=[tag_a, tag_b], at_least_one=True, stop_after_first=True)),
                          lambda t: t in ("<f>A</f>", "<f>B</f>")),
        "TagsWithSeparator": (S(structural_tags_config=S.TagsWithSeparator(
            tags=[tag_a, tag_b], separator=";", at_least_one=True)),
                              lambda t: re.fullmatch(r"<f>[AB]</f>(;<f>[AB]</f>)*", t) is not None),
        "compound_grammar": (S(compound_grammar=S.JSONSchema(json.dumps(
            {"enum": ["yes", "no"]}))), lambda t: t in ('"yes"', '"no"')),
    }


def structured(model_dir: Path, names: list[str] | None = None, max_new_tokens: int = 40
               ) -> dict[str, list[dict]]:
    """Structured output, greedy, on the real ContinuousBatchingPipeline (xgrammar) and ovlab's
    (llguidance): per case and prompt, both outputs' tokens and text and whether each is
    complete and valid. ``model_dir`` needs the detokenizer (``export(detokenizer=True)``):
    GenAI reads the vocabulary that xgrammar masks from it."""
    import contextlib
    import io

    import openvino as ov
    import openvino_genai as real

    import ovlab
    import ovlab.sim.genai as lab
    from ovlab.sim.genai.tokenizer import Tokenizer
    from ovlab.sim.runtime.tensor import Tensor

    tok = Tokenizer()
    prompts = [tok.encode(tok.apply_chat_template([{"role": "user", "content": p}], True))
               .input_ids.data[0].tolist() for p in STRUCTURED_PROMPTS]
    rp = real.ContinuousBatchingPipeline(str(model_dir), real.SchedulerConfig(), "CPU",
                                         {"INFERENCE_PRECISION_HINT": "f32",
                                          "KV_CACHE_PRECISION": "f32"})
    with contextlib.redirect_stderr(io.StringIO()):
        lp = lab.ContinuousBatchingPipeline("tiny-llm-fp16-ov", lab.SchedulerConfig(), "CPU",
                                            core=ovlab.Core("cpu"))
    rc, lc = structured_cases(real.StructuredOutputConfig), structured_cases(lab.StructuredOutputConfig)
    out: dict[str, list[dict]] = {}
    for name in names or list(rc):
        for ids in prompts:
            row = {}
            for side, mod, pipe, cases, tensor in (("real", real, rp, rc, ov.Tensor),
                                                   ("ovlab", lab, lp, lc, Tensor)):
                config, check = cases[name]
                cfg = mod.GenerationConfig(max_new_tokens=max_new_tokens,
                                           structured_output_config=config)
                gen = pipe.generate([tensor(np.asarray([ids], np.int64))], [cfg])[0]
                tokens = list(gen.m_generation_ids[0])
                text = tok.decode(tokens)
                row[side] = {"tokens": tokens, "text": text, "valid": bool(check(text))}
            out.setdefault(name, []).append(row)
    return out


def compare_structured(model_dir: Path, verbose: bool = True) -> dict[str, dict[str, int]]:
    results = structured(model_dir)
    summary = {}
    for name, rows in results.items():
        summary[name] = {"other_tokens": sum(r["real"]["tokens"] != r["ovlab"]["tokens"] for r in rows),
                         "real_valid": sum(r["real"]["valid"] for r in rows),
                         "ovlab_valid": sum(r["ovlab"]["valid"] for r in rows), "n": len(rows)}
        if verbose:
            s = summary[name]
            print(f"== structured output, {name}: {s['other_tokens']} of {s['n']} prompts' tokens "
                  f"differ; valid: real {s['real_valid']}, ovlab {s['ovlab_valid']}")
            for r in rows:
                print(f"   real {r['real']['text']!r:.60s}  ovlab {r['ovlab']['text']!r:.60s}")
    return summary


def main() -> None:
    try:
        import openvino_genai  # noqa: F401
    except ModuleNotFoundError:
        raise SystemExit("the openvino-genai wheel is not installed: pip install openvino-genai") from None
    from export_tiny_llm_ir import export

    with tempfile.TemporaryDirectory() as tmp:
        model_dir = export(Path(tmp) / "tiny-llm-ir")
        results = compare(model_dir)
        beam_diffs = compare_beams(model_dir)
        lora_diffs = compare_lora(model_dir)
        pl_diffs = compare_prompt_lookup(model_dir)
        so = compare_structured(export(Path(tmp) / "tiny-llm-ir-detok", detokenizer=True))
    bad = {k: v for k, v in results.items() if v["step_diffs"] or v["requests_with_other_tokens"]}
    print(f"\n{len(results) - len(bad)} of {len(results)} cases identical step by step and token by token")
    print(f"{sum(1 for d in beam_diffs.values() if not d)} of {len(beam_diffs)} beam-search cases "
          "identical (tokens and scores of every returned sequence)")
    print(f"{sum(1 for d in so.values() if not d['other_tokens'])} of {len(so)} structured-output "
          "cases with the same greedy tokens; "
          f"{sum(d['real_valid'] for d in so.values())} real and "
          f"{sum(d['ovlab_valid'] for d in so.values())} ovlab outputs of "
          f"{sum(d['n'] for d in so.values())} complete and valid (the tiny model fills a "
          "free-whitespace JSON object with whitespace until max_new_tokens, on both)")
    print(f"{sum(1 for d in pl_diffs.values() if not d)} of {len(pl_diffs)} prompt-lookup settings "
          "identical (tokens of every prompt)")
    print(f"{sum(1 for d in lora_diffs.values() if not d)} of {len(lora_diffs)} LoRA cases "
          "identical (greedy tokens of every prompt, adapter switched per generate)")


if __name__ == "__main__":
    main()
