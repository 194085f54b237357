"""The tracks through the labs and the whole set's time agree everywhere they are given: the
README, the instructors' guide, lab 00's source and its stored notebook, all rendered from
``benchmarks/results/labs.json`` by ``tools/lab_tables.py``."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| (?P<name>[^|]+?) \| (?P<labs>[^|]+) \| (?P<minutes>\d+) \|$", re.M)
HOURS = re.compile(r"about (\d+(?:\.\d+)?|[a-z]+) hours")


def _places() -> dict[str, str]:
    nb = json.loads((ROOT / "labs" / "00-start-here.ipynb").read_text(encoding="utf-8"))
    stored = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    source = (ROOT / "lab-sources" / "00-start-here.py").read_text(encoding="utf-8")
    return {"README.md": (ROOT / "README.md").read_text(encoding="utf-8"),
            "docs/instructors.md": (ROOT / "docs" / "instructors.md").read_text(encoding="utf-8"),
            "lab-sources/00": re.sub(r"^# ?", "", source, flags=re.M),
            "labs/00 (stored)": stored}


def _tracks(text: str) -> list[tuple[str, tuple[str, ...], int]]:
    block = text.split("<!-- labs:tracks -->")[1].split("<!-- /labs:tracks -->")[0]
    out = []
    for m in ROW.finditer(block):
        if m["name"] == "track":
            continue
        labs = tuple(re.findall(r"\[(\d\d)\]", m["labs"]))
        out.append((m["name"], labs, int(m["minutes"])))
    return out


def test_the_tracks_and_the_total_agree_everywhere(tool):
    tables = tool("lab_tables")
    data = tables.load()
    places = _places()
    found = {where: _tracks(text) for where, text in places.items()}
    first = found["README.md"]
    assert [name for name, _l, _m in first] == [t[0] for t in tables.TRACKS]
    for where, tracks in found.items():
        assert tracks == first, f"{where} gives other tracks than the README"
    # each track's minutes are its labs' class times (and parts and breaks) from the JSON, and
    # fit the time it is named for
    for (name, _labs, minutes), track in zip(first, tables.TRACKS, strict=True):
        assert minutes == tables.track_minutes(data, track), name
        if track[1] is not None:
            assert minutes <= track[1], f"{name}: {minutes} minutes"
    total = sum(s["class_min"] for s in data["stats"].values())
    for where, text in places.items():
        for said in HOURS.findall(text):
            assert said == f"{total / 60:.1f}", f"{where} says about {said} hours, not {total / 60:.1f}"
        assert f"({total} minutes of class time" in text, where


def test_the_llm_labs_have_a_track_and_a_place_in_the_second_day(tool):
    tables = tool("lab_tables")
    by_name = {name: labs for name, labs, _m in _tracks(_places()["README.md"])}
    llm = next(labs for name, labs in by_name.items() if name.startswith("90 minutes"))
    second = next(labs for name, labs in by_name.items() if name.startswith("a second day"))
    assert {"13", "14"} <= set(llm) and {"13", "14"} <= set(second)
    # every lab is in some track
    labs = {lab[:2] for lab in tables.load()["stats"]}
    assert labs == {lab for ls in by_name.values() for lab in ls}


def test_the_facilitators_clock_is_the_three_hour_track(tool):
    """docs/facilitator-3h.md's clock: the README's 3-hour track, lab by lab, in order, each
    step starting when the one before it ends, to the track's total."""
    tables = tool("lab_tables")
    text = (ROOT / "docs" / "facilitator-3h.md").read_text(encoding="utf-8")
    block = text.split("<!-- labs:schedule -->")[1].split("<!-- /labs:schedule -->")[0]
    rows = re.findall(r"^\| (\d+):(\d\d)-(\d+):(\d\d) \| ([^|]+) \| (\d+) \|$", block, re.M)
    three = next(t for t in _tracks(_places()["README.md"]) if t[0].startswith("3 hours"))
    labs = tuple(m.group(1) for _h, _m, _h2, _m2, what, _n in rows
                 for m in [re.match(r"lab \[(\d\d) ", what)] if m)
    assert labs == three[1]
    clock = 0
    for h, m, h2, m2, _what, minutes in rows:
        assert int(h) * 60 + int(m) == clock and int(h2) * 60 + int(m2) == clock + int(minutes)
        clock += int(minutes)
    assert clock == three[2] == tables.track_minutes(tables.load(), tables.TRACKS[1])
    assert re.search(rf"^\| \| total \| {clock} \|$", block, re.M)
