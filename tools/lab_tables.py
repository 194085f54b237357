"""Render every lab figure the docs quote (class time, kernel memory) from one measurement.

``benchmarks/results/labs.json`` holds the measurement: ``stats`` (code cells, words, exercises,
class time per lab, from the sources: ``python tools/lab_stats.py --write``) and ``memory`` (each
lab kernel's peak after Run All, with where and when: ``python benchmarks/bench_lab_memory.py
--record``). This tool writes the tables and sentences built from it into ``docs/instructors.md``
and the 3-hour track's clock into ``docs/facilitator-3h.md`` (between ``<!-- labs:... -->``
markers), the time and memory columns of the README's lab
table, and the tracks through the labs (``TRACKS``: 15 minutes, 3 hours, 90 minutes on LLMs, a
second day) with the whole set's time into the README, the guide and lab 00's source, so that
they can never disagree again (they did: lab 01 at 177 MB in one, 232 MB in the other; "about
six hours" in lab 00, 7.2 in the guide). After a change to lab 00's tracks, rebuild it
(``python tools/run_labs.py 00``).

    python tools/lab_tables.py           # rewrite the docs from the JSON
    python tools/lab_tables.py --check   # exit 1 and name the file if a doc is stale

``tests/labs/test_lab_tables.py`` runs the check, and checks the JSON's stats against the
sources. A new lab needs a row in ``OBJECTIVES`` and in the README's table.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "results" / "labs.json"
INSTRUCTORS = ROOT / "docs" / "instructors.md"
README = ROOT / "README.md"
LAB00 = ROOT / "lab-sources" / "00-start-here.py"  # then: python tools/run_labs.py 00
FACILITATOR = ROOT / "docs" / "facilitator-3h.md"

# what a learner can do after each lab (the instructors' table); one entry per lab
OBJECTIVES = {
    "00": ("start here", "tell what is simulated from what is real; read the clock and the "
           "records; run a trained classifier on CPU, GPU and NPU in their precisions"),
    "01": ("devices and properties", "list devices, read capabilities and properties, predict "
           "request counts"),
    "02": ("AUTO device selection", "predict AUTO's device from the candidates, precisions and "
           "model priorities"),
    "03": ("AUTO's first inference", "explain the CPU helper, read `EXECUTION_DEVICES` and "
           "AUTO's log, judge `benchmark_app` numbers"),
    "04": ("the latency graph", "read the yas-sim latency graph under LATENCY and THROUGHPUT, "
           "find the switch"),
    "05": ("automatic batching", "tell when batching applies, predict waits under the periodic "
           "timer"),
    "06": ("CUMULATIVE_THROUGHPUT and MULTI", "spread a model over devices, predict which "
           "device runs a request"),
    "07": ("HETERO", "split a model with affinities, count subgraphs and transfers, fix a bad "
           "split"),
    "08": ("when a device fails", "predict AUTO's fallbacks and what reaches the application"),
    "09": ("an AI PC in 2026", "run resource-aware AUTO, the model cache, NPU batching and "
           "pipeline-parallel HETERO on a Core Ultra"),
    "10": ("models from files", "save and read IR, bring a model to the NPU with HETERO"),
    "11": ("run OpenVINO code", "run an unmodified OpenVINO script on the virtual devices "
           "(`python -m ovlab run`, `%load_ext ovlab`)"),
    "12": ("how far to trust the numbers", "tell which of ovlab's numbers are measured, fitted "
           "or predicted, and how far each holds"),
    "13": ("batching for LLMs", "tell why BATCH refuses an LLM, read TTFT and TPOT, predict "
           "how continuous batching, split-fuse and prefix caching change them"),
    "14": ("which device for my LLM", "choose CPU, iGPU or NPU for an LLM from TTFT, TPOT, "
           "memory and concurrency; explain the NPU's padded prefill, compile and one request "
           "at a time"),
}

# the tracks (lab 00, docs/instructors.md and the README, all rendered from here): a name, the
# minutes it is planned for, and its steps: a lab (its class time from the JSON), a lab with the
# minutes of the part taken and what that part is, or a break
BREAK = "break"
TRACKS = (
    ("15 minutes: see AUTO switch and batch", 15,
     (("00", 5, "down to its digits classifier"), ("04", 10, "'s dashboard, section 4"))),
    ("3 hours: a class on AUTO and batching", 180,
     (("00",), ("02",), ("03",), ("04",), (BREAK, 10), ("05",), ("08",))),
    ("90 minutes: LLMs on an AI PC", 90,
     (("00", 20, "up to its first inference and its record"), ("13",), (BREAK, 5), ("14",))),
    ("a second day: everything else", None,
     (("01",), ("06",), ("07",), ("09",), ("10",), ("11",), ("12",), ("13",), ("14",))),
)
THREE_HOURS = [step[0] for step in TRACKS[1][2] if step[0] != BREAK]
LLM_TRACK = [step[0] for step in TRACKS[2][2] if step[0] != BREAK]
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
         8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen",
         14: "fourteen", 15: "fifteen", 16: "sixteen"}


def load(path: Path = DATA) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _labs(data: dict) -> list[str]:
    return sorted(data["stats"])


def _peak(data: dict, lab: str) -> str:
    mb = data["memory"]["labs"].get(lab)
    return f"{mb:.0f}" if mb is not None else "not measured"


def instructors_table(data: dict) -> str:
    lines = ["| lab | what a learner can do after it | code cells | reading (min) | exercises | "
             "class time (min) | kernel peak (MB) |", "|---|---|---|---|---|---|---|"]
    for lab in _labs(data):
        s = data["stats"][lab]
        title, goal = OBJECTIVES.get(lab[:2], (lab[3:].replace("-", " "), "see the lab's opening"))
        lines.append(f"| {lab[:2]} {title} | {goal} | {s['code_cells']} | "
                     f"{s['reading_min']:.0f} | {s['exercises']} | {s['class_min']} | "
                     f"{_peak(data, lab)} |")
    return "\n".join(lines)


def totals(data: dict) -> dict:
    labs = _labs(data)
    minutes = sum(data["stats"][lab]["class_min"] for lab in labs)
    mem = data["memory"]
    measured = [mem["labs"][lab] for lab in labs if lab in mem["labs"]]
    return {"count": len(labs), "count_words": WORDS.get(len(labs), str(len(labs))),
            "hours": minutes / 60.0, "sum_gb": sum(measured) / 1024.0,
            "max_mb": max(measured) if measured else 0.0, "baseline_mb": mem["baseline_mb"],
            "date": mem["date"], "machine": mem["machine"]}


def instructors_summary(data: dict) -> str:
    t = totals(data)
    return (f"The whole set is about {t['hours']:.1f} hours. A learner who keeps every lab open "
            f"needs the sum of the peaks, about {t['sum_gb']:.1f} GB for the {t['count_words']} "
            f"labs (measured {t['date']} on {t['machine']}; a kernel with ovlab, NumPy, pandas "
            f"and plotly imported and nothing run takes {t['baseline_mb']:.0f} MB); JupyterLab "
            f"keeps one kernel per open notebook, so ask learners to shut a lab's kernel down "
            f"(*Kernel → Shut Down Kernel*) before opening the next, or let the hub cull idle "
            f"kernels (below).")


def _step_minutes(data: dict, step: tuple) -> int:
    if step[0] == BREAK or len(step) > 1:
        return int(step[1])
    lab = next(lab for lab in _labs(data) if lab.startswith(step[0]))
    return int(data["stats"][lab]["class_min"])


def track_minutes(data: dict, track: tuple) -> int:
    """A track's minutes: its labs' class times, its parts and breaks."""
    return sum(_step_minutes(data, step) for step in track[2])


def _link(data: dict, prefix: str, where: str) -> str:
    lab = next(lab for lab in _labs(data) if lab.startswith(prefix))
    return f"[{prefix}]({where}{lab}.ipynb)"


def tracks_table(data: dict, where: str = "labs/") -> str:
    """Every track in one table, and the whole set's time (``where``: the labs' folder, seen
    from the document)."""
    t = totals(data)
    minutes = sum(data["stats"][lab]["class_min"] for lab in _labs(data))
    lines = [f"All {t['count_words']} labs take about {t['hours']:.1f} hours ({minutes} minutes "
             f"of class time; each lab's is in `docs/instructors.md`). The tracks through them:",
             "", "| track | labs, in order | minutes |", "|---|---|---|"]
    for name, _planned, steps in TRACKS:
        parts = []
        for step in steps:
            if step[0] == BREAK:
                parts.append(f"a {step[1]}-minute break")
            elif len(step) > 1:
                sep = "" if step[2].startswith("'") else " "
                parts.append(f"{_link(data, step[0], where)}{sep}{step[2]} ({step[1]} min)")
            else:
                parts.append(_link(data, step[0], where))
        lines.append(f"| {name} | {', '.join(parts)} | {track_minutes(data, (name, _planned, steps))} |")
    return "\n".join(lines)


def track_table(data: dict, index: int, goals: bool = True) -> str:
    """One class track step by step: its labs' minutes and what a learner can do after each
    (``goals=False``: without that last column, for a slide)."""
    if not goals:
        return "\n".join(line.rsplit(" |", 2)[0] + " |" if line.startswith("| ") else "|---|---|---|"
                         for line in track_table(data, index).splitlines())
    by_prefix = {lab[:2]: lab for lab in _labs(data)}
    lines = ["| step | lab | minutes | after it a learner can |", "|---|---|---|---|"]
    name, _planned, steps = TRACKS[index]
    i, breaks = 0, []
    for step in steps:
        if step[0] == BREAK:
            breaks.append(f"a {step[1]}-minute break after lab {steps[steps.index(step) - 1][0]}")
            continue
        i += 1
        title, goal = OBJECTIVES[step[0]]
        minutes = data["stats"][by_prefix[step[0]]]["class_min"]
        lines.append(f"| {i} | {step[0]} {title} | {minutes} | {goal} |")
    lines.append(f"| | total (with {' and '.join(breaks)}) | {track_minutes(data, TRACKS[index])} | |")
    return "\n".join(lines)


def three_hour_table(data: dict) -> str:
    return track_table(data, 1)


def _clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def schedule_table(data: dict, index: int = 1) -> str:
    """A track as a clock: when each lab and break starts and ends, from 0:00 (the facilitator's
    script, ``docs/facilitator-3h.md``)."""
    by_prefix = {lab[:2]: lab for lab in _labs(data)}
    lines = ["| clock | step | minutes |", "|---|---|---|"]
    now = 0
    for step in TRACKS[index][2]:
        minutes = _step_minutes(data, step)
        if step[0] == BREAK:
            what = "break"
        else:
            title = OBJECTIVES[step[0]][0]
            what = f"lab [{step[0]} {title}](../labs/{by_prefix[step[0]]}.ipynb)"
        lines.append(f"| {_clock(now)}-{_clock(now + minutes)} | {what} | {minutes} |")
        now += minutes
    lines.append(f"| | total | {now} |")
    return "\n".join(lines)


def render_facilitator(text: str, data: dict) -> str:
    return _between(text, "schedule", schedule_table(data, 1), FACILITATOR)


def readme_memory(data: dict) -> str:
    t = totals(data)
    return (f"measured {t['date']} on {t['machine']}: {t['max_mb']:.0f} MB at most, "
            f"{t['sum_gb']:.1f} GB for "
            f"all {t['count_words']} open at once, so a learner on Binder's 2 GB should shut a "
            f"lab's kernel down before opening the next; a kernel with the imports alone takes "
            f"{t['baseline_mb']:.0f} MB")


def _between(text: str, name: str, body: str, path: Path) -> str:
    begin, end = f"<!-- labs:{name} -->", f"<!-- /labs:{name} -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path.name}: no {begin} ... {end} markers")
    inline = "\n" not in body
    return pattern.sub(lambda _m: f"{begin}{body}{end}" if inline
                       else f"{begin}\n{body}\n{end}", text)


def render_instructors(text: str, data: dict) -> str:
    text = _between(text, "table", instructors_table(data), INSTRUCTORS)
    text = _between(text, "summary", instructors_summary(data), INSTRUCTORS)
    text = _between(text, "tracks", tracks_table(data, "../labs/"), INSTRUCTORS)
    text = _between(text, "llm-track", track_table(data, 2), INSTRUCTORS)
    return _between(text, "three-hours", three_hour_table(data), INSTRUCTORS)


def _between_commented(text: str, name: str, body: str, path: Path) -> str:
    """As :func:`_between`, in a jupytext source's markdown (every line behind ``# ``)."""
    begin, end = f"# <!-- labs:{name} -->", f"# <!-- /labs:{name} -->"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path.name}: no {begin} ... {end} markers")
    lines = "\n".join(f"# {line}" if line else "#" for line in body.splitlines())
    return pattern.sub(lambda _m: f"{begin}\n{lines}\n{end}", text)


