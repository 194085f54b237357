"""``ovlab.Core``: OpenVINO's Core on a virtual platform with a simulated clock.

Device names are parsed as ``core_impl.cpp`` does, configs are flattened the same way
(``DEVICE_PROPERTIES`` entries for a hardware device are merged into its config), implicit
automatic batching is applied for hardware devices (the BATCH plugin decides), and every error
reaches the caller as the ``RuntimeError`` OpenVINO prints.

Core-level ``set_property({...})`` follows ``CoreImpl::set_property_for_device`` (read in the
source, measured with openvino 2026.4.1): the Core's own keys (``CACHE_DIR``, ``ENABLE_MMAP``,
``FORCE_TBB_TERMINATE``) stay with the Core; every other key goes to *every* plugin. OpenVINO
creates plugins lazily, and a plugin not created yet takes the keys when it is (the call itself
never fails); a plugin that rejects a key then fails to load for good ("Failed to create plugin
... for device BATCH"), while plugins already loaded are set at once, in name order, and the first
that rejects raises (those before it keep the new value). So on a fresh Core
``set_property({"PERFORMANCE_HINT": "THROUGHPUT"})`` makes later CPU, GPU and AUTO compiles use
THROUGHPUT, and breaks HETERO and BATCH (which reject the hint); implicit batching then stays off,
as the Core skips it when BATCH cannot load. ovlab builds its plugins at once but keeps which ones
a call has *loaded* in OpenVINO's sense (``_loaded``) and which ones a core-level key broke
(``_broken``).
"""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..._version import BUILD_NUMBER, OPENVINO_VERSION
from .. import errors as _errors
from ..errors import PluginError
from ..hardware.cost import Jitter
from ..hardware.platforms import Platform, preset
from ..overloads import MISSING, given, one_of
from ..trace import Trace
from . import config as cfgmod
from . import device_name as dn
from . import model_cache
from .clock import Clock
from .faults import Faults
from .sharing import DeviceShare, MemoryPool


class Version:
    """Like ``openvino.Version``: ``build_number``, ``description``, major/minor/patch."""

    def __init__(self, description: str) -> None:
        self.description = description
        self.build_number = BUILD_NUMBER
        self.major, self.minor, self.patch = (int(x) for x in OPENVINO_VERSION.split("."))

    def __repr__(self) -> str:
        return f"<Version: {self.build_number} {self.description}>"


