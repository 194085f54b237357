"""HETERO: one model split over several devices, each part compiled and run where it fits.

Why it exists: an accelerator may lack some ops (the workstation's NPU has no ``LRN``,
``Sigmoid`` or ``Clamp``), or a learner may want the heavy part of a model on a GPU and the rest
on the CPU. HETERO gives every op a device (its *affinity*), cuts the model where affinities
change, compiles each piece on its device and runs the pieces one after another, moving the
tensors between them. It follows ``src/plugins/hetero`` as summarised in
``reference/openvino-semantics.md`` section 6, and the real 2026.4.1 wheel where that was
measured (``reference/openvino-measured.md`` sections 4-8):

* ``MODEL_DISTRIBUTION_POLICY: PIPELINE_PARALLEL`` splits by the devices' memory instead of op
  support alone (:mod:`.pipeline`); any other value is OpenVINO's error.
* Device list: ``HETERO:GPU,CPU``, ``HETERO`` + ``MULTI_DEVICE_PRIORITIES`` (a trailing comma from
  ``props.device.priorities("GPU", "CPU")`` is fine), or ``core.set_property("HETERO", ...)``.
* Automatic mode (no op has an ``"affinity"`` in its rt_info): greedy ``query_model``, the first
  device takes every op it supports (:mod:`.split`). Manual mode (any op has one): every
  op must have one, the list is not consulted, an affinity may even name a device that is not in
  it. Combined mode is manual mode with affinities copied from ``query_model``.
* Each submodel is compiled in turn (the HETERO compile time is the sum) through the Core, so a
  device's own ``DEVICE_PROPERTIES`` entry and ``core.set_property(device, ...)`` apply to it;
  with more than one submodel the compiles are exclusive (no implicit batching of a subgraph).
* One HETERO inference runs its submodels in order. Between two of them every tensor that
  crosses devices pays a transfer through a host buffer (``cost.transfer_time``): device -> host
  when its producer ends ("output transfer"), host -> device before a consumer on another device
  starts ("input transfer"); a transfer from or to the CPU host itself is free. Different
  requests overlap across devices naturally, because each device queues its own work.
* Results are real: every submodel's outputs are computed lazily, in that device's precision,
  from the outputs of the submodels before it.

Where the brief and the real runtime disagree, the runtime wins: an affinity naming ``AUTO``,
``MULTI:...`` or ``BATCH:...`` compiles that submodel on that virtual device (measured with the
2026.4.1 wheel; only ``HETERO`` itself crashes the real runtime, and ovlab refuses it with an
error instead).
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ....properties import hint
from ... import errors as _errors
from ...errors import PluginError
from ...hardware import cost
from ...hardware.specs import DeviceSpec
from ...runtime import config as cfgmod
from ...runtime import device_name as dn
from ...runtime import model_cache
from ...runtime.backend import Backend, Job, Outputs, ProfilingInfo
from ...runtime.plugin import Plugin
from . import dot as hetero_dot
from .pipeline import memory_map, pipeline_affinities, weights_by_device
from .split import HeteroPlan, greedy_affinities, make_plan

__all__ = ["HeteroPlugin", "HeteroBackend", "format_counters", "difficult_model"]

INTERNAL_PREFIX = "_OVLAB_"
EXCLUSIVE_KEY = INTERNAL_PREFIX + "EXCLUSIVE"
# core-level keys HETERO passes on to its devices (implicit batching of a single submodel)
_CORE_PASS = {"ALLOW_AUTO_BATCHING", "AUTO_BATCH_TIMEOUT"}

PLUGIN_KEYS = {"SUPPORTED_PROPERTIES": "RO", "FULL_DEVICE_NAME": "RO",
               "OPTIMIZATION_CAPABILITIES": "RO", "MULTI_DEVICE_PRIORITIES": "RW",
               "MODEL_DISTRIBUTION_POLICY": "RW"}
COMPILED_KEYS = ["NETWORK_NAME", "OPTIMAL_NUMBER_OF_INFER_REQUESTS", "EXECUTION_DEVICES",
                 "LOADED_FROM_CACHE", "HETERO_NUMBER_OF_SUBMODELS", "SUPPORTED_PROPERTIES",
                 "DEVICE_PROPERTIES", "MULTI_DEVICE_PRIORITIES"]

# OpenVINO's source lines (measured with the 2026.4.1 wheel unless noted)
SRC_CONFIG_GET = "src/plugins/hetero/src/config.cpp:52"
SRC_CONFIG_SET = "src/plugins/hetero/src/config.cpp:40"
SRC_POLICY = "src/plugins/hetero/src/config.cpp:27"
SRC_AFFINITY_TYPE = ("Check 'it->second.is<std::string>()' failed at "
                     "src/plugins/hetero/src/plugin.cpp:50")
SRC_NO_LIST = ("Check 'ov::op::util::is_output(op) || ov::op::util::is_parameter(op) || "
               "ov::op::util::is_sink(op)' failed at src/plugins/hetero/src/plugin.cpp:90")
SRC_MANUAL = "src/plugins/hetero/src/subgraph_collector.cpp:1251"
# the fallback error is thrown nine lines above the manual one in the same function (source read,
# not measured: no machine with two devices was available)
SRC_FALLBACK = "src/plugins/hetero/src/subgraph_collector.cpp:1242"
SRC_COMPILE = "src/plugins/hetero/src/compiled_model.cpp:143"
SRC_SET_COMPILED = "src/plugins/hetero/src/compiled_model.cpp:389"
SRC_QUERY = "src/inference/src/dev/plugin.cpp:70"
SRC_DEVICE_COMPILE = "src/inference/src/dev/plugin.cpp:54"


# --- errors ------------------------------------------------------------------------------------
def _manual_error(node) -> PluginError:
    return PluginError(
        "Model passed to CompiledModel has affinity assigned, but some layers eg: \n"
        f"(Name:{node.get_friendly_name()}, Type: {node.get_type_name()}) were not assigned to "
        "any device.\nIt might happen if you assigned layers manually and missed some layers or\n"
        "if you used some automatic assigning mode which decided that these layers are not\n"
        "supported by any plugin", SRC_MANUAL)


def _fallback_error(node) -> PluginError:
    return PluginError(
        "Hetero device used default fallback policy, but some layers eg: \n"
        f"(Name:{node.get_friendly_name()}, Type: {node.get_type_name()}) were not able to be "
        "assigned on any pointed device.\nIt happened because these layers are not supported in "
        "plugins by default.\nYou need to implement custom layers to support them.", SRC_FALLBACK)


def _standard(err: PluginError) -> PluginError:
    """A device's compile error as HETERO's CompiledModel rethrows it (measured chain)."""
    inner = ([SRC_DEVICE_COMPILE] if err.through_plugin else []) + list(err.sources)
    return PluginError("Standard exception from compilation library: "
                       + _errors.format_chain(inner, err.message), SRC_COMPILE)


def _not_registered(name: str, *, through_plugin: bool = True) -> PluginError:
    return PluginError(f'Device with "{name}" name is not registered in the OpenVINO Runtime',
                       _errors.CORE_IMPL, through_plugin=through_plugin)


_POLICY_SET = "St3setIN2ov4hint23ModelDistributionPolicyESt4lessIS2_ESaIS2_EE"
_PY_OBJECT = "St10shared_ptrIN8pybind116objectEE"


def _not_a_policy_set(value: Any) -> PluginError:
    """A MODEL_DISTRIBUTION_POLICY that is neither a set nor a text: ``ov::Any`` cannot make the
    set of it and names both C++ types (measured on 2026.4.1 for each kind of value)."""
    if value is None:
        return PluginError("Any was not initialized.",
                           "Check '_impl != nullptr' failed at src/core/src/any.cpp:153")
    if isinstance(value, bool):
        code = "b"
    elif isinstance(value, list) and not value:
        code = "N6Common5utils9EmptyListE"
    elif isinstance(value, (int, float, list, tuple)) and not isinstance(value, hint.OVEnum):
        code = cfgmod.mangled(value)
    else:
        code = _PY_OBJECT  # a dict, an enum alone: the binding keeps the Python object
    return PluginError(f"Bad as from: {code} to: {_POLICY_SET}",
                       "src/core/include/openvino/core/any.hpp:783")


def _policy(value: Any) -> set:
    """MODEL_DISTRIBUTION_POLICY: HETERO accepts only PIPELINE_PARALLEL (or nothing). A text is
    read as ``ov::Any`` reads a set of policies, name by name (space-separated, '' for none),
    and a name that is no policy fails there (measured on 2026.4.1)."""
    if isinstance(value, str):
        items = value.split()
        for item in items:
            if item not in ("PIPELINE_PARALLEL", "TENSOR_PARALLEL"):
                raise PluginError(f"Unsupported model distribution policy: {item}",
                                  "src/inference/include/openvino/runtime/properties.hpp:464")
    elif isinstance(value, (set, frozenset)):
        items = value
    else:
        raise _not_a_policy_set(value)
    out = set()
    for item in items:
        name = getattr(item, "name", str(item))
        if name != "PIPELINE_PARALLEL":
            raise PluginError(f"Wrong value {name} for property key MODEL_DISTRIBUTION_POLICY. "
                              "HETERO plugin only support "
                              "{ov::hint::ModelDistributionPolicy::PIPELINE_PARALLEL}", SRC_POLICY)
        out.add(hint.ModelDistributionPolicy.PIPELINE_PARALLEL)
    return out


class HeteroPlugin(Plugin):
    """The HETERO plugin: device lists, affinities, query_model and compile."""

    virtual = True
    description = "openvino_hetero_plugin"

    # --- properties ------------------------------------------------------------------------------
    def get_property(self, key: str, options: dict | None = None) -> Any:
        if key == "SUPPORTED_PROPERTIES":
            return dict(PLUGIN_KEYS)
        if key == "FULL_DEVICE_NAME":
            return "HETERO"
        if key == "OPTIMIZATION_CAPABILITIES":
            return ["EXPORT_IMPORT"]
        if key == "MULTI_DEVICE_PRIORITIES":
            return str(self.config.get(key, ""))
        if key == "MODEL_DISTRIBUTION_POLICY":
            return set(self.config.get(key, set()))
        raise PluginError(f"Property was not found: {key}", SRC_CONFIG_GET)

    def set_property(self, props: dict[str, Any]) -> None:
        parsed: dict[str, Any] = {}
        for key, value in props.items():
            if key == "MULTI_DEVICE_PRIORITIES":  # as<std::string>: 0.0 reads "0"
                parsed[key] = cfgmod.any_text(value)
            elif key == "MODEL_DISTRIBUTION_POLICY":
                parsed[key] = _policy(value)
            else:
                raise PluginError(f"Property was not found: {key}", SRC_CONFIG_SET)
        self.config.update(parsed)

    # --- device list and configs ------------------------------------------------------------------
    def _split_config(self, priorities: str | None, config: dict[str, Any]
                      ) -> tuple[str, dict[str, Any], dict[str, dict[str, Any]], bool]:
        """(priority text as given, config for the devices, DEVICE_PROPERTIES entries, whether
        PIPELINE_PARALLEL applies: from the call, else from ``core.set_property("HETERO")``)."""
        config = dict(config)
        device_props = config.pop("DEVICE_PROPERTIES", None) or {}
        policy = set(self.config.get("MODEL_DISTRIBUTION_POLICY", set()))
        if "MODEL_DISTRIBUTION_POLICY" in config:
            policy = _policy(config.pop("MODEL_DISTRIBUTION_POLICY"))
        from_config = config.pop("MULTI_DEVICE_PRIORITIES", None)
        if priorities is None:
            priorities = from_config if from_config is not None else \
                self.config.get("MULTI_DEVICE_PRIORITIES", "")
        pipeline = hint.ModelDistributionPolicy.PIPELINE_PARALLEL in policy
        return str(priorities), config, device_props, pipeline

    def _plugin_for(self, device: str):
        """(parsed name, plugin or None) as the Core resolves a name: ``CPU:x`` and ``CPU.x``
        give the CPU the device id ``x``, and one leading ``-`` is stripped (``-CPU`` is the
        CPU)."""
        parsed = dn.parse(device)
        name = "CPU" if parsed.plugin == "(CPU)" else parsed.plugin
        name = name[1:] if name.startswith("-") else name
        plugin = self.core._plugins.get(name)
        if plugin is not None and not plugin.virtual and parsed.priorities is not None:
            parsed = dn.ParsedName(parsed.plugin, device_id=parsed.priorities)
        return dn.ParsedName(name, parsed.priorities, parsed.device_id), plugin

    @staticmethod
    def _tokens(text: str) -> list[str]:
        """``DeviceIDParser::get_hetero_devices``: split on ``,``, nothing stripped, empty
        entries kept except a trailing one (each reaches the Core, where "" is no device)."""
        if not text:
            return []
        parts = text.split(",")
        return parts[:-1] if parts[-1] == "" else parts

    def _list_devices(self, tokens: Sequence[str]) -> list[tuple[str, DeviceSpec]]:
        """Resolve the priority list; an unknown name fails as in ``core_impl.cpp``."""
        out = []
        for tok in tokens:
            parsed, plugin = self._plugin_for(tok)
            if plugin is None:
                raise _not_registered(parsed.plugin)
            if plugin.virtual and plugin.name in ("AUTO", "MULTI") and not parsed.priorities:
                # the Core asks AUTO/MULTI to query the model: without a list, it finds none
                raise PluginError(f"{plugin.name}: cannot parse valid device from ",
                                  "src/plugins/auto/src/plugin.cpp:571")
            if plugin.virtual:
                raise PluginError(f"ovlab's HETERO splits a model over hardware devices (CPU, GPU, "
                                  f"NPU); '{tok}' in its device list is a virtual device. Give ops "
                                  f"that device as their affinity instead (manual mode).")
            if plugin.name == "GPU" and not plugin.device_ids():
                # measured (OpenCL loader present, no GPU): HETERO's query hits the GPU plugin's
                # context check rather than the "no supported devices" message
                raise PluginError(f"[GPU] Context was not initialized for "
                                  f"{parsed.device_id or 0} device", SRC_QUERY,
                                  "Check 'contexts.count(device_id)' failed at "
                                  "src/plugins/intel_gpu/src/plugin/plugin.cpp:312")
            dev_name, spec = plugin.resolve(parsed.device_id)
            # the Core strips one leading "-" before the plugin answers, and the answer (the
            # ops' affinities, EXECUTION_DEVICES) names the device as the plugin does
            # (measured: "HETERO:-CPU" and "HETERO:CPU." run on "CPU")
            name = dev_name if plugin.name == "CPU" else tok
            out.append((name[1:] if name.startswith("-") else name, spec))
        return out

    def device_config(self, device: str, config: dict[str, Any],
                      device_props: dict[str, dict[str, Any]], exclusive: bool) -> dict[str, Any]:
        """What ``device`` receives: the keys it supports from HETERO's config, then its own
        ``DEVICE_PROPERTIES`` entries (plugin-wide ``GPU`` first, then the exact ``GPU.1``).

        Unknown keys are dropped, not errors (``core.get_supported_property`` in the real
        plugin), so ``{"MODEL_PRIORITY": ...}`` reaches a GPU but not the CPU, which rejects it.
        """
        parsed, plugin = self._plugin_for(device)
        try:
            supported = plugin.get_property("SUPPORTED_PROPERTIES") if plugin is not None else {}
        except (PluginError, NotImplementedError):
            supported = {}
        keep = {k for k, v in dict(supported).items() if v == "RW"} | _CORE_PASS

        def wanted(k: str) -> bool:
            return k in keep or k.startswith(INTERNAL_PREFIX)

        cfg = {k: v for k, v in config.items() if wanted(k)}
        for key in dict.fromkeys([parsed.plugin, device]):
            cfg.update({k: v for k, v in device_props.get(key, {}).items() if wanted(k)})
        if exclusive:
            cfg[EXCLUSIVE_KEY] = True
        return cfg

    def _check_device_configs(self, tokens: Sequence[str], config: dict[str, Any],
                              device_props: dict[str, dict[str, Any]]) -> None:
        """Automatic mode asks every listed device first (``query_model``), which parses its
        config: a bad value fails there, one ``plugin.cpp:70`` line deeper (measured)."""
        for tok in tokens:
            _parsed, plugin = self._plugin_for(tok)
            try:
                plugin.validate(self.device_config(tok, config, device_props, False),
                                for_compile=True)
            except PluginError as err:
                if not err.through_plugin:
                    raise
                raise PluginError(err.message, SRC_QUERY, *err.sources) from None

    def _greedy(self, model, tokens, config, device_props, pipeline: bool = False):
        # HETERO asks the devices in turn and stops once every op has one: a bad name after
        # that point is never looked at ("HETERO:CPU,,FOO" compiles on the CPU)
        devices: list[tuple[str, DeviceSpec]] = []
        ops = model.get_ordered_ops()
        used = []
        for tok in tokens:
            if devices and not pipeline:
                aff = greedy_affinities(model, [(name, spec.supports) for name, spec in devices])
                if all(n in aff for n in ops):
                    break
            devices += self._list_devices([tok])
            used.append(tok)
        tokens = used
        self._check_device_configs(tokens, config, device_props)
        if pipeline:
            aff = pipeline_affinities(self.core, model, devices)
            if aff is not None:
                return aff
        return greedy_affinities(model, [(name, spec.supports) for name, spec in devices])

    # --- query_model ---------------------------------------------------------------------------
    def query_model(self, model, priorities: str | None, device_id: str | None,
                    config: dict[str, Any]) -> dict[str, str]:
        """``{op friendly name: device}``, greedy over the list; affinities play no part (H06)."""
        text, config, device_props, pipeline = self._split_config(priorities, config)
        tokens = self._tokens(text)
        if not tokens:
            return {}  # measured: bare "HETERO" answers an empty dict
        aff = self._greedy(model, tokens, config, device_props, pipeline)
        return dict(sorted((n.get_friendly_name(), d) for n, d in aff.items()))

    # --- compile -------------------------------------------------------------------------------
    def _cache_key(self, model, text: str, config: dict[str, Any], plan: HeteroPlan
                   ) -> tuple[str, str | None]:
        """HETERO caches the whole model as one blob (its capabilities list EXPORT_IMPORT; the
        2026.4.1 wheel writes one ``HETERO:CPU`` blob and loads it the next time); the key's
        compile options stand in for its ``CACHING_DEVICE_PROPERTIES``: the device list and
        each device's architecture."""
        cache_dir = str(config["CACHE_DIR"]) if "CACHE_DIR" in config else str(
            self.core._core_props.get("CACHE_DIR", ""))
        if not cache_dir:
            return cache_dir, None
        devices = []
        for sg in plan.subgraphs:
            parsed, plugin = self._plugin_for(sg.device)
            spec = None
            if plugin is not None and not plugin.virtual:
                try:
                    spec = plugin.resolve(parsed.device_id)[1]
                except PluginError:
                    spec = None
            devices.append(f"{sg.device}:{spec.architecture if spec else sg.device}:"
                           f"{spec.full_name if spec else ''}")
        return cache_dir, model_cache.compute_hash(model, {
            "MULTI_DEVICE_PRIORITIES": text, "CACHING_DEVICE_PROPERTIES": " ".join(devices)})

    def _affinities(self, model, priorities: str | None, config: dict[str, Any]):
        """(``{node: device}`` for every node, mode, priority text, device config, entries)."""
        text, config, device_props, pipeline = self._split_config(priorities, config)
        ops = model.get_ordered_ops()
        user = [n for n in ops if "affinity" in n.get_rt_info()]
        if user:
            for n in user:
                if not isinstance(n.get_rt_info()["affinity"], str):
                    raise PluginError('Unexpected type of "affinity" attribute', SRC_AFFINITY_TYPE)
            for n in ops:
                if "affinity" not in n.get_rt_info():
                    raise _manual_error(n)
            aff = {n: str(n.get_rt_info()["affinity"]) for n in ops}
            return aff, "manual", text, config, device_props
        tokens = self._tokens(text)
        if not tokens:
            raise PluginError("Unexpected node type found in model after query_model_update()",
                              SRC_NO_LIST)
        aff = self._greedy(model, tokens, config, device_props, pipeline)
        missing = [n for n in ops if n not in aff]
        if missing:
            # name the op nobody supports rather than an input that only lost its consumers
            compute = [n for n in missing if n.get_type_name() not in
                       ("Parameter", "Constant", "Result")]
            raise _fallback_error((compute or missing)[0])
        mode = "pipeline" if pipeline and memory_map(self.core, tokens) is not None else "auto"
        return aff, mode, text, config, device_props

    def _check_submodel_device(self, device: str, cfg: dict[str, Any]) -> None:
        """Fail before any compile starts if a submodel's device cannot exist."""
        if device.startswith("HETERO"):
            raise PluginError(
                f"An op has the affinity '{device}': HETERO cannot run a part of a model on "
                "HETERO itself. Give every op a real device (CPU, GPU, NPU) or AUTO/MULTI/BATCH "
                "(ovlab refuses this; the real runtime crashes with a segmentation fault).",
                SRC_COMPILE)
        if not device:
            raise PluginError("Standard exception from compilation library: unordered_map::at\n"
                              "(ovlab: an empty affinity names no device)", SRC_COMPILE)
        parsed, plugin = self._plugin_for(device)
        try:
            if plugin is None:
                raise _not_registered(device, through_plugin=False)
            if not plugin.virtual:
                plugin.resolve(parsed.device_id)
                plugin.validate(cfg, for_compile=True)
        except PluginError as err:
            raise _standard(err) from None

    def start_compile(self, model, priorities: str | None, device_id: str | None,
                      config: dict[str, Any], *, from_path: bool = False):
        core = self.core
        aff, mode, text, config, device_props = self._affinities(model, priorities, config)
        plan = make_plan(model, aff)
        many = len(plan.subgraphs) > 1
        configs = [self.device_config(sg.device, config, device_props, many)
                   for sg in plan.subgraphs]
        for sg, cfg in zip(plan.subgraphs, configs, strict=True):
            self._check_submodel_device(sg.device, cfg)
        if hetero_dot.ENV_VAR in os.environ:  # mere presence counts, even "" or "0" (measured)
            hetero_dot.write_dot_files(model, plan.affinity, plan.subgraph_of())
        name = model.get_friendly_name()
        core.trace.event(core.clock.now, "hetero_split", "HETERO", name, mode=mode,
                         submodels=len(plan.subgraphs),
                         devices=[sg.device for sg in plan.subgraphs],
                         weights=weights_by_device(aff))
        done = core.clock.event()
        cache_dir, key = self._cache_key(model, text, config, plan)
        cached = key is not None and model_cache.read_blob(cache_dir, key) is not None

        def compile_in_turn():
            backends = []
            for sg, cfg in zip(plan.subgraphs, configs, strict=True):
                try:
                    # submodels compile without a cache: HETERO caches the model as a whole
                    ev = core._start_compile(sg.model, sg.device, {
                        **cfg, "CACHE_DIR": "", INTERNAL_PREFIX + "FROM_CACHE": cached})
                except PluginError as err:
                    done.succeed(_standard(err))
                    return
                result = yield ev
                if isinstance(result, BaseException):
                    done.succeed(_standard(result) if isinstance(result, PluginError) else result)
                    return
                backends.append(result)
            if key is not None and not cached:
                model_cache.write_blob(cache_dir, key, {
                    "device": "HETERO", "network_name": name,
                    "submodels": [sg.device for sg in plan.subgraphs],
                    "written_by": "ovlab (a simulated device: no binary inside)"})
            done.succeed(HeteroBackend(self, model, plan, backends, text))

        core.clock.process(compile_in_turn())
        return done


