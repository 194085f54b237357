"""The whole public API of the real ``openvino`` wheel, served by the runner: checked mechanically.

``tests/conformance/data/openvino_surface.json`` is the wheel's surface, written by
``tools/gen_openvino_surface.py`` from the installed wheel: every public module device-level
code imports from, every public name, every callable's signatures (parameter names, keywords,
defaults, one list per overload). This test installs the runner and walks that file:

- every module imports, every name is served (a stand-in from ``ovlab/sim/runner/standins.py`` counts:
  it imports and raises naming the feature when used);
- every class has every member the real one has;
- every callable accepts every real overload: the same number of required arguments, every
  keyword by its real name, as many positional arguments, and the same literal defaults (or
  one of the overloads ovlab declares with ``typing.overload`` does, when one signature cannot
  carry two overloads' defaults; the implementation must then take every call it declares).

Differences not fixed yet are listed in ``KNOWN_DIFFERENCES`` with their reason, so a new gap
fails the test and a fixed one must be removed from the list (the test fails on a stale entry).
With the wheel installed, the snapshot must also be current (the same text the tool prints).
"""

from __future__ import annotations

import ast
import enum
import fnmatch
import importlib
import inspect
import json
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "conformance" / "data" / "openvino_surface.json"
TOOL = ROOT / "tools" / "gen_openvino_surface.py"

# "module:name[.member]" patterns (fnmatch) -> why ovlab differs today. Each is a gap to close,
# not a policy (what is not simulated by design is a stand-in in ovlab/sim/runner/standins.py);
# a pattern that matches nothing any more fails the test, so the list only shrinks.
KNOWN_DIFFERENCES: dict[str, str] = {}  # empty since issue 23 closed the last 55 gaps


def _known(key: str) -> str | None:
    return next((why for pattern, why in KNOWN_DIFFERENCES.items()
                 if fnmatch.fnmatchcase(key, pattern)), None)


def _literal(text: str | None):
    if text is None:
        return inspect.Parameter.empty
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return ...  # not a literal (an object's repr): only its presence is compared


def _signature(obj, drop_self: bool) -> inspect.Signature | None:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    if drop_self and params and params[0].name in ("self", "cls") and \
            params[0].kind in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD):
        params = params[1:]
    return sig.replace(parameters=params)


def _binds(sig: inspect.Signature, *args, **kwargs) -> bool:
    try:
        sig.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def overload_gaps(sig: inspect.Signature, overload: list) -> list[str]:
    """What ``sig`` (ovlab's) refuses of one real overload ``[[name, default], ...]``."""
    gaps = []
    positional, keyword_only, star = [], [], False
    for name, default in overload:
        if name in ("*", "/") or name.startswith("*"):
            star = star or name == "*" or name.startswith("*")
            continue
        (keyword_only if star else positional).append((name, default))
    required = [n for n, d in positional if d is None]
    if not _binds(sig, *[None] * len(required),
                  **{n: None for n, d in keyword_only if d is None}):
        gaps.append(f"refuses {len(required)} positional argument(s) ({', '.join(required)})")
    if not _binds(sig, *[None] * len(positional)):
        gaps.append(f"refuses {len(positional)} positional argument(s)")
    params = sig.parameters
    var_kw = any(p.kind is p.VAR_KEYWORD for p in params.values())
    for name, default in positional + keyword_only:
        if name.startswith("arg") and name[3:].isdigit():
            continue  # pybind's unnamed (positional-only) argument
        p = params.get(name)
        if p is None or p.kind is p.POSITIONAL_ONLY:
            if not var_kw:
                gaps.append(f"no keyword '{name}'")
            continue
        real = _literal(default)
        if real is inspect.Parameter.empty or real is ...:
            continue
        if p.default is not inspect.Parameter.empty and p.default != real and \
                not (isinstance(real, str) and str(p.default) == real):
            gaps.append(f"'{name}' defaults to {p.default!r}, real {default}")
    return gaps


def _as_overload(sig: inspect.Signature, defaults: bool = True) -> list:
    """``sig`` in the snapshot's form, ``[[name, default text], ...]`` (positional-only
    parameters named ``argN`` as pybind names them; no defaults: every parameter required)."""
    out, star = [], False
    for i, p in enumerate(sig.parameters.values()):
        default = None if p.default is inspect.Parameter.empty or not defaults \
            else repr(p.default)
        if p.kind is p.VAR_POSITIONAL:
            out.append(["*" + p.name, None])
            star = True
        elif p.kind is p.VAR_KEYWORD:
            out.append(["**" + p.name, None])
        elif p.kind is p.KEYWORD_ONLY:
            if not star:
                out.append(["*", None])
                star = True
            out.append([p.name, default])
        else:
            out.append([f"arg{i}" if p.kind is p.POSITIONAL_ONLY else p.name, default])
    return out