def render_lab00(text: str, data: dict) -> str:
    return _between_commented(text, "tracks", tracks_table(data, ""), LAB00)


def render_readme(text: str, data: dict) -> str:
    out = []
    for line in text.splitlines(keepends=True):
        m = re.match(r"\| \[(\d\d) [^\]]*\]\(labs/(\d\d-[^)]+)\.ipynb\) \|", line)
        if m and m.group(2) in data["stats"]:
            lab = m.group(2)
            cells = line.rstrip("\n").split(" | ")
            # | title | what you see | claims | time | memory | online |
            cells[3] = f"{data['stats'][lab]['class_min']} min"
            cells[4] = f"{_peak(data, lab)} MB"
            line = " | ".join(cells) + "\n"
        out.append(line)
    text = _between("".join(out), "memory", readme_memory(data), README)
    return _between(text, "tracks", tracks_table(data, "labs/"), README)



def main(argv: list[str]) -> int:
    data = load()
    stale = []
    for path, render in ((INSTRUCTORS, render_instructors), (README, render_readme),
                         (LAB00, render_lab00), (FACILITATOR, render_facilitator)):
        old = path.read_text(encoding="utf-8")
        new = render(old, data)
        if new != old:
            stale.append(path)
            if "--check" not in argv:
                path.write_text(new, encoding="utf-8")
    if "--check" in argv and stale:
        print("stale (run python tools/lab_tables.py):",
              ", ".join(str(p.relative_to(ROOT)) for p in stale))
        return 1
    for path in stale:
        print("rewrote", path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