def _flatten_device_properties(config: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Collect ``DEVICE_PROPERTIES`` and ``DEVICE_PROPERTIES_<dev>`` entries into one map."""
    per_device: dict[str, dict[str, Any]] = {}
    for key in list(config):
        if key == "DEVICE_PROPERTIES":
            value = config.pop(key)
            if not isinstance(value, dict):
                raise TypeError("DEVICE_PROPERTIES takes a dict {device: {key: value}}")
            for dev, props in value.items():
                per_device.setdefault(str(dev), {}).update(cfgmod.normalize(props))
        elif key.startswith("DEVICE_PROPERTIES_"):
            per_device.setdefault(key[len("DEVICE_PROPERTIES_"):], {}).update(
                cfgmod.normalize(config.pop(key)))
    return per_device


# Keys the Core keeps for itself at core level (CoreConfig); every other key goes to the plugins.
_CORE_KEYS = ("CACHE_DIR", "ENABLE_MMAP", "FORCE_TBB_TERMINATE")
# register_plugin's default config, the wheel's ``{}`` (read-only: a default is shared)
_NO_CONFIG: Any = MappingProxyType({})
_ANY_CODE = {"int": "l", "float": "d"}  # the C++ type codes in ov::Any's "Bad as" message
# Where each plugin's library would be: the "Failed to create plugin" message names it.
_PLUGIN_LIBRARY = {"CPU": "intel_cpu", "GPU": "intel_gpu", "NPU": "intel_npu", "AUTO": "auto",
                   "MULTI": "auto", "HETERO": "hetero", "BATCH": "auto_batch"}


def _core_bool(value: Any) -> bool:
    """ENABLE_MMAP / FORCE_TBB_TERMINATE as ov::Any reads a bool (measured: 'NO' -> False,
    'maybe' and 0 are errors)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return cfgmod.core_bool(value)  # "" is bool{}, false
    raise PluginError(f"Bad as from: {_ANY_CODE.get(type(value).__name__, '?')} to: b",
                      "src/core/include/openvino/core/any.hpp:783", through_plugin=False)


def _load_error(name: str, err: PluginError) -> PluginError:
    """The error every later use of a plugin gets once a core-level key made it unloadable."""
    inner = _errors.format_chain(["src/inference/src/dev/plugin.cpp:49", *err.sources],
                                 err.message)
    library = f"libopenvino_{_PLUGIN_LIBRARY.get(name, name.lower())}_plugin.so"
    return PluginError(f'Failed to create plugin "{library}" for device {name}\n'
                       f"Please, check your environment\n{inner}\n",
                       "src/inference/src/dev/core_impl.cpp:847", through_plugin=False)


# The plugin list the Core reads, as OpenVINO's Core reads plugins.xml: device name -> a factory
# ``factory(core, name)``. ``ovlab/__init__.py`` registers ovlab's plugins here when ovlab is
# imported; the runtime itself never imports them.
_PLUGIN_FACTORIES: dict[str, Any] = {}


def register_plugins(factories: dict[str, Any]) -> None:
    """Add plugin factories (``{"CPU": factory, ...}``) that every new Core creates."""
    _PLUGIN_FACTORIES.update(factories)


class Core:
    """The entry point, as in OpenVINO, plus the simulation: ``clock``, ``trace``, ``platform``.

    ``Core(platform="laptop", seed=0, realtime=None)``: ``platform`` is a preset name
    (``laptop``, ``workstation``, ``cpu``, ``multi-gpu``) or a :class:`Platform`; the same seed
    gives the same timeline; ``realtime=f`` paces simulated time to ``f`` x wall time.
    """

    def __init__(self, platform: str | Platform = "laptop", seed: int = 0,
                 realtime: float | None = None) -> None:
        self.platform = preset(platform) if isinstance(platform, str) else platform
        self.seed = seed
        self.clock = Clock(realtime)
        self.trace = Trace()
        self.faults = Faults(self)
        self.jitter = Jitter(seed)
        self._seq = 0
        self._host_load = 0.0  # extra load on the CPU while other devices compile (A16)
        #: CACHE_DIR set for a virtual device (AUTO, HETERO...): the Core keeps it, not the plugin
        self._device_cache_dirs: dict[str, str] = {}
        self._core_props: dict[str, Any] = {"CACHE_DIR": "", "ENABLE_MMAP": True,
                                            "FORCE_TBB_TERMINATE": False}
        self._loaded: set[str] = set()  # plugins a call has loaded (OpenVINO loads lazily)
        self._broken: dict[str, PluginError] = {}  # plugins a core-level key made unloadable
        self._pending: dict[str, dict[str, Any]] = {}  # device-level keys of uncreated plugins
        self._shares: dict[str, DeviceShare] = {}  # device -> its running inferences
        self._power = None  # the platform's shared power budget in use (hardware/power.py)
        self._memory_pools: dict[str, MemoryPool] = {}  # memory domain -> its shared DRAM
        if not _PLUGIN_FACTORIES:
            raise RuntimeError("ovlab: no plugins are registered (import ovlab, which registers "
                               "them, before making a Core)")
        self._plugins = {name: factory(self, name) for name, factory in _PLUGIN_FACTORIES.items()}
        self._foreign_plugins: dict[str, str] = {}  # register_plugin(s): device -> library file

    def __repr__(self) -> str:
        return f"<ovlab.Core on {self.platform.name}: {', '.join(self.available_devices)}>"

    def _device_share(self, device: str) -> DeviceShare:
        share = self._shares.get(device)
        if share is None:
            share = self._shares[device] = DeviceShare(self.clock)
            spec = self.platform.devices.get(device)
            if spec is not None and spec.share_bandwidth:  # one DRAM per memory domain
                pool = self._memory_pools.setdefault(spec.memory_domain or device, MemoryPool())
                pool.shares.append(share)
                share.pool = pool
            budget = getattr(self.platform, "power_budget", None)
            if budget is not None and device in budget.draws:  # devices sharing package power
                if self._power is None:
                    from ..hardware.power import PowerState

                    self._power = PowerState(budget)
                self._power.attach(device, share)
        return share

    def utilization(self, device: str, window: float = 1.0) -> float:
        """How busy ``device`` (``"GPU"``, ``"GPU.1"``, ``"NPU"``...) was over the last ``window``
        seconds of simulated time, in percent: what resource-aware AUTO reads (ovlab's stand-in
        for the Intel Platform Framework telemetry of the real plugin)."""
        parsed = dn.parse(device)
        plugin = self._plugins.get(parsed.plugin)
        if plugin is None or plugin.virtual:
            raise ValueError(f"utilization() takes a hardware device of this platform "
                             f"({', '.join(self.available_devices)}), got {device!r}")
        try:
            name = plugin.resolve(parsed.device_id)[0]
        except PluginError as err:
            raise ValueError(err.message) from None
        return 100.0 * self._device_share(name).utilization(window)

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq += 1
        return seq

    # --- loading plugins (lazily, as OpenVINO) --------------------------------------------------
    def _load(self, name: str):
        """The plugin ``name`` as a call that needs it loads it: PluginError if it cannot load."""
        error = self._broken.get(name)
        if error is not None:
            raise error
        self._loaded.add(name)
        return self._plugins[name]

    def _try_load(self, name: str):
        """The plugin, or None where OpenVINO swallows a failure to load it."""
        try:
            return self._load(name)
        except PluginError:
            return None

    # --- devices --------------------------------------------------------------------------
    @property
    def available_devices(self) -> list[str]:
        """Devices of the hardware plugins, plugins in alphabetical order (as OpenVINO, which
        loads every plugin to ask and skips those that fail to load)."""
        names: list[str] = []
        for name in sorted(self._plugins):
            plugin = self._try_load(name)
            if plugin is not None and not plugin.virtual:
                names.extend(plugin.device_names())
        return names

    def get_available_devices(self) -> list[str]:
        return self.available_devices

    def _lookup(self, name: str, api: str) -> tuple[str, Any]:
        """The registered plugin a device name names, without creating it."""
        # get_plugin strips one leading "-" (stripDeviceName): "-CPU" is the CPU
        key = "CPU" if name == "(CPU)" else name[1:] if name.startswith("-") else name
        try:
            dn.check_syntax(key)  # get_plugin parses the name again: "R4)," is illegal
        except PluginError as err:
            raise _errors.from_plugin(api, err) from None
        self._check_foreign(key, api)
        if key not in self._plugins:
            raise _errors.not_registered(api, key)
        return key, self._plugins[key]

    def _plugin(self, name: str, api: str):
        key, _ = self._lookup(name, api)
        try:
            return self._load(key)
        except PluginError as err:
            raise _errors.from_plugin(api, err) from None

    def get_versions(self, device_name: str) -> dict[str, Version]:
        parsed = dn.parse(device_name)
        self._check_foreign(parsed.plugin, "get_versions")
        # OpenVINO skips names no plugin is registered for: get_versions("FOO") is {} (measured)
        plugin = self._plugins.get(parsed.plugin)
        out = {}
        if parsed.priorities is not None:
            for tok in dn.parse_list(parsed.priorities):
                base = tok.name.split(".", 1)[0]
                if base.startswith("(") or base not in self._plugins:
                    continue
                out[base] = Version(self._plugins[base].description)
        if plugin is not None:
            self._loaded.add(plugin.name)  # asking a plugin's version loads it (OpenVINO)
            out[plugin.name] = Version(plugin.description)
        return out

    # --- properties ---------------------------------------------------------------------------
    def get_property(self, device_name: Any = MISSING, property: Any = MISSING,
                     arguments: dict | None = None, *, name: Any = MISSING):
        """``get_property(device, key)`` or core-level ``get_property(key)`` (CACHE_DIR...);
        the wheel's keywords: ``get_property(device_name=, name=, arguments=)``,
        ``get_property(device_name=, property=)``, ``get_property(property=)``."""
        if given(name):
            property = one_of("get_property", property=property, name=name)
        if not given(device_name):
            device_name, property = one_of("get_property", property=property), MISSING
        if not given(property):
            property = None
        if property is None or device_name == "":  # an empty device name means the Core
            key = str(device_name if property is None else property)
            if key in self._core_props:
                return self._core_props[key]
            raise _errors.ov_error("core.get_property", f"Exception is thrown while trying to call "
                                   f"get_property with unsupported property: '{key}'",
                                   "src/inference/src/dev/core_impl.cpp:1302")
        key = str(property)
        # core_impl.cpp checks the name's prefix only: "MULTI:" (an empty list) is refused,
        # "-AUTO:CPU" and "AUTO.1" are read as AUTO (measured on 2026.4.1)
        for prefix in ("HETERO", "MULTI", "AUTO", "BATCH"):
            if str(device_name).startswith(prefix + ":"):
                raise _errors.ov_error(
                    "core.get_property",
                    f"You can only get_property of the {prefix} itself (without devices). "
                    f"get_property is also possible for the individual devices before creating "
                    f"the {prefix} on top.", "src/inference/src/dev/core_impl.cpp:1108")
        parsed = dn.parse(device_name)
        if parsed.plugin == "":  # ":CPU" names no device: the Core's own keys answer
            return self.get_property(key)
        plugin = self._plugin(parsed.plugin, "core.get_property")
        if key == "CACHE_DIR":  # the Core's per-device cache folder, whatever the device
            return self._device_cache_dirs.get(plugin.name, "") if plugin.virtual else \
                str(plugin.config.get("CACHE_DIR", ""))
        try:
            if parsed.device_id is not None and not plugin.virtual:
                saved = plugin.config.get("DEVICE_ID")
                plugin.config["DEVICE_ID"] = parsed.device_id
                try:
                    return plugin.get_property(key, cfgmod.normalize(arguments))
                finally:
                    if saved is None:
                        plugin.config.pop("DEVICE_ID", None)
                    else:
                        plugin.config["DEVICE_ID"] = saved
            return plugin.get_property(key, cfgmod.normalize(arguments))
        except PluginError as err:
            raise _errors.from_plugin("core.get_property", err) from None

    def set_property(self, device_name: Any = MISSING, properties: Any = MISSING, *,
                     property: Any = MISSING) -> None:
        """``set_property({...})`` (core level), ``set_property(device, {...})`` or a pair;
        the wheel's keywords: ``properties=`` (a dict), ``property=`` (a pair) and
        ``device_name=``."""
        if given(property) or given(properties):
            properties = one_of("set_property", properties=properties, property=property)
        else:
            properties = None
        if not given(device_name):
            device_name, properties = properties, None
        if properties is None:
            props = device_name
            if isinstance(props, tuple):
                props = dict([props])
            self._set_core_properties(cfgmod.normalize(props))
            return
        if isinstance(properties, tuple):
            properties = dict([properties])
        props = cfgmod.normalize(properties)
        for prefix in ("HETERO", "MULTI", "AUTO", "BATCH"):
            if str(device_name).startswith(prefix + ":"):
                raise _errors.ov_error(
                    "core.set_property",
                    f"set_property is supported only for {prefix} itself (without devices). You "
                    f"can configure the devices with set_property before creating the {prefix} "
                    f"on top.", "src/inference/src/dev/core_impl.cpp:1393")
        if "ENABLE_MMAP" in props:
            # a Core key whatever the device (CoreConfig::set_and_update comes first): read as
            # a bool and kept by the Core, never given to the plugin
            try:
                self._core_props["ENABLE_MMAP"] = cfgmod.core_bool(props.pop("ENABLE_MMAP"))
            except PluginError as err:
                raise _errors.from_plugin("core.set_property", err) from None
            if not props:
                return  # nothing left for a device: the name is not even looked up
        parsed = dn.parse(device_name)
        clear = str(device_name).split(".", 1)[0]  # set_property_for_device's DeviceIDParser
        if not (dn.is_virtual(clear) and ":" in clear) and clear not in self._plugins \
                and clear not in self._foreign_plugins:
            # no ':' parsing and no '-' stripping here: "-CPU" and "CPU:x" are no devices
            raise _errors.ov_error(
                "core.set_property", f'Device with "{clear}" name is not registered in the '
                "OpenVINO Runtime", "src/inference/src/dev/core_impl.cpp:1422")
        lookup, plugin = self._lookup(parsed.plugin, "core.set_property")
        created = lookup in self._loaded  # (a broken plugin never is)
        if plugin.virtual and parsed.priorities is not None:
            raise _errors.ov_error(
                "core.set_property",
                f"set_property is supported only for {plugin.name} itself (without devices). You "
                f"can configure the devices with set_property before creating the {plugin.name} "
                f"on top.", "src/inference/src/dev/core_impl.cpp:1393")
        if any(k == "DEVICE_PROPERTIES" or k.startswith("DEVICE_PROPERTIES_") for k in props):
            raise _errors.ov_error(
                "core.set_property",
                "set_property do not support ov::device::propreties. You can configure the "
                "devices through the compile_model()/query_model() API.",
                "src/inference/src/dev/core_impl.cpp:1397")
        if "CACHE_DIR" in props:
            # every device takes CACHE_DIR, virtual ones too: the Core keeps it per device and
            # answers get_property(device, "CACHE_DIR") itself (measured on 2026.4.1)
            model_cache.prepare_dir(props["CACHE_DIR"], "core.set_property")
            text = cfgmod.any_text(props.pop("CACHE_DIR"))
            if plugin.virtual:
                self._device_cache_dirs[plugin.name] = text
            else:
                plugin.config["CACHE_DIR"] = text
            if not props:
                return
        if not created:
            if parsed.device_id is not None and plugin.name == "CPU":
                # kept for "CPU.x", handed over when the plugin is created: the CPU has no ids
                try:
                    plugin.resolve(parsed.device_id)
                except PluginError as err:
                    self._broken[lookup] = _load_error(lookup, err)
                    return
            self._defer_properties(lookup, plugin, props)
            return
        try:
            if parsed.device_id is not None and not plugin.virtual:
                # the plugin reads DEVICE_ID with the keys ("CPU.1" on a created CPU plugin:
                # "CPU plugin supports only '' as device id", measured on 2026.4.1)
                plugin.resolve(parsed.device_id)
            plugin.set_property(props)
        except PluginError as err:
            raise _errors.from_plugin("core.set_property", err) from None

    def _defer_properties(self, name: str, plugin, props: dict[str, Any]) -> None:
        """``set_property(device, {...})`` before the plugin is created: OpenVINO keeps the keys
        (one map per device, in key order) and hands them to the plugin when it creates it, so
        the call returns and a rejected key makes every later use fail to create the plugin,
        naming the first rejected key in that order (measured on 2026.4.1)."""
        pending = self._pending.setdefault(name, {})
        pending.update(props)
        for key in sorted(pending):
            try:
                plugin.set_property({key: pending[key]})
            except PluginError as err:
                self._broken[name] = _load_error(name, err)
                return

    def _set_core_properties(self, props: dict[str, Any]) -> None:
        """``core.set_property({...})``: the Core's keys, then every plugin (see the module doc)."""
        api = "core.set_property_core"
        for key in props:
            if key == "DEVICE_PROPERTIES" or key.startswith("DEVICE_PROPERTIES_"):
                raise _errors.ov_error(
                    api, "set_property do not support ov::device::propreties. You can configure "
                    "the devices through the compile_model()/query_model() API.",
                    "Check '!is_secondary_property || is_proxy' failed at "
                    "src/inference/src/dev/core_impl.cpp:1282")
        rest = dict(props)
        for key in _CORE_KEYS:
            if key in rest:
                value = rest.pop(key)
                if key == "CACHE_DIR":
                    model_cache.prepare_dir(value, api)  # a real directory, made at once
                try:
                    self._core_props[key] = (str(value) if key == "CACHE_DIR"
                                             else _core_bool(value))
                except PluginError as err:
                    raise _errors.from_plugin(api, err) from None
        if not rest:
            return
        # plugins not loaded yet take the keys when they load; one that rejects them never will
        for name in sorted(self._plugins):
            if name in self._loaded or name in self._broken:
                continue
            try:
                self._plugins[name].set_property(dict(rest))
            except PluginError as err:
                self._broken[name] = _load_error(name, err)
        # loaded plugins are set now, in name order; the first that rejects a key raises
        for name in sorted(self._loaded):
            try:
                self._plugins[name].set_property(dict(rest))
            except PluginError as err:
                raise _errors.from_plugin(api, err) from None

    # --- models -----------------------------------------------------------------------------
    def read_model(self, model: Any, weights: Any = None, config: dict | None = None):
        """A model from a file (OpenVINO IR ``.xml`` + ``.bin``, or ONNX), from bytes / IR
        text with ``weights``, or a zoo model by name (``"googlenet-v1"``,
        ``"googlenet-v1:FP16"``). Files are read by ``ovlab.sim.frontends``. ``config`` applies to
        this read only; a ``CACHE_DIR`` in it is created, as OpenVINO creates it."""
        cache_dir = cfgmod.normalize(config).get("CACHE_DIR")
        if cache_dir:
            Path(str(cache_dir)).mkdir(parents=True, exist_ok=True)
        return self._read_model(model, weights, None)

    def _read_model(self, model: Any, weights: Any, api: str | None):
        """``read_model`` under the API that called it (``compile_model`` reads a path with
        its own first lines in the error chain)."""
        if hasattr(model, "get_ops"):
            return model
        from .. import frontends
        from ..models import zoo

        is_path = isinstance(model, (str, Path)) and not frontends._is_text(model, weights)
        if is_path:
            text = str(model)
            name, _, precision = text.partition(":")
            if (name in zoo.names() or name in zoo.table_names()) and not Path(text).exists():
                return zoo.load(name, precision or "FP32")
            path = Path(text)
            if not path.exists():
                from ..models.zoo_paths import zoo_model_for_path  # the zoo-stem fallback

                stand_in = zoo_model_for_path(text)
                if stand_in is not None:
                    return stand_in
                raise self._read_error(api, frontends.FrontendError(
                    f'FrontEnd API failed with GeneralFailure:\n'
                    f'{"onnx" if path.suffix.lower() == ".onnx" else "ir"}: Could not open the '
                    f'file: "{path}"\n(ovlab reads IR and ONNX files, and zoo models by name: '
                    f'{", ".join(zoo.names())})', frontends.errors.OPEN_FILE), is_path)
        try:
            return frontends._read(model, weights)
        except frontends.FrontendError as err:
            raise self._read_error(api, err, is_path) from None

    @staticmethod
    def _read_error(api: str | None, err: Any, is_path: bool) -> RuntimeError:
        from ..frontends.errors import raise_public

        if api == "compile_model_path":
            return raise_public(api, err, "src/inference/src/dev/plugin.cpp:59")
        return raise_public("read_model" if is_path else "read_model_bytes", err)

    def _prepare(self, device_name: str, config: dict | None, api: str):
        """Parse a device name and config as the Core does: (plugin, parsed name, config)."""
        if not isinstance(device_name, str):
            raise TypeError(
                "compile_model(): incompatible function arguments. The following argument types "
                "are supported:\n    1. (self: Core, model: Model, device_name: str, "
                "properties: Mapping[str, object])")
        try:
            dn.check_syntax(device_name)
        except PluginError as err:
            raise _errors.from_plugin(api, err) from None
        config = cfgmod.normalize(config)
        if "ENABLE_MMAP" in config:
            try:
                config["ENABLE_MMAP"] = cfgmod.core_bool(config["ENABLE_MMAP"])
            except PluginError as err:
                raise _errors.from_plugin(api, err) from None
        parsed = dn.parse(device_name)
        plugin = self._plugin(parsed.plugin, api)
        if not plugin.virtual and parsed.priorities is not None:
            # "CPU:x": what follows ':' is a hardware device's DEVICE_ID, as after '.'
            parsed = dn.ParsedName(parsed.plugin, device_id=parsed.priorities)
        if config.get("CACHE_DIR"):
            model_cache.prepare_dir(config["CACHE_DIR"], api)
        per_device = _flatten_device_properties(config)
        if parsed.priorities is not None and "MULTI_DEVICE_PRIORITIES" in config:
            cfg_value = cfgmod.any_text(config["MULTI_DEVICE_PRIORITIES"])
            if cfg_value.rstrip(",") != parsed.priorities.rstrip(","):
                raise _errors.ov_error(
                    api, f"Device priority / ID mismatch: {parsed.priorities} (from "
                    f"{device_name}) vs {cfg_value} (from config)",
                    "src/inference/src/dev/core_impl.cpp:396")
        # the Core compares the two as ov::Any: the number 0 is not the text "0" (measured)
        if parsed.device_id is not None and "DEVICE_ID" in config \
                and config["DEVICE_ID"] != parsed.device_id:
            raise _errors.ov_error(
                api, f"Device priority / ID mismatch: {parsed.device_id} (from {device_name}) vs "
                f"{cfgmod.any_text(config['DEVICE_ID'])} (from config)",
                "src/inference/src/dev/core_impl.cpp:396")
        if plugin.virtual:
            if per_device:
                config["DEVICE_PROPERTIES"] = per_device
        else:
            # a hardware device takes only its own DEVICE_PROPERTIES entry
            for dev_key in (device_name, parsed.plugin):
                if dev_key in per_device:
                    for k, v in per_device[dev_key].items():
                        config.setdefault(k, v)
        return plugin, parsed, config

    def compile_model(self, model: Any, device_name: str | None = None,
                      config: dict | None = None, *, weights: Any = None):
        """Compile ``model`` for ``device_name`` (``None`` means AUTO). Advances the clock."""
        from .compiled_model import CompiledModel

        from_path = not hasattr(model, "get_ops")
        api = "compile_model_path" if from_path else "compile_model"
        if from_path and not isinstance(model, (str, bytes, Path)):
            raise RuntimeError(
                "Exception from src/bindings/python/src/pyopenvino/utils/utils.cpp:647:\n"
                f"Path: '{model}' does not exist. Please provide valid model's path either as a "
                "string, bytes or pathlib.Path. Examples:\n(1) '/home/user/models/model.onnx'\n"
                "(2) Path('/home/user/models/model/model.onnx')\n")
        if isinstance(model, str) and isinstance(weights, (bytes, bytearray, memoryview)):
            # compile_model(model=<IR text>, weights=<bytes>) reads the model from memory (the
            # binding's overload for a buffer; read_model(str, bytes) takes the str as a path)
            model = self._read_model(model.encode(), weights, api)
        else:
            model = self._read_model(model, weights, api)
        device_name = "AUTO" if device_name is None else device_name
        device_name = self._explicit_batch_checks(device_name, api,
                                                  None if from_path else model)
        plugin, parsed, config = self._prepare(device_name, config, api)
        if hasattr(model, "check_static"):
            model.check_static()  # dynamic shapes build, but do not compile on ovlab
        try:
            ev = self._start_compile_parsed(model, plugin, parsed, config, implicit_batch=not from_path,
                                            from_path=from_path)
            backend = self.clock.run_until(ev, f"the compile on {device_name}")
            if isinstance(backend, BaseException):
                raise backend
        except PluginError as err:
            raise _errors.from_plugin(api, err) from None
        return CompiledModel._create(self, backend, model)

    def _explicit_batch_checks(self, device_name: Any, api: str, model: Any = None) -> Any:
        """``CoreImpl::apply_auto_batching``, first thing in ``compile_model``: a name with
        ``BATCH`` anywhere and a ``:`` is read as an explicit BATCH device, whatever its
        prefix: what follows the first ``:`` must be one device without ``-``
        (``DeviceIDParser::get_batch_device``), and without a ``(`` anywhere that device's
        plugin must be registered. With a ``(`` (a batch size) and a batchable model, the
        compile goes to ``BATCH:<what follows>`` whatever the prefix was: the name returned."""
        if not isinstance(device_name, str) or "BATCH" not in device_name \
                or ":" not in device_name:
            return device_name
        text = device_name.split(":", 1)[1]
        src = "src/inference/src/dev/device_id_parser.cpp"
        if "," in text:
            raise _errors.from_plugin(api, PluginError(
                f"BATCH accepts only one device in list but got '{text}'", f"{src}:88",
                through_plugin=False))
        if "-" in text:
            raise _errors.from_plugin(api, PluginError(
                f"Invalid device name '{text}' for BATCH", f"{src}:91", through_plugin=False))
        if "(" not in device_name:
            try:
                dn.check_syntax(text)  # parse_device_name_into_config(device)'s check
            except PluginError as err:
                raise _errors.from_plugin(api, err) from None
            self._lookup(dn.parse(text).plugin, api)
            return device_name
        if model is not None and hasattr(model, "_is_batchable") and model._is_batchable():
            return "BATCH:" + text
        return device_name

    def _start_compile(self, model, device_name: str, config: dict | None = None,
                       implicit_batch: bool = True):
        """Begin a compile as ``compile_model`` would (implicit batching included) without
        waiting: for meta plugins (AUTO compiles devices in the background). Returns a clock
        event whose value is a Backend or a PluginError; argument errors raise PluginError."""
        dn.check_syntax(device_name)
        parsed = dn.parse(device_name)
        name = "CPU" if parsed.plugin == "(CPU)" else parsed.plugin
        name = name[1:] if name.startswith("-") else name  # get_plugin's stripDeviceName
        if name not in self._plugins:
            raise PluginError(f'Device with "{device_name}" name is not registered in the '
                              "OpenVINO Runtime", _errors.CORE_IMPL, through_plugin=False)
        plugin = self._load(name)
        if not plugin.virtual and parsed.priorities is not None:
            parsed = dn.ParsedName(parsed.plugin, device_id=parsed.priorities)
        return self._start_compile_parsed(model, plugin, parsed, dict(config or {}),
                                          implicit_batch)

    def _start_compile_parsed(self, model, plugin, parsed, config, implicit_batch: bool,
                              from_path: bool = False):
        # the Core applies implicit batching only if the BATCH plugin loads (core_impl.cpp)
        if implicit_batch and not plugin.virtual and self._try_load("BATCH") is not None:
            target = self._plugins["BATCH"].implicit_target(model, plugin, parsed, config)
            if target is not None:
                return self._plugins["BATCH"].start_compile(model, target, None, config)
        return plugin.start_compile(model, parsed.priorities, parsed.device_id, config,
                                    from_path=from_path)

    def query_model(self, model: Any, device_name: str, config: dict | None = None) -> dict:
        """``{op friendly name: device}`` for the ops ``device_name`` supports."""
        plugin, parsed, config = self._prepare(device_name, config, "query_model")
        try:
            return plugin.query_model(model, parsed.priorities, parsed.device_id, config)
        except PluginError as err:
            raise _errors.from_plugin("query_model", err) from None

    # --- plugins, extensions, blobs ---------------------------------------------------------------
    def _check_foreign(self, name: str, api: str) -> None:
        """A device registered from a plugin library cannot load: ovlab's devices are virtual."""
        lib = self._foreign_plugins.get(name)
        if lib is not None:
            raise _errors.ov_error(api, f'Cannot load library "{lib}": {lib}: ovlab runs virtual '
                                   "devices only and cannot load plugin libraries")

    def register_plugin(self, plugin: str, device_name: str,
                        config: dict = _NO_CONFIG) -> None:
        """Accepted as OpenVINO accepts it; using the device then fails to load the library."""
        name = str(plugin)
        if "/" not in name and not name.endswith((".so", ".dll", ".dylib")):
            name = f"lib{name}.so"
        self._foreign_plugins[str(device_name)] = name

    def register_plugins(self, xml_config_file: str) -> None:
        """Register the plugins a ``plugins.xml`` lists (each then fails to load, as above)."""
        import re

        text = Path(xml_config_file).read_text()
        for tag in re.findall(r"<plugin\b[^>]*>", text):
            attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
            if "name" in attrs and "location" in attrs:
                self._foreign_plugins[attrs["name"]] = attrs["location"]

    def unload_plugin(self, device_name: str) -> None:
        """Unload a plugin a call has loaded (the next call loads it again); properties set on
        it stay, as the Core keeps them. One not loaded yet raises, as in OpenVINO (measured)."""
        name = str(device_name)
        if name in self._foreign_plugins:
            del self._foreign_plugins[name]
            return
        if name not in self._loaded:
            raise _errors.ov_error("unload_plugin", f'Device with "{name}" name is not registered '
                                   "in the OpenVINO Runtime", "src/inference/src/dev/core_impl.cpp:1338")
        self._loaded.discard(name)

    def add_extension(self, extension: Any = MISSING, *, library_path: Any = MISSING,
                      extensions: Any = MISSING, custom_op: Any = MISSING) -> None:
        """An ``openvino.Extension`` base object adds nothing and is accepted; custom-op
        libraries and op extensions cannot run on ovlab and raise naming the feature. The
        wheel's overloads, one per keyword: ``library_path``, ``extension``, ``extensions``
        (a list), ``custom_op`` (a Python op class)."""
        from ...extension import Extension

        if given(custom_op):
            raise NotImplementedError(
                f"add_extension(custom_op={custom_op!r}): custom Python ops are not simulated "
                "on ovlab (its kernels are ovlab.opset's NumPy ops)")
        extension = one_of("add_extension", extension=extension, library_path=library_path,
                           extensions=extensions)
        items = extension if isinstance(extension, list) else [extension]
        path = extension if isinstance(extension, (str, Path)) else None
        if path is not None:
            raise _errors.ov_error(
                "add_extension", "Cannot add extension. Cannot find entry point to the extension "
                f'library. This error happened: Cannot load library "{path}": custom-op '
                "extension libraries are not simulated on ovlab")
        for item in items:
            if type(item).__name__ == "OpExtension" or not isinstance(item, Extension):
                raise NotImplementedError(
                    f"add_extension({item!r}): custom-op extensions are not simulated on ovlab "
                    "(its kernels are ovlab.opset's NumPy ops)")

    def import_model(self, model_stream: Any, device_name: str, config: dict | None = None):
        """Import a blob written by ``CompiledModel.export_model`` (see ``runtime/blobs.py``)."""
        from . import blobs

        model, _meta = blobs.read(model_stream)
        return self.compile_model(model, device_name, config)

    def create_context(self, device_name: str, properties: Any = None):
        raise NotImplementedError(
            f"create_context({device_name!r}): remote contexts (device memory shared with "
            "OpenCL/VA-API) are not simulated on ovlab")

    def get_default_context(self, device_name: str):
        raise NotImplementedError(
            f"get_default_context({device_name!r}): remote contexts (device memory shared with "
            "OpenCL/VA-API) are not simulated on ovlab")
