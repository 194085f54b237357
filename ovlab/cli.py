"""The ``ovlab`` console script (also ``python -m ovlab``): ``ovlab run script.py`` runs
unmodified OpenVINO code on virtual devices, ``ovlab benchmark ...`` runs benchmark_app there,
``ovlab calibrate -o my-machine.json`` measures this machine's real runtime into a platform file.

Subcommands are dispatched by hand rather than with argparse sub-parsers because benchmark_app's
options are single-dash words (``-niter``, ``-nireq``) that the subcommand must receive untouched.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: ovlab <command> [options]

OpenVINO's tools on ovlab's virtual devices (simulated time, real NumPy numerics).

commands:
  run          run unmodified OpenVINO code on the virtual devices in simulated time:
               ovlab run [--platform P] [--seed N] script.py | -m module ('ovlab run -h')
  benchmark    benchmark_app: ovlab benchmark -m googlenet-v1 -d AUTO -niter 128
               (also spelled benchmark_app; 'ovlab benchmark -h' lists its options)
  calibrate    measure this machine with the real openvino and write a platform file:
               ovlab calibrate -o my-machine.json  ('ovlab calibrate -h' for options);
               or fit one to figures from elsewhere: ovlab calibrate --from FILE ... -o out.json
  platforms    the catalogue of Intel's published machines (datasheet-built presets):
               ovlab platforms [--show NAME] [--closest family=alder-raptor cores=14]
  check        the pre-class check: packages, a simulated run, the digits classifier, a
               dashboard, results; --labs also runs every lab notebook
  genai        genai export NAME DIR: a model folder for a virtual LLM (config, tokenizer IRs,
               a marker; no weights) that scripts reading the files can open

options:
  -h, --help   show this message and exit
  --version    print the OpenVINO version ovlab emulates and ovlab's own"""

_COMMANDS = {"benchmark": "benchmark", "benchmark_app": "benchmark", "run": "run",
             "calibrate": "calibrate", "check": "check", "platforms": "platforms",
             "genai": "genai"}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ovlab`` script; returns the exit code (0 ok, 1 error)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if args[0] == "--version":
        from . import get_version

        print(get_version())
        return 0
    command = _COMMANDS.get(args[0])
    if command is None:
        print(f"[ ERROR ] unknown command {args[0]!r}; commands: "
              f"{', '.join(sorted(set(_COMMANDS.values())))} (see: ovlab -h)")
        return 1
    if command == "calibrate":
        return calibrate_main(args[1:])
    if command == "platforms":
        from .sim.hardware import catalogue

        return catalogue.main(args[1:])
    if command == "check":
        from .sim import preclass

        return preclass.main(args[1:])
    if command == "genai":
        if args[1:2] != ["export"]:
            print("usage: ovlab genai export NAME DIR [--weight-format int4|int8|fp16]")
            return 0 if args[1:2] in (["-h"], ["--help"]) else 1
        from .sim.genai import export

        return export.main(args[2:])
    if command == "run":
        from .sim.runner import cli as runner_cli

        return runner_cli.main(args[1:])
    from .tools import benchmark

    return benchmark.main(args[1:])


def calibrate_main(argv: Sequence[str]) -> int:
    """``ovlab calibrate``: see :mod:`ovlab.sim.calibration.calibrate`."""
    import argparse

    from .sim.calibration.calibrate import (
        DEFAULT_MODELS,
        CalibrateError,
        calibrate,
        calibrate_from,
        calibrate_refit,
    )
    from .sim.calibration.figures import FiguresError
    from .sim.hardware.platform_file import PlatformFileError

    parser = argparse.ArgumentParser(
        prog="ovlab calibrate", description="Measure this machine's devices with the real "
        "openvino (benchmark_app's method) and write an ovlab platform file; or, with --from, "
        "fit one to figures measured elsewhere. Each model is also held out once (fitted "
        "without it) and its held-out error printed beside the in-sample fit.")
    parser.add_argument("-o", "--output", default="my-machine.json",
                        help="the platform file to write (default: my-machine.json)")
    parser.add_argument("--name", default=None, help="the platform's name (default: the file's)")
    parser.add_argument("-m", "--models", default=",".join(DEFAULT_MODELS),
                        help="zoo models to measure, comma-separated (default: %(default)s)")
    parser.add_argument("-d", "--devices", default=None,
                        help="devices to measure, comma-separated (default: all the runtime "
                             "lists)")
    parser.add_argument("--repeat", type=int, default=2,
                        help="passes over the models (more: steadier on a busy machine)")
    parser.add_argument("--quiet-wait", type=float, default=0.0, metavar="S",
                        help="on a shared machine, let each measurement window wait for a quiet "
                             "moment, up to S seconds in all (default 0: no waiting)")
    parser.add_argument("--refresh", action="store_true",
                        help="measure this machine's CPU again for the 'this-machine' platform "
                             "(its cached platform file; the other options are not used)")
    parser.add_argument("--refit", nargs="+", default=None, metavar="FILE",
                        help="fit again, without measuring, on the measurements stored in "
                             "platform files ovlab calibrate wrote (a later file's figure "
                             "replaces an earlier one's)")
    source = parser.add_argument_group(
        "figures measured elsewhere", "fit a platform to benchmark_app figures of another "
        "machine instead of measuring this one (docs/calibrate-from.md)")
    source.add_argument("--from", dest="files", nargs="+", default=None, metavar="FILE",
                        help="figures tables (CSV: model,precision,device,latency_ms,"
                             "throughput_fps), saved benchmark_app console output, or its "
                             "benchmark_report.csv files")
    source.add_argument("--cpu-cores", type=int, default=None,
                        help="physical cores of the CPU the figures come from")
    source.add_argument("--cpu-flags", default=None,
                        help="its /proc/cpuinfo flags (avx512f, avx512_vnni / avx_vnni, "
                             "avx512_bf16, amx_bf16, amx_int8 decide the peaks)")
    source.add_argument("--cpu-ghz", type=float, default=None,
                        help="its sustained all-core clock in GHz (default 3.0)")
    source.add_argument("--llc-mb", type=float, default=None,
                        help="its last-level cache in MB (default 2 per core)")
    source.add_argument("--dram-gbps", type=float, default=None,
                        help="its memory bandwidth in GB/s (default 5 per core, at least 40)")
    args = parser.parse_args(list(argv))
    try:
        if args.refresh:
            from .sim.calibration.this_machine import cache_path, this_machine

            this_machine(refresh=True)
            print(f"Wrote {cache_path()}: ov.Core(platform='this-machine') loads it")
            return 0
        if args.refit:
            calibrate_refit(args.refit, args.output, name=args.name)
        elif args.files:
            calibrate_from(args.files, args.output, cpu_cores=args.cpu_cores,
                           cpu_flags=args.cpu_flags, cpu_ghz=args.cpu_ghz, llc_mb=args.llc_mb,
                           dram_gbps=args.dram_gbps, name=args.name)
        else:
            calibrate(args.output, name=args.name, models=args.models.split(","),
                      devices=args.devices.split(",") if args.devices else None,
                      repeat=max(1, args.repeat), quiet_wait_s=max(0.0, args.quiet_wait))
    except (CalibrateError, FiguresError, PlatformFileError) as err:
        print(f"[ ERROR ] {err}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
