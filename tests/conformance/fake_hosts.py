"""Other vendors' CPUs as ``/proc/cpuinfo`` would show them, for the any-machine guard.

``OVLAB_FAKE_HOST=xeon-amx`` (or ``epyc-avx2``) makes ``tests/conformance/conftest.py`` describe
the host with one of these instead of the real ``/proc/cpuinfo``: ovlab's ``host`` platform,
which the conformance tests run on, then names another vendor's CPU with other cores, ISA and
default precision than the real wheel's. The tests must still pass: none may compare a value
that depends on the machine. ``tests/test_any_machine.py`` runs them so, picking the vendor this
machine is not.
"""

from __future__ import annotations


def _cpuinfo(model: str, processors: int, cores: int, mhz: float, flags: str) -> str:
    block = ("processor\t: {i}\nvendor_id\t: {vendor}\nmodel name\t: {model}\n"
             "cpu MHz\t\t: {mhz}\nphysical id\t: 0\nsiblings\t: {processors}\n"
             "cpu cores\t: {cores}\nflags\t\t: {flags}\n\n")
    vendor = "GenuineIntel" if "Intel" in model else "AuthenticAMD"
    return "".join(block.format(i=i, vendor=vendor, model=model, mhz=mhz, processors=processors,
                                cores=cores, flags=flags) for i in range(processors))


_BASE = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx "
         "fxsr sse sse2 ht syscall nx lm constant_tsc pni pclmulqdq ssse3 fma cx16 sse4_1 "
         "sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand hypervisor lahf_lm abm bmi1 "
         "avx2 bmi2 erms adx")

FAKE_HOSTS = {
    # a 4th-gen Xeon (Sapphire Rapids) VM: 8 vCPUs on 4 cores, AVX-512 with BF16 and FP16, AMX
    "xeon-amx": _cpuinfo(
        "Intel(R) Xeon(R) Platinum 8480+", 8, 4, 2000.0,
        _BASE + " avx512f avx512dq avx512cd avx512bw avx512vl avx512_vnni avx512_bf16 "
                "avx512_fp16 amx_bf16 amx_tile amx_int8"),
    # an AVX2-only EPYC VM (Milan): 4 vCPUs on 2 cores
    "epyc-avx2": _cpuinfo("AMD EPYC 7B13", 4, 2, 2450.0, _BASE + " sse4a misalignsse"),
}


def other_vendor(model: str) -> str:
    """The fake host of the vendor ``model`` is not."""
    return "epyc-avx2" if "intel" in model.lower() else "xeon-amx"
