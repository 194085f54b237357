"""``openvino.utils.input_validation`` (served from ``ovlab.utils.input_validation``) against
the real wheel's: the same result or the same ``UserInputError`` message for scalars of every
NumPy type against every type family and condition, and for attribute dictionaries."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

real = pytest.importorskip("openvino.utils.input_validation")

from ovlab.utils import input_validation as lab  # noqa: E402

VALUES = [t(v) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64,
                         np.float32, np.float64) for v in (0, 3, 64)] + [
    np.int8(-16), np.float64(-0.5), "text", 7, 2.5]
FAMILIES = [np.integer, np.unsignedinteger, np.floating, np.str_, np.float64]
CONDS = [None, lambda v: v % 2 == 0, lambda v: v > 0]


def outcome(fn, *args):
    try:
        return ("value", fn(*args))
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        return (type(e).__name__, str(e))


@pytest.mark.parametrize(("value", "family", "cond"),
                         list(itertools.product(VALUES, FAMILIES, CONDS)))
def test_check_value_as_the_wheel(value, family, cond):
    if isinstance(value, str) and cond is not None and family is not np.str_:
        cond = None  # (a str fails the type check first on both; no condition runs on it)
    assert outcome(lab._check_value, "Op", "a", value, family, cond) == \
        outcome(real._check_value, "Op", "a", value, family, cond)


ATTRS = {"mode": "bilinear", "coefficients": [1, 2, 3], "width": np.uint32(4),
         "alpha": np.float32(0.5), "empty": []}


@pytest.mark.parametrize(("key", "family", "required"), list(itertools.product(
    [*ATTRS, "missing"], FAMILIES, [False, True])))
def test_check_valid_attribute_as_the_wheel(key, family, required):
    assert outcome(lab.check_valid_attribute, "Op", ATTRS, key, family, None, required) == \
        outcome(real.check_valid_attribute, "Op", ATTRS, key, family, None, required)


def test_check_valid_attributes_and_predicates_as_the_wheel():
    reqs = [("width", False, np.unsignedinteger, None), ("mode", True, np.str_, None),
            ("coefficients", True, np.integer, lambda x: x > 0)]
    assert outcome(lab.check_valid_attributes, "Op", ATTRS, reqs) == \
        outcome(real.check_valid_attributes, "Op", ATTRS, reqs) == ("value", True)
    reqs.append(("beta", True, np.floating, None))
    assert outcome(lab.check_valid_attributes, "Op", ATTRS, reqs) == \
        outcome(real.check_valid_attributes, "Op", ATTRS, reqs)
    for v in (np.int8(-1), np.uint8(0), np.float32(2)):
        assert lab.is_positive_value(v) == real.is_positive_value(v)
        assert lab.is_non_negative_value(v) == real.is_non_negative_value(v)
    for v in ([1, 2], [1, 2.0], 5):
        assert outcome(lab.assert_list_of_ints, v, "ints") == \
            outcome(real.assert_list_of_ints, v, "ints")
