"""``OPENVINO_HETERO_VISUALIZE``: the two GraphViz files HETERO writes when it compiles.

The text follows what the real runtime wrote (``reference/ov_probe/hetero_dot/``), which is
``ov::pass::VisualizeTree`` with HETERO's node modifier (``graph_debug_dump.cpp``):

* ``digraph \\n{`` ... ``}``; nodes are visited from the Results back to the inputs (a stack, as
  ``ov::traverse_nodes``), and for each node its input edges are written, each source's box the
  first time it appears;
* a box per op: ``Name [shape=box color=black label="friendly\\nunique\\nopsetN::Type\\n
  [subgraph=i\\n]device=DEV" fillcolor=<colour> style=filled]``, Results ``color=crimson
  penwidth=1.5``;
* Parameters and Constants are not boxes of their own but dashed ``CLONE_<n>`` copies at each
  use (blue outline for Parameters), with ``{type}[shape]`` and the first 7 constant values.

Deviations, all for the learner's benefit: the colour of a device is its rank of first
appearance in the model (the real index comes from an unordered set and changes between runs);
``subgraph=`` is the final submodel index (the real file shows the collector's internal id);
the unique name is always printed (the real runtime dumps a clone, whose unique names always
differ from the friendly ones); files are written once, with the final affinities (in automatic
mode the real plugin rewrites them at every masking step); very long edges are not replaced by
``SEND_<n>``/``RECV_<n>`` pairs.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ...graph import Constant, Model, Node, Parameter, Result

__all__ = ["PALETTE", "affinity_dot", "subgraphs_dot", "write_dot_files", "ENV_VAR"]

ENV_VAR = "OPENVINO_HETERO_VISUALIZE"
PALETTE = ("aliceblue", "antiquewhite4", "aquamarine4", "azure4", "bisque3", "blue1", "brown",
           "burlywood", "cadetblue", "chartreuse", "chocolate", "coral", "cornflowerblue",
           "cornsilk4")
_MAX_VALUES = 7  # OV_VISUALIZE_TREE_CONST_MAX_ELEMENTS default


def _esc(text: str) -> str:
    return text.replace('"', '\\"')


def _node_name(node: Node) -> str:
    """``friendly\\nunique\\nopsetN::Type`` (VisualizeTree shows the type for ``Constant_*``)."""
    friendly = node.get_friendly_name()
    head = "Constant" if "Constant_" in friendly else friendly
    version = node.get_type_info().version_id
    return f"{_esc(head)}\\n{node.get_name()}\\n{version}::{node.get_type_name()}"


def _fmt_value(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return f"{float(v):g}"  # C++ ostream default: 6 significant digits


def _clone_label(node: Node) -> str:
    out = node.output(0)
    dims = ",".join(str(d) for d in out.get_shape())
    text = f"{_node_name(node)}\n{{{out.get_element_type().get_type_name()}}}[{dims}]"
    if isinstance(node, Constant) and getattr(node, "materialized", True) is False:
        text += "\nvalue: [ (not made yet: ovlab lazy weights) ]"  # never make 21 GB for a label
    elif isinstance(node, Constant):
        flat = np.asarray(node.get_data()).ravel()
        shown = ", ".join(_fmt_value(v) for v in flat[:_MAX_VALUES])
        if flat.size == 0:
            shown = "empty"
        elif flat.size > _MAX_VALUES:
            shown += ", ..."
        text += f"\nvalue: [ {shown} ]"
    return text


def _dot(model: Model, extra: Mapping[Node, tuple[str, str]]) -> str:
    """The VisualizeTree text; ``extra[node] = (label suffix, fill colour)`` per box."""
    lines = ["digraph \n{"]
    boxed: set[int] = set()
    clones = 0

    def box(n: Node) -> None:
        if id(n) in boxed:
            return
        boxed.add(id(n))
        suffix, colour = extra.get(n, ("\\ndevice=HETERO", ""))
        outline = "color=crimson penwidth=1.5" if isinstance(n, Result) else "color=black"
        fill = f" fillcolor={colour} style=filled" if colour else ""
        lines.append(f'    {n.get_name()} [shape=box {outline} label="{_node_name(n)}{suffix}"'
                     f"{fill}]")

    seen = {id(p) for p in model.get_parameters()}
    stack: list[Node] = []
    for r in model.get_results():
        if id(r) not in seen:
            seen.add(id(r))
            stack.append(r)
    while stack:
        n = stack.pop()
        for src in n.input_values():
            arg = src.get_node()
            if isinstance(arg, (Constant, Parameter)):
                colour = "blue" if isinstance(arg, Parameter) else "black"
                lines.append(f'    CLONE_{clones}[ shape="box"  style="dashed"  color="{colour}"  '
                             f'label="{_clone_label(arg)}" ]')
                lines.append(f"    CLONE_{clones} -> {n.get_name()}")
                clones += 1
            else:
                box(arg)
                box(n)
                lines.append(f"    {arg.get_name()} -> {n.get_name()}")
        for src in n.input_values():
            arg = src.get_node()
            if id(arg) not in seen:
                seen.add(id(arg))
                stack.append(arg)
    lines.append("}")
    return "\n".join(lines) + "\n"


def device_colours(model: Model, affinity: Mapping[Node, str]) -> dict[str, str]:
    """Palette colour per device, by first appearance in the model's topological order."""
    colours: dict[str, str] = {}
    for n in model.get_ordered_ops():
        dev = affinity.get(n)
        if dev is not None and dev not in colours:
            colours[dev] = PALETTE[len(colours) % len(PALETTE)]
    return colours


def affinity_dot(model: Model, affinity: Mapping[Node, str]) -> str:
    """``hetero_affinity_<model>.dot``: every op coloured by its device."""
    colours = device_colours(model, affinity)
    extra = {n: (f"\\ndevice={_esc(dev)}", colours[dev]) for n, dev in affinity.items()}
    return _dot(model, extra)


def subgraphs_dot(model: Model, affinity: Mapping[Node, str],
                  subgraph_of: Mapping[Node, int]) -> str:
    """``hetero_subgraphs_<model>.dot``: every op coloured by its submodel."""
    extra = {n: (f"\\nsubgraph={i}\\ndevice={_esc(affinity[n])}", PALETTE[i % len(PALETTE)])
             for n, i in subgraph_of.items()}
    return _dot(model, extra)


def write_dot_files(model: Model, affinity: Mapping[Node, str], subgraph_of: Mapping[Node, int],
                    directory: str | os.PathLike | None = None) -> list[Path]:
    """Write both files into ``directory`` (default: the current working directory).

    Like the real ``VisualizeTree`` (an ``ofstream`` it never checks), a file that cannot be
    written does not fail the compile; ovlab says so with a warning instead of staying silent.
    """
    folder = Path(directory) if directory is not None else Path.cwd()
    name = model.get_friendly_name()
    written = []
    for kind, text in (("affinity", affinity_dot(model, affinity)),
                       ("subgraphs", subgraphs_dot(model, affinity, subgraph_of))):
        path = folder / f"hetero_{kind}_{name}.dot"
        try:
            path.write_text(text)
        except OSError as exc:
            warnings.warn(f"{ENV_VAR}: could not write {path}: {exc}", stacklevel=3)
            continue
        written.append(path)
    return written