def declared_overloads(obj, drop_self: bool) -> list[inspect.Signature]:
    """The overloads ovlab declares for ``obj`` with ``typing.overload``, as the wheel's
    docstrings list theirs (one Python signature cannot carry two overloads' defaults, as
    ``Constant(array, shared_memory=False)`` and ``Constant(tensor, shared_memory=True)``)."""
    get_overloads = getattr(typing, "get_overloads", None)  # Python 3.11+
    func = getattr(obj, "__func__", obj)
    if get_overloads is None or not callable(func):
        return []
    try:
        stubs = get_overloads(func)
    except (AttributeError, TypeError):
        return []
    return [s for s in (_signature(stub, drop_self) for stub in stubs) if s is not None]


def callable_gaps(obj, signatures: list | None, drop_self: bool) -> list[str]:
    """What ovlab's ``obj`` refuses of the real ``signatures``. A real overload is served when
    the implementation takes it, or when one of ovlab's declared overloads does and the
    implementation takes every call that declared overload describes."""
    if not signatures:
        return []
    sig = _signature(obj, drop_self)
    if sig is None:
        return []  # a builtin: nothing to read
    gaps = []
    declared = declared_overloads(obj, drop_self)
    for stub in declared:
        for gap in overload_gaps(sig, _as_overload(stub, defaults=False)):
            gaps.append(f"declared overload {stub} is not taken: {gap}")
    for i, overload in enumerate(signatures):
        found = overload_gaps(sig, overload)
        if found and any(not overload_gaps(stub, overload) for stub in declared):
            found = []
        for gap in found:
            gaps.append(gap if len(signatures) == 1 else f"overload {i + 1} {gap}")
    return gaps


def _set_in_init(cls: type, name: str) -> bool:
    """True when ``cls.__init__`` assigns ``self.<name>`` (an instance attribute serves a real
    read-only property as well)."""
    try:
        source = inspect.getsource(cls.__init__)
    except (OSError, TypeError):
        return False
    return re.search(rf"self\.{re.escape(name)}\s*[,=]", source) is not None


def surface_gaps(snapshot: dict) -> dict[str, str]:
    """``{"module:name[.member]": what differs}`` between the snapshot and ovlab's served API."""
    from ovlab.sim.runner import standins

    out: dict[str, str] = {}
    seen: set[str] = set()  # a class re-exported by several modules is checked once
    for mod_name, names in snapshot["modules"].items():
        try:
            module = importlib.import_module(mod_name)
        except ImportError as exc:
            out[mod_name] = f"not served: {exc}"
            continue
        for name, desc in names.items():
            key = f"{mod_name}:{name}"
            try:
                value = getattr(module, name)
            except AttributeError:
                out[key] = "missing"
                continue
            if standins.is_standin(value):
                continue
            kind = desc["kind"]
            if kind == "property-key":
                if desc["value"] is not None and str(value) != desc["value"]:
                    out[key] = f"key {str(value)!r}, real {desc['value']!r}"
            elif kind == "function":
                gaps = callable_gaps(value, desc["signatures"], drop_self=False)
                if gaps:
                    out[key] = "; ".join(gaps)
            elif kind == "class":
                if not inspect.isclass(value):
                    out[key] = f"a {type(value).__name__}, real a class"
                    continue
                if desc["class"] in seen:
                    continue
                seen.add(desc["class"])
                for member, mdesc in desc["members"].items():
                    mkey = f"{key}.{member}"
                    try:
                        raw = inspect.getattr_static(value, member)
                    except AttributeError:
                        if not (mdesc["kind"] == "property" and _set_in_init(value, member)):
                            out[mkey] = "missing"
                        continue
                    if mdesc["kind"] in ("method", "staticmethod", "classmethod"):
                        if member == "__ne__" or (member == "__eq__" and
                                                  issubclass(value, enum.Enum)):
                            continue  # derived from __eq__; enum members compare by identity
                        if member in ("__eq__", "__hash__") and raw in (object.__eq__,
                                                                      object.__hash__):
                            out[mkey] = "missing"  # object's identity, not the real comparison
                            continue
                        obj = getattr(value, member)
                        gaps = callable_gaps(obj, mdesc.get("signatures"),
                                             drop_self=mdesc["kind"] == "method")
                        if member.startswith("__"):  # operators are not called by keyword
                            gaps = [g for g in gaps if "no keyword" not in g]
                        if gaps:
                            out[mkey] = "; ".join(gaps)
                    elif mdesc["kind"] == "property" and mdesc.get("settable") and \
                            isinstance(raw, property) and raw.fset is None:
                        out[mkey] = "read-only, real settable"
    return out


