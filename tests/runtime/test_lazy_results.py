"""``infer()`` results are computed on first read, and still hold what that inference saw.

A timing loop of sync inferences (OpenVINO's sync_benchmark sample, ``benchmark_app -api sync``)
never reads its results: computing them took 0.37 s of NumPy per googlenet inference. The
results must still be exactly what the real runtime returns, even when the request's input
buffer is written in place afterwards.
"""

import numpy as np
import pytest

import ovlab
from ovlab import zoo


def _request(core):
    cm = core.compile_model(zoo.load("small-cnn"), "CPU")
    shape = list(cm.input(0).get_shape())
    rng = np.random.default_rng(0)
    a, b = (rng.random(shape, dtype=np.float32) for _ in range(2))
    return cm, cm.create_infer_request(), a, b


def test_unread_results_cost_no_numerics(monkeypatch):
    core = ovlab.Core("laptop", seed=0)
    _, req, a, _ = _request(core)
    calls = []
    evaluate = type(req)._lazy_results

    def spy(self):
        out = evaluate(self)
        calls.append(out._list is None)
        return out

    monkeypatch.setattr(type(req), "_lazy_results", spy)
    for _ in range(5):
        req.infer({0: a})
    assert calls == [True] * 5, "infer() computed results that nobody read"


def test_results_keep_their_inputs_after_in_place_writes():
    core = ovlab.Core("laptop", seed=0)
    cm, req, a, b = _request(core)
    want_a = cm.create_infer_request().infer({0: a})[0].copy()
    want_b = cm.create_infer_request().infer({0: b})[0].copy()
    r1 = req.infer({0: a})
    req.get_input_tensor().data[:] = b  # the same buffer r1 was run on
    r2 = req.infer()
    r3 = req.infer()
    req.get_input_tensor().data[:] = a
    assert np.array_equal(r1[0], want_a)
    assert np.array_equal(r2[0], want_b) and np.array_equal(r3[0], want_b)
    assert len(r1) == 1 and list(r1.to_dict().values())[0] is r1[0]


def test_shared_inputs_are_read_before_infer_returns():
    core = ovlab.Core("laptop", seed=0)
    cm, req, a, b = _request(core)
    want_a = cm.create_infer_request().infer({0: a})[0].copy()
    x = a.copy()
    r = req.infer({0: x}, share_inputs=True)
    x[...] = b  # the caller's own array, changed after infer() returned
    assert np.array_equal(r[0], want_a)


def test_a_kept_input_tensor_written_after_infer_does_not_reach_earlier_results():
    core = ovlab.Core("laptop", seed=0)
    cm, req, a, b = _request(core)
    want = [cm.create_infer_request().infer({0: x})[0].copy() for x in (a, b)]
    tensor = req.get_input_tensor()  # kept: later writes go straight into the request's buffer
    results = []
    for x in (a, b):
        tensor.data[:] = x
        results.append(req.infer())
    assert all(np.array_equal(r[0], w) for r, w in zip(results, want, strict=True))


def test_an_output_tensor_taken_before_infer_shows_each_inference():
    core = ovlab.Core("laptop", seed=0)
    cm, req, a, b = _request(core)
    out = req.get_output_tensor(0)
    for x in (a, b):
        req.infer({0: x})
        assert np.array_equal(out.data, cm.create_infer_request().infer({0: x})[0])


def test_the_same_array_written_in_place_between_starts_is_seen_by_each_inference():
    """The converted copy of an array passed again is reused only while its bytes are the same
    (the seed scripts pass one array to every request): a write in place, even -0.0 over 0.0,
    reaches the next inference, and an array of another dtype is converted again."""
    core = ovlab.Core("laptop", seed=0)
    cm, req, a, b = _request(core)
    x = np.zeros_like(a)
    want = [cm.create_infer_request().infer({0: v.copy()})[0].copy() for v in (x, a, b)]
    queue = ovlab.AsyncInferQueue(cm, 2)
    got: dict[int, np.ndarray] = {}
    queue.set_callback(lambda r, i: got.__setitem__(i, r.results[0].copy()))
    queue.start_async({0: x}, 0)
    x[...] = a  # the same array object, new values
    queue.start_async({0: x}, 1)
    queue.start_async({0: x}, 2)  # unchanged: the kept copy
    x[...] = b
    queue.start_async({0: x}, 3)
    queue.wait_all()
    for i, w in enumerate([want[0], want[1], want[1], want[2]]):
        assert np.array_equal(got[i], w), f"inference {i} did not see the array as it was"
    z = np.zeros(a.shape, np.float32)
    kept = cm._input_cache
    req.infer({0: z})
    first = kept[0][2]
    z.reshape(-1)[0] = -0.0  # equal as a float, another bit pattern: a change
    req.infer({0: z})
    assert kept[0][2] is not first and np.signbit(kept[0][2].reshape(-1)[0])
    again = kept[0][2]
    req.infer({0: z})
    assert kept[0][2] is again, "an unchanged array was converted again"


def test_an_array_that_cannot_change_is_reused_without_comparing_its_bytes(monkeypatch):
    """An array over an immutable ``bytes`` object (how the seed experiments make their dummy
    input) can never be written, so passing it again reuses its converted copy without the
    byte compare; a read-only array that owns its data can be made writeable again and is still
    compared, and so is any writeable one."""
    from ovlab.sim.runtime import infer_request

    core = ovlab.Core("laptop", seed=0)
    cm, req, a, _b = _request(core)
    frozen = np.frombuffer(a.tobytes(), dtype=a.dtype).reshape(a.shape)
    readonly = a.copy()
    readonly.flags.writeable = False
    assert infer_request._frozen(frozen) and not infer_request._frozen(readonly)
    assert not infer_request._frozen(a)
    with pytest.raises(ValueError):
        frozen.flags.writeable = True  # NumPy's promise the cache relies on
    want = cm.create_infer_request().infer({0: a.copy()})[0].copy()
    compares = []
    real = infer_request._same_bytes
    monkeypatch.setattr(infer_request, "_same_bytes",
                        lambda *args: compares.append(1) or real(*args))
    for x in (frozen, readonly):
        compares.clear()
        for _ in range(3):
            assert np.array_equal(req.infer({0: x})[0], want)
        assert len(compares) == (0 if x is frozen else 2)
    readonly.flags.writeable = True  # it owns its data: allowed, so it had to be compared
    readonly[...] = 0
    assert not np.array_equal(req.infer({0: readonly})[0], want)


def test_compiled_model_call_shares_inputs_and_still_defers_numerics(monkeypatch):
    """``compiled_model(x)`` (share_inputs=True by default, as the wheel's) in a timing loop
    that never reads its results (openvino_notebooks' performance-tricks run 1000 of them)."""
    core = ovlab.Core("laptop", seed=0)
    cm, _, a, b = _request(core)
    want = cm.create_infer_request().infer({0: a})[0].copy()
    calls = []
    evaluate = ovlab.InferRequest._lazy_results

    def spy(self):
        out = evaluate(self)
        calls.append(out is not None and out._list is None)
        return out

    monkeypatch.setattr(ovlab.InferRequest, "_lazy_results", spy)
    x = a.copy()
    results = [cm(x) for _ in range(3)]
    x[...] = b  # the caller's array, changed after the calls returned
    assert calls == [True] * 3
    assert all(np.array_equal(r[0], want) for r in results)
