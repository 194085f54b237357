"""RandomUniform-8 and Multinomial-13: seeded random numbers, as OpenVINO draws them.

RandomUniform's values come from OpenVINO's own Philox4x32-10 stream
(``reference/utils/philox_generator.cpp``, the "tensorflow" alignment: the key is the global
seed, the counter the op seed, one call gives four 32-bit words) converted as
``philox_converter.cpp`` does for float32 (the low 23 bits as a mantissa in [1, 2), minus 1,
scaled to ``[min, max)``; integers as ``word % (max - min) + min``). Ported bit for bit, so a
seeded RandomUniform gives the real CPU plugin's numbers; as measured on the 2026.4.1 wheel,
the CPU plugin makes f16, bf16 and f64 values from the float32 ones and i64 values from one
word each (the reference converter uses two words), and so does ovlab. The CPU plugin also
moves its stream on at each inference of a compiled model; ovlab draws each inference from the
seeds' start (the first inference, or any inference of a fresh compile, is the wheel's). When both
seeds are 0 OpenVINO seeds from the clock (a different draw on each run); ovlab does the same
from the operating system's entropy. The "pytorch" alignment (a Mersenne twister) is not
ported yet and says so.

Multinomial draws ``num_samples`` class indices per row of ``probs`` (probabilities, or log
probabilities with ``log_probs``) as the CPU plugin's kernel does: its uniform samples come from
``std::mt19937`` seeded with ``std::seed_seq{global_seed, op_seed}`` (not Philox), ported here
word for word (the seed sequence is the C++ standard's algorithm, the generator NumPy's
MT19937), so seeded draws are the real CPU plugin's.
"""

from __future__ import annotations

import secrets

import numpy as np

from .attrs import Attr
from .node import Node, ShapeType
from .ops import NodeInput, constant_value, make_node, need, register
from .types import PartialShape

__all__ = ["multinomial", "mt19937_uniform", "philox_words", "random_uniform", "uniform"]

_M_N, _M_COUNTER = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_KEY_LO, _KEY_HI = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
_LOW = np.uint64(0xFFFFFFFF)
_SHIFT = np.uint64(32)


def philox_words(calls: int, global_seed: int, op_seed: int) -> np.ndarray:
    """``calls`` executions of OpenVINO's ``TensorflowPhiloxGenerator::random`` from the
    initial state: ``[calls, 4]`` uint32 words (n.lo, n.hi, counter.lo, counter.hi)."""
    n64 = np.arange(calls, dtype=np.uint64)  # n starts at 0 and counts the calls
    counter64 = np.full(calls, np.uint64(op_seed))
    # (the carry of n into the counter after 2**64 calls never happens at these sizes)
    n_lo, n_hi = n64 & _LOW, n64 >> _SHIFT
    c_lo, c_hi = counter64 & _LOW, counter64 >> _SHIFT
    k_lo = np.full(calls, np.uint64(global_seed) & _LOW)
    k_hi = np.full(calls, np.uint64(global_seed) >> _SHIFT)
    with np.errstate(over="ignore"):
        for rnd in range(10):
            p0 = _M_N * n_lo
            p1 = _M_COUNTER * c_lo
            n_lo, n_hi = (p1 >> _SHIFT) ^ n_hi ^ k_lo, p1 & _LOW
            c_lo, c_hi = (p0 >> _SHIFT) ^ c_hi ^ k_hi, p0 & _LOW
            if rnd < 9:
                k_lo, k_hi = (k_lo + _KEY_LO) & _LOW, (k_hi + _KEY_HI) & _LOW
    return np.stack([n_lo, n_hi, c_lo, c_hi], axis=1).astype(np.uint32)


def _seeds(global_seed: int, op_seed: int) -> tuple[int, int]:
    if global_seed == 0 and op_seed == 0:  # OpenVINO seeds from the clock: a new draw each run
        return secrets.randbits(64), 0
    return global_seed, op_seed