# --- the compiled model --------------------------------------------------------------------------
class HeteroOutputs(Outputs):
    """The model's results, picked from the submodels' (lazy) outputs when first read."""

    __slots__ = ("_parts", "_map")

    def __init__(self, parts: list[Outputs], result_map: list[tuple[int, int]]) -> None:
        super().__init__()
        self._parts, self._map = parts, result_map

    def _compute(self) -> list[np.ndarray]:
        return [self._parts[s].get()[k] for s, k in self._map]


def _spec_of(core, backend: Backend, device: str, host: DeviceSpec | None) -> DeviceSpec | None:
    """The hardware a submodel runs on (a virtual device: the one it executes on now)."""
    spec = getattr(backend, "spec", None)
    if isinstance(spec, DeviceSpec):
        return spec
    try:
        names = list(backend.execution_devices())
    except Exception:  # noqa: BLE001 - a virtual backend that cannot tell: use the host
        names = []
    for name in [*names, device]:
        parsed = dn.parse(name.strip("()"))
        plugin = core._plugins.get(parsed.plugin)
        if plugin is not None and not plugin.virtual:
            try:
                return plugin.resolve(parsed.device_id)[1]
            except PluginError:
                continue
    return host


class HeteroBackend(Backend):
    """A model compiled on HETERO: its submodels' compiled models and the wiring between them."""

    plugin_name = "HETERO"

    def __init__(self, plugin: HeteroPlugin, model, plan: HeteroPlan, backends: list[Backend],
                 priorities: str) -> None:
        super().__init__(plugin.core, model, model.get_friendly_name())
        self.plan = plan
        self.backends = backends
        self.priorities = priorities
        host = self.core.platform.devices.get("CPU")
        self.specs = [_spec_of(self.core, b, sg.device, host)
                      for b, sg in zip(backends, plan.subgraphs, strict=True)]
        n = len(backends)
        self.input_transfer = [0.0] * n
        self.output_transfer = [0.0] * n
        for it in plan.intermediates:
            src = self.specs[it.producer]
            crossing = [c for c, _param in it.consumers if self.specs[c] is not src]
            if not crossing or src is None:
                continue
            if host is not None:  # through a host buffer: device -> host once, host -> each reader
                self.output_transfer[it.producer] += cost.transfer_time(src, host, it.nbytes)
                for c in crossing:
                    self.input_transfer[c] += cost.transfer_time(host, self.specs[c], it.nbytes)
            else:  # a platform without a CPU: straight from device to device
                for c in crossing:
                    self.input_transfer[c] += cost.transfer_time(src, self.specs[c], it.nbytes)

    @property
    def subgraph_devices(self) -> list[str]:
        return [sg.device for sg in self.plan.subgraphs]

    # --- requests ------------------------------------------------------------------------------
    def new_context(self) -> list[Any]:
        """One worker request per submodel, as a real HETERO request owns one per submodel."""
        return [b.new_context() for b in self.backends]

    def submit(self, job: Job) -> None:
        _Run(self, job).start(0)

    # --- properties ------------------------------------------------------------------------------
    def _device_properties(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for sg, b in zip(self.plan.subgraphs, self.backends, strict=True):
            if sg.device in out:
                continue
            try:
                keys = list(b.get_property("SUPPORTED_PROPERTIES"))
            except (PluginError, NotImplementedError):
                keys = []
            values = {}
            for k in keys:
                try:
                    values[k] = b.get_property(k)
                except (PluginError, NotImplementedError):
                    continue
            out[sg.device] = values
        return out

    def get_property(self, key: str) -> Any:
        if key == "NETWORK_NAME":
            return self.name
        if key == "OPTIMAL_NUMBER_OF_INFER_REQUESTS":
            return max(b.optimal_requests() for b in self.backends)
        if key == "EXECUTION_DEVICES":
            return self.plan.devices
        if key == "LOADED_FROM_CACHE":
            return all(bool(getattr(b, "loaded_from_cache", False)) for b in self.backends)
        if key == "HETERO_NUMBER_OF_SUBMODELS":
            return len(self.backends)
        if key == "SUPPORTED_PROPERTIES":
            return {k: "RO" for k in COMPILED_KEYS}
        if key == "DEVICE_PROPERTIES":
            return self._device_properties()
        if key == "MULTI_DEVICE_PRIORITIES":
            return self.priorities
        if key == "MODEL_DISTRIBUTION_POLICY":
            return set()
        raise PluginError(f"Property was not found: {key}", SRC_CONFIG_GET)

    def set_property(self, props: dict[str, Any]) -> None:
        raise PluginError("Not Implemented:\nIt's not possible to set property of an already "
                          "compiled model. Set property to Core::compile_model during compilation",
                          SRC_SET_COMPILED)

    def execution_devices(self) -> list[str]:
        return self.plan.devices

    def runtime_model(self):
        return self.model

    def release(self) -> None:
        for b in self.backends:
            b.release()


class _Run:
    """One HETERO inference in flight: submodel after submodel, transfers in between."""

    __slots__ = ("backend", "job", "ctx", "parts", "profiles", "_user")

    def __init__(self, backend: HeteroBackend, job: Job) -> None:
        self.backend = backend
        self.job = job
        n = len(backend.backends)
        ctx = job.ctx
        self.ctx = ctx if isinstance(ctx, list) and len(ctx) == n else backend.new_context()
        self.parts: list[Outputs | None] = [None] * n
        self.profiles: list[list[ProfilingInfo]] = [[] for _ in range(n)]
        self._user: dict | None = None

    def _user_inputs(self) -> dict:
        if self._user is None:
            inputs = self.job.inputs
            self._user = inputs() if callable(inputs) else inputs
        return self._user

    def _inputs_of(self, i: int):
        """A function computing submodel ``i``'s inputs, called only if someone reads results."""
        sources = self.backend.plan.subgraphs[i].sources

        def inputs() -> dict[int, np.ndarray]:
            out = {}
            for j, (k, m) in enumerate(sources):
                out[j] = self._user_inputs()[m] if k < 0 else self.parts[k].get()[m]
            return out

        return inputs

    def start(self, i: int) -> None:
        child = self.job.child(lambda o, e, p, d: self._finished(i, o, e, p, d), self.ctx[i],
                               inputs=self._inputs_of(i))
        child.tags["subgraph"] = i
        self.backend.backends[i].submit(child)

    def _finished(self, i: int, outputs: Outputs | None, error: BaseException | None,
                  profile: list, device: str) -> None:
        b = self.backend
        if error is not None:
            self.job.done(error=error, device=device)
            return
        self.parts[i] = outputs
        self.profiles[i] = profile
        if i + 1 < len(b.backends):
            delay = b.output_transfer[i] + b.input_transfer[i + 1]
            if delay > 0:
                b.core.clock.call_at_delay(delay, self.start, i + 1)
            else:
                self.start(i + 1)
            return
        self.job.done(HeteroOutputs(self.parts, b.plan.outputs), profile=self._rows(),
                      device=device)

    def _rows(self) -> list[ProfilingInfo]:
        """Each submodel's rows prefixed ``subgraph<i>: ``, between its transfer rows."""
        b = self.backend
        rows: list[ProfilingInfo] = []
        if len(self.profiles) == 1:  # nothing crosses devices: the real plugin shows no transfers
            return [r.renamed("subgraph0: ") for r in self.profiles[0]]
        for i, profile in enumerate(self.profiles):
            prefix = f"subgraph{i}: "
            perf = bool(getattr(b.backends[i], "perf_count", False)) or any(
                r.status == ProfilingInfo.Status.EXECUTED for r in profile)
            rows.append(_transfer_row(prefix + "input transfer", b.input_transfer[i], perf))
            rows.extend(r.renamed(prefix) for r in profile)
            rows.append(_transfer_row(prefix + "output transfer", b.output_transfer[i], perf))
        return rows


def _transfer_row(name: str, seconds: float, perf: bool) -> ProfilingInfo:
    if perf and seconds > 0:
        return ProfilingInfo._row(name, "", "", seconds, 0.0, ProfilingInfo.Status.EXECUTED)
    return ProfilingInfo._row(name, "", "", 0.0, 0.0, ProfilingInfo.Status.NOT_RUN)


# --- helpers for learners --------------------------------------------------------------------------
def _us(t: datetime.timedelta) -> int:
    return int(t // datetime.timedelta(microseconds=1))


def format_counters(rows: Sequence[ProfilingInfo]) -> str:
    """Profiling rows as the seed prints them (``-pc`` of the samples), with a total.

    ``subgraph1: prob:  EXECUTED  layerType: SoftMax  realTime: 10  cpu: 10  execType: ref``:
    name, status, layer type, real time and CPU time in microseconds, exec type; the last line is
    ``Total time: <sum of real times> microseconds``.
    """
    names = [f"{r.node_name}:" for r in rows]
    name_w = max((len(n) for n in names), default=0) + 1
    type_w = max((len(r.node_type) for r in rows), default=0) + 1
    lines = []
    total = 0
    for r, name in zip(rows, names, strict=True):
        real, cpu = _us(r.real_time), _us(r.cpu_time)
        lines.append(f"{name:<{name_w}}{r.status.name:<10}layerType: {r.node_type:<{type_w}}"
                     f"realTime: {real:<7} cpu: {cpu:<7} execType: {r.exec_type}".rstrip())
        total += max(real, 0)
    lines.append(f"Total time: {total} microseconds")
    return "\n".join(lines)


def difficult_model(blocks: int = 8, channels: int = 64, size: int = 56, seed: int = 0):
    """The seed's "difficult topology": accelerator-friendly heavy part, hostile tail.

    A heavy trunk of 3x3 convolutions with Relu (every accelerator runs those), then ``blocks``
    light 1x1 convolutions each followed by ``Clamp`` or ``Sigmoid``, which the workstation's NPU
    lacks. ``HETERO:NPU,CPU`` therefore alternates NPU and CPU submodels through the tail, paying
    two transfers and a submodel start per block, and runs slower than the CPU alone; putting the
    trunk on the NPU and the whole tail on the CPU by hand needs one transfer and is faster than
    either (claim H09).
    """
    from .... import opset as ops
    from ...graph import Model

    rng = np.random.default_rng(seed)

    def weights(c_out: int, c_in: int, k: int) -> np.ndarray:
        scale = np.sqrt(2.0 / (c_in * k * k))
        return (rng.standard_normal((c_out, c_in, k, k)) * scale).astype(np.float32)

    x = ops.parameter([1, 3, size, size], np.float32, name="image")
    y = ops.convolution(x, ops.constant(weights(channels, 3, 3), name="stem/w"), [1, 1], [1, 1],
                        [1, 1], [1, 1], name="stem")
    y = ops.relu(y, name="stem/relu")
    for i in range(4):
        y = ops.convolution(y, ops.constant(weights(channels, channels, 3), name=f"trunk{i}/w"),
                            [1, 1], [1, 1], [1, 1], [1, 1], name=f"trunk{i}")
        y = ops.relu(y, name=f"trunk{i}/relu")
    for i in range(blocks):
        y = ops.convolution(y, ops.constant(weights(channels, channels, 1), name=f"tail{i}/w"),
                            [1, 1], [0, 0], [0, 0], [1, 1], name=f"tail{i}")
        y = (ops.clamp(y, -2.0, 2.0, name=f"tail{i}/clamp") if i % 2 == 0
             else ops.sigmoid(y, name=f"tail{i}/sigmoid"))
    y = ops.reduce_mean(y, ops.constant(np.array([2, 3], dtype=np.int64), name="gap/axes"),
                        keep_dims=False, name="gap")
    out = ops.result(y, name="features")
    return Model([out], [x], "difficult-topology")