@pytest.fixture(scope="module")
def snapshot() -> dict:
    return json.loads(SNAPSHOT.read_text())


@pytest.fixture
def served():
    """The runner installed (as under ``python -m ovlab run``), uninstalled after."""
    import ovlab.sim.runner

    ovlab.sim.runner.install("cpu")
    try:
        yield
    finally:
        ovlab.sim.runner.uninstall()


def test_snapshot_is_of_the_pinned_wheel(snapshot):
    pinned = next(line.split("==")[1].strip() for line in
                  (ROOT / "binder" / "constraints-test.txt").read_text().splitlines()
                  if line.startswith("openvino=="))
    assert snapshot["openvino_version"] == pinned


def test_snapshot_is_current():
    """With the real wheel installed, the committed snapshot is what the tool reads from it."""
    pytest.importorskip("openvino", reason="the real openvino wheel is not installed")
    printed = subprocess.run([sys.executable, str(TOOL), "--print"], capture_output=True,
                             text=True, check=True, cwd=ROOT).stdout
    assert printed == SNAPSHOT.read_text(), \
        "the wheel's surface changed: run tools/gen_openvino_surface.py and review the diff"


def test_every_real_name_and_signature_is_served(snapshot, served):
    gaps = surface_gaps(snapshot)
    new = {k: v for k, v in gaps.items() if _known(k) is None}
    stale = sorted(p for p in KNOWN_DIFFERENCES if not any(fnmatch.fnmatchcase(k, p)
                                                           for k in gaps))
    assert not new, f"{len(new)} differences from the real wheel:\n" + \
        "\n".join(f"  {k}: {v}" for k, v in sorted(new.items()))
    assert not stale, f"fixed, remove from KNOWN_DIFFERENCES: {stale}"


def test_the_checker_sees_a_difference():
    """The comparison fails where it should (a test that cannot fail proves nothing)."""
    def f(a, b=1):
        return a, b

    sig = inspect.signature(f)
    assert overload_gaps(sig, [["a", None], ["b", "1"]]) == []
    assert overload_gaps(sig, [["a", None], ["c", "1"]]) == ["no keyword 'c'"]
    assert overload_gaps(sig, [["a", None], ["b", "2"]]) == ["'b' defaults to 1, real 2"]
    assert overload_gaps(sig, [["a", None], ["b", None], ["c", None]]) != []
    assert "refuses 0 positional argument(s) ()" in overload_gaps(sig, [])
    assert _known("openvino:Nothing.like_this") is None


@typing.overload
def _declared(a: int, b: int = 1) -> None: ...


@typing.overload
def _declared(c: str, b: int = 2) -> None: ...


def _declared(a=None, b=None, c=None):
    return a, b, c


@typing.overload
def _declared_not_taken(x: int) -> None: ...


def _declared_not_taken(a):
    return a


def test_the_checker_reads_declared_overloads():
    """An overload declared with typing.overload serves a real one whose defaults the
    implementation cannot carry, and only if the implementation takes its calls."""
    if not hasattr(typing, "get_overloads"):
        pytest.skip("typing.get_overloads is Python 3.11+")
    real = [[["a", None], ["b", "1"]], [["c", None], ["b", "2"]]]
    assert callable_gaps(_declared, real, drop_self=False) == []
    assert callable_gaps(_declared, [[["a", None], ["b", "3"]]], drop_self=False) == \
        ["'b' defaults to None, real 3"]
    gaps = callable_gaps(_declared_not_taken, [[["a", None]]], drop_self=False)
    assert len(gaps) == 1 and gaps[0].startswith("declared overload (x") and \
        gaps[0].endswith("is not taken: no keyword 'x'")


def test_the_wheels_tools_import_under_the_runner(served):
    """openvino.tools is loaded from the installed wheel's own source (its names are the
    wheel's by construction), on top of the served openvino: benchmark_app's entry point
    imports under the runner."""
    pytest.importorskip("openvino", reason="the real openvino wheel is not installed")
    from ovlab.sim.runner import wheel_tools

    if wheel_tools.wheel_dir() is None:
        pytest.skip("the installed openvino wheel has no tools folder")
    main = importlib.import_module("openvino.tools.benchmark.main")
    assert callable(main.main)
    assert importlib.import_module("openvino").__doc__.startswith("OpenVINO's Python API, served")