def uniform(count: int, dtype: np.dtype, low: float, high: float, global_seed: int,
            op_seed: int) -> np.ndarray:
    """``count`` values in ``[low, high)`` of ``dtype`` as the real CPU plugin's
    RandomUniform ("tensorflow" alignment) makes them: one Philox word per value; floats from
    the word's low 23 bits as a float32 in [0, 1) scaled in float32 (f16, bf16 and f64 are
    that float32 value converted: measured on the 2026.4.1 wheel, where the reference would
    use other bits), integers as ``word % (high - low) + low``."""
    g, o = _seeds(global_seed, op_seed)
    dtype = np.dtype(dtype)
    words = philox_words(-(-count // 4) if count else 0, g, o).reshape(-1)[:count]
    if dtype.kind == "f":
        bits = (np.uint32(127) << np.uint32(23)) | (words & np.uint32(0x7FFFFF))
        u = bits.view(np.float32) - np.float32(1)
        out = u * (np.float32(high) - np.float32(low)) + np.float32(low)
        return out.astype(dtype)
    if dtype.kind in "iu":
        span = int(high) - int(low)
        return (words.astype(np.int64) % span + int(low)).astype(dtype)
    raise NotImplementedError(f"RandomUniform of {dtype} is not simulated")


# --- RandomUniform-8 ---------------------------------------------------------------------------
_OUT_TYPES = ("f16", "f32", "f64", "i32", "i64", "bf16")


def _uniform_infer(node: Node) -> list[ShapeType]:
    """``random_uniform.cpp``'s checks (their order and words) and the output shape, read
    from the ``output_shape`` Constant (all dimensions dynamic when it is not one)."""
    ts = node._in_type(0).get_type_name()
    need(ts in ("i32", "i64"), "Type of the input should be int32 or int64.")
    out_t = node._attrs["output_type"]
    need(out_t.get_type_name() in _OUT_TYPES and node._in_type(1) == out_t
         and node._in_type(2) == out_t,
         "'min_val' and 'max_val' should have the same type as 'out_type' attribute.")
    need(len(node._in_shape(0)) == 1, "The rank of the tensor defining output shape must be "
         "equal to 1.")
    for i, what in ((1, "Min"), (2, "Max")):
        shape = node._in_shape(i)
        need(len(shape) == 0 or shape == (1,),
             f"{what} value must be a scalar or one element 1D tensor.")
    lo, hi = constant_value(node._inputs[1]), constant_value(node._inputs[2])
    if lo is not None and hi is not None:
        a, b = np.ravel(lo)[0], np.ravel(hi)[0]
        need(a < b, f"Min value must be less than max value. Got min value: {_num(a)}, max "
             f"value: {_num(b)}")
    shape = constant_value(node._inputs[0])
    if shape is None:  # read at run time: every dimension dynamic (compiling is refused)
        return [(PartialShape.dynamic(node._in_shape(0)[0]), out_t)]  # type: ignore[list-item]
    return [(tuple(int(d) for d in shape), out_t)]


def _num(v: object) -> str:
    """A number as C++'s ``operator<<`` prints it in OpenVINO's messages (``2``, ``0.5``)."""
    return f"{float(v):g}" if isinstance(v, (float, np.floating)) else str(int(v))


def _uniform(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    a = node._attrs
    need(a["alignment"] == "tensorflow", "RandomUniform with alignment "
         f"'{a['alignment']}' is not simulated on ovlab (the 'tensorflow' one is)")
    shape = node._out_shapes[0]
    t = a["output_type"]
    np_t = np.float32 if t.get_type_name() == "bf16" else t.to_dtype()  # bf16 kept in f32
    lo, hi = np.ravel(xs[1])[0], np.ravel(xs[2])[0]
    vals = uniform(int(np.prod(shape)), np.dtype(np_t), lo, hi, a["global_seed"], a["op_seed"])
    return [vals.reshape(shape)]


register("RandomUniform", "opset8", _uniform_infer, _uniform,
         attrs=[Attr("output_type", "type"), Attr("op_seed", "int", 0),
                Attr("global_seed", "int", 0),
                Attr("alignment", "str", "tensorflow", ("tensorflow", "pytorch"))])


def random_uniform(output_shape: NodeInput, min_val: NodeInput, max_val: NodeInput,
                   output_type: str, global_seed: int = 0, op_seed: int = 0,
                   alignment: str = "tensorflow", name: str | None = None) -> Node:
    """RandomUniform-8 (``openvino.opset8``+): values in ``[min_val, max_val)`` of the shape
    ``output_shape`` holds, the same for the same seeds (both 0: a new draw each run)."""
    if global_seed < 0:
        raise RuntimeError(f"global_seed should be positive or 0. Got: {global_seed}")
    if op_seed < 0:
        raise RuntimeError(f"op_seed should be positive or 0. Got: {op_seed}")
    return make_node("RandomUniform", [output_shape, min_val, max_val],
                     {"output_type": output_type, "global_seed": global_seed,
                      "op_seed": op_seed, "alignment": alignment.lower()}, name)


# --- Multinomial-13 ----------------------------------------------------------------------------
def _multinomial_infer(node: Node) -> list[ShapeType]:
    a = node._attrs
    probs, samples = node._in_shape(0), node._in_shape(1)
    tp, ts = node._in_type(0), node._in_type(1)
    need(tp.is_real(), "Expected floating point type as element type for the 'probs' input.")
    need(ts.get_type_name() in ("i32", "i64"), "Expected integer type as element type for the "
         "'num_samples' input.")
    need(len(probs) == 2, "Input probabilities must be a 2D tensor.")
    need(len(samples) == 0 or samples == (1,), "Number of samples must be a scalar or "
         "one element 1D tensor.")
    out_t = a["convert_type"]
    n = constant_value(node._inputs[1])
    if n is None:  # read at run time: a dynamic length (compiling is refused)
        return [(PartialShape([probs[0], -1]), out_t)]  # type: ignore[list-item]
    count = int(np.ravel(n)[0])
    return [((probs[0], count), out_t)]


def _seed_seq(values: list[int], n: int = 624) -> np.ndarray:
    """``std::seed_seq{values...}.generate`` of ``n`` words (the C++ standard's algorithm)."""
    m32 = 0xFFFFFFFF
    v = [x & m32 for x in values]
    s, b = len(v), [0x8B8B8B8B] * n
    t = 11  # n >= 623
    p, q, m = (n - t) // 2, (n - t) // 2 + t, max(len(v) + 1, n)

    def mix(x: int) -> int:
        return (x ^ (x >> 27)) & m32

    for k in range(m):
        r1 = (1664525 * mix(b[k % n] ^ b[(k + p) % n] ^ b[(k - 1) % n])) & m32
        r2 = (r1 + (s if k == 0 else k % n + v[k - 1] if k <= s else k % n)) & m32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & m32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & m32
        b[k % n] = r2
    for k in range(m, m + n):
        r3 = (1566083941 * mix((b[k % n] + b[(k + p) % n] + b[(k - 1) % n]) & m32)) & m32
        r4 = (r3 - k % n) & m32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[k % n] = r4
    return np.array(b, np.uint32)


def mt19937_uniform(count: int, global_seed: int, op_seed: int) -> np.ndarray:
    """The CPU plugin's Multinomial samples: ``std::mt19937`` seeded with
    ``std::seed_seq{global_seed, op_seed}`` (both 0: from the clock), each word divided by
    the generator's maximum in float32."""
    g, o = _seeds(global_seed, op_seed)
    gen = np.random.MT19937(0)
    gen.state = {"bit_generator": "MT19937", "state": {"key": _seed_seq([g, o]), "pos": 624}}
    words = gen.random_raw(count).astype(np.uint32)
    return words.astype(np.float32) / np.float32(4294967295.0)


def _multinomial(node: Node, xs: list[np.ndarray], ctx: object) -> list[np.ndarray]:
    """The CPU plugin's kernel (``intel_cpu/src/nodes/multinomial.cpp``): float32 cumulative
    sums normalized per row, and each sample the first class whose cumulative share reaches
    it; without replacement the drawn class's share is taken out of the row and the rest
    renormalized, sample after sample."""
    a = node._attrs
    probs = xs[0].astype(np.float32)
    if a["log_probs"]:
        probs = np.exp(probs)
    rows, classes = probs.shape
    count = node._out_shapes[0][1]
    cdf = np.cumsum(probs, axis=1, dtype=np.float32)
    top = np.maximum(cdf[:, -1:], np.finfo(np.float32).tiny)
    cdf = (cdf / top).astype(np.float32)
    draws = mt19937_uniform(rows * count, a["global_seed"], a["op_seed"]).reshape(rows, count)
    out = np.zeros((rows, count), np.int64)
    for r in range(rows):
        c = cdf[r].copy()
        for j in range(count):
            hit = np.nonzero(draws[r, j] <= c)[0]
            if not len(hit):  # no class reached (rounding above 1): the kernel leaves 0
                continue
            k = int(hit[0])
            out[r, j] = k
            if not a["with_replacement"]:
                share = c[k] - c[k - 1] if k else c[0]
                c[k:] -= share
                c = (c / (np.float32(1) - share)).astype(np.float32)
    return [out.astype(a["convert_type"].to_dtype())]


register("Multinomial", "opset13", _multinomial_infer, _multinomial,
         attrs=[Attr("convert_type", "type"), Attr("with_replacement", "bool"),
                Attr("log_probs", "bool"), Attr("global_seed", "int", 0),
                Attr("op_seed", "int", 0)])


def multinomial(probs: NodeInput, num_samples: NodeInput, convert_type: str,
                with_replacement: bool, log_probs: bool, global_seed: int = 0,
                op_seed: int = 0, name: str | None = None) -> Node:
    """Multinomial-13 (``openvino.opset13``+): ``num_samples`` class indices per row of
    ``probs`` ``[batch, classes]``, drawn with their probabilities."""
    return make_node("Multinomial", [probs, num_samples],
                     {"convert_type": convert_type, "with_replacement": with_replacement,
                      "log_probs": log_probs, "global_seed": global_seed,
                      "op_seed": op_seed}, name)

