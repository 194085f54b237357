"""MULTI and AUTO with CUMULATIVE_THROUGHPUT: every candidate device at once.

Follows ``src/plugins/auto/src/cumulative_schedule.cpp``. All candidates are compiled before
``compile_model`` returns: every non-CPU device in parallel, then the CPU last. Devices that fail
to compile leave the list; if all fail the error lists them all. Each device gets its own worker
pool, and one inference goes to

* ``DEVICE_PRIORITY`` (default): the first device in list order with an idle worker, so the first
  device is filled before the next one is used;
* ``ROUND_ROBIN``: the device at a cursor that advances at every attempt, even when that device
  had no idle worker.

No CPU helper and no model priority here. The list keeps the candidate order: the user's order,
or for plain ``AUTO`` the order of ``available_devices`` (alphabetical, so the CPU comes first).
OpenVINO's docs say AUTO drops the CPU when there are more than two GPUs; the code does not, and
neither does ovlab. A failed inference removes its device (while more than one remains) and runs
again on the others.
"""

from __future__ import annotations

from ....properties.intel_auto import SchedulePolicy
from ...errors import PluginError
from ...runtime.backend import Backend, Job
from .schedule import error_text, start_device_compile
from .select import DeviceInfo
from .workers import WorkerPool, WorkerSchedule, pool_size

CUMU_SRC = "src/plugins/auto/src/cumulative_schedule.cpp"


class CumulativeSchedule(WorkerSchedule):
    """The cumulative scheduler of one compiled model."""

    def __init__(self, plugin, model, settings, devices: list[DeviceInfo], log) -> None:
        super().__init__(plugin.core, model, plugin.name, log)
        self.settings = settings
        self.policy = settings.schedule_policy
        self.runtime_fallback = settings.flag("ENABLE_RUNTIME_FALLBACK")
        self.devices = list(devices)  # m_device_priorities: failed devices leave it
        # contexts in compile order: non-CPU devices first, the CPU last
        self.contexts: list[DeviceInfo] = ([d for d in devices if "CPU" not in d.name]
                                           + [d for d in devices if "CPU" in d.name])
        self.backends: dict[str, Backend] = {}
        self.pools: dict[str, WorkerPool] = {}
        self.errors: dict[str, str] = {}
        self.cursor = 0
        self.passthrough: Backend | None = None
        self.done = self.core.clock.event()

    # --- start-up ------------------------------------------------------------------------
    def start(self):
        self.log.info("schedule.cpp:17", "scheduler starting")
        self.core.clock.process(self._compile_all())
        return self.done

    def _compile_all(self):
        core = self.core
        others = [d for d in self.contexts if "CPU" not in d.name]
        cpus = [d for d in self.contexts if "CPU" in d.name]
        for group in (others, cpus):
            if not group:
                continue
            t0 = core.clock.now
            events = [start_device_compile(core, self.model, d, self.from_path) for d in group]
            yield core.clock.env.all_of(events)
            for device, ev in zip(group, events, strict=True):
                self._compiled(device, ev.value, core.clock.now - t0)
        ready = [d for d in self.contexts if d.name in self.backends]
        if not ready:
            message = "compile model failed, " + "".join(
                self.errors.get(d.name, "") + "; " for d in self.contexts)
            self.done.succeed(PluginError(f"[{self.tag}] {message}", f"{CUMU_SRC}:222"))
            return
        if len(self.contexts) == 1:
            self.passthrough = self.backends[ready[0].name]
            self.log.info(f"{CUMU_SRC}:184", "Only one device or multiple devices of the same type "
                          "will use passthrough compiled model")
        self.done.succeed(True)

    def _compiled(self, device: DeviceInfo, result, seconds: float) -> None:
        if isinstance(result, BaseException):
            self.errors[device.name] = f"{device.name}:{error_text(result)}"
            self.devices = [d for d in self.devices if d.name != device.name]
            self.log.warning(f"{CUMU_SRC}:206", f"Device: [{device.name}]: Compile model failure: "
                             f"{error_text(result)}")
            return
        self.backends[device.name] = result
        self.log.info(f"{CUMU_SRC}:204", f"Device: [{device.name}]: Compile model took "
                      f"{seconds * 1000.0:f} ms")
        if len(self.contexts) > 1:
            self.pools[device.name] = WorkerPool(device.name, device.name, result,
                                                 pool_size(device, result))
        self.log.info(f"{CUMU_SRC}:114", f"device:{device.name} compiling model finished")

    # --- scheduling --------------------------------------------------------------------------
    def _next_device(self, devices: list[DeviceInfo], index: int) -> DeviceInfo:
        if self.cursor >= len(devices):
            self.cursor = 0
        chosen = devices[self.cursor]
        if self.policy == SchedulePolicy.ROUND_ROBIN:
            self.cursor += 1
        else:
            chosen = devices[index]
        return chosen

    def _try_start(self, job: Job) -> bool:
        devices = [d for d in self.devices if d.name in self.pools]
        for index in range(len(devices)):
            pool = self.pools[self._next_device(devices, index).name]
            if pool.has_idle:
                self._start_on(pool, job)
                return True
        return False

    def _on_failure(self, pool: WorkerPool, job: Job, error: BaseException, profile: list,
                    device: str) -> None:
        current = next((d for d in self.devices if d.name == pool.name), None)
        if len(self.devices) > 1 and current is not None:
            self.devices.remove(current)
            self.event("fallback", pool.name, seq=job.seq, rerun=True,
                       remaining=[d.name for d in self.devices])
            self.log.info(f"{CUMU_SRC}:46", f"remove {pool.name} from the device list after a "
                          "failed inference")
            self.submit(job)
            return
        job.done(error=error, profile=profile, device=device)

    # --- what the compiled model reports ---------------------------------------------------
    def execution_devices(self) -> list[str]:
        return [d.name for d in self.devices]

    def compiled(self) -> list[Backend]:
        """The compiled device models in context order (non-CPU first, CPU last)."""
        return [self.backends[d.name] for d in self.contexts if d.name in self.backends]
