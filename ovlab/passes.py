"""``openvino.passes``: the pass manager and the two passes device-level code runs.

``Manager().register_pass(...)`` then ``run_passes(model)``, as in OpenVINO, with
``ConstantFolding`` (every subgraph that reads only constants is computed once, with ovlab's
NumPy kernels, and becomes a Constant of the same friendly name) and ``Serialize`` (the model
as IR files, as ``openvino.serialize`` writes them). The pattern-matching passes (MatcherPass,
GraphRewrite, the predicates...), LowLatency2, MakeStateful, ConvertFP32ToFP16 and
VisualizeTree are C++ graph rewriting, which ovlab does not offer: the runner serves them as
stand-ins (``ovlab/sim/runner/standins.py``).
"""

from __future__ import annotations

import os
from typing import Any

from .properties._base import OVEnum, add_entries
from .sim.graph.model import Model
from .sim.graph.ops import Constant, Parameter, Result


class Version(OVEnum):
    """The IR version ``Serialize`` writes (UNSPECIFIED: the newest, v11)."""

    UNSPECIFIED = 0
    IR_V10 = 10
    IR_V11 = 11


add_entries(Version)


class PassBase:
    """What ``Manager.register_pass`` takes: a pass with a name."""

    def __init__(self) -> None:
        self._name = type(self).__name__

    def get_name(self) -> str:
        return self._name

    def set_name(self, name: str) -> None:
        self._name = str(name)

    def run_on_model(self, model: Model) -> bool:
        """Transform ``model`` in place; True when it changed."""
        raise NotImplementedError(f"{type(self).__name__}.run_on_model")


class ModelPass(PassBase):
    """A pass over a whole model (subclass it and write ``run_on_model``)."""


class ConstantFolding(ModelPass):
    """Compute every node whose inputs are all constant and put a Constant in its place."""

    def run_on_model(self, model: Model) -> bool:
        plan = model._plan
        folded = [n for n in model.get_ordered_ops()
                  if id(n) in plan.const and not isinstance(n, (Constant, Parameter, Result))]
        frontier = [n for n in folded if any(
            id(c) not in plan.const or isinstance(c, Result)
            for out in n.outputs() for c in (t.get_node() for t in out.get_target_inputs()))]
        if not frontier:
            return False
        outs = [out for n in frontier for out in n.outputs()]
        values = Model([Result(o) for o in outs], [])._evaluate([])
        for out, value in zip(outs, values, strict=True):
            const = Constant(value.astype(out.get_element_type().to_dtype(), copy=False))
            const.set_friendly_name(out.get_node().get_friendly_name())
            const.output(0).get_rt_info().update(dict(out.get_rt_info()))
            out.replace(const.output(0))
        name, friendly, rt_info = model._name, model._friendly_name, model._rt_info
        model._init(model.get_results(), model.get_parameters(), friendly, strict=False)
        model._name, model._rt_info = name, rt_info
        return True


class Serialize(ModelPass):
    """Write the model as IR files (``path_to_xml`` and ``path_to_bin``) when the manager runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        names = ("path_to_xml", "path_to_bin", "version")
        given = dict(zip(names, args, strict=False))
        if len(args) > len(names) or set(kwargs) - set(names) or set(given) & set(kwargs) or \
                len({**given, **kwargs}.keys() & {"path_to_xml", "path_to_bin"}) != 2:
            shown = ", ".join([*(repr(a) for a in args), *(f"{k}={v!r}" for k, v in
                                                           kwargs.items())])
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument types "
                "are supported:\n    1. openvino._pyopenvino.passes.Serialize(path_to_xml: "
                "object, path_to_bin: object, version: object = None)\n\nInvoked with: "
                f"{shown}")
        given.update(kwargs)
        self._xml, self._bin = os.fspath(given["path_to_xml"]), os.fspath(given["path_to_bin"])
        version = given.get("version")
        self._version = "UNSPECIFIED" if version is None else (
            version.name if isinstance(version, Version) else str(version))

    def run_on_model(self, model: Model) -> bool:
        from .sim.frontends import serialize

        serialize(model, self._xml, self._bin, self._version)
        return False


class Manager:
    """Holds passes and runs them in the order registered (``openvino.passes.Manager``)."""

    def __init__(self) -> None:
        self._passes: list[PassBase] = []
        self._validate = False

    def register_pass(self, *args: Any, **kwargs: Any) -> PassBase:
        """Add one pass (positionally, or as ``transformation=``); returns it."""
        given = [*args, *kwargs.values()]
        if len(given) != 1 or set(kwargs) - {"transformation"} or \
                not isinstance(given[0], PassBase):
            raise TypeError(f"register_pass(): expected one pass, got {given!r}")
        self._passes.append(given[0])
        return given[0]

    def set_per_pass_validation(self, new_state: bool) -> None:
        self._validate = bool(new_state)

    def run_passes(self, model: Model) -> None:
        if not isinstance(model, Model):
            raise TypeError(f"run_passes(): expected a Model, got {model!r}")
        for transformation in self._passes:
            transformation.run_on_model(model)
