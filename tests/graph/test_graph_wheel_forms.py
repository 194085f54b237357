"""The wheel's constructor forms and overloads in the graph layer (issue 23): Model(other),
Model() refused as the wheel refuses it, Constant's two sharing defaults and its tensor view,
set_batch by Dimension, OVAny items, utils.classproperty."""

import warnings

import numpy as np
import pytest

import ovlab
import ovlab.opset as ops
from ovlab.op import Constant
from ovlab.properties._base import OVAny
from ovlab.utils import classproperty, deprecatedclassproperty


def _model() -> ovlab.Model:
    x = ops.parameter([1, 2], np.float32, name="x")
    return ovlab.Model([ops.relu(x)], [x], "m")


def test_model_copy_is_a_second_handle_on_the_same_model():
    """``Model(other)`` shares the model, as the wheel's (measured on 2026.4.1: a name set
    through the copy shows on the original)."""
    model = _model()
    twin = ovlab.Model(model)
    assert twin.get_parameters()[0] is model.get_parameters()[0]
    twin.set_friendly_name("renamed")
    assert model.get_friendly_name() == "renamed"


def test_model_without_results_is_refused_like_the_wheel():
    with pytest.raises(TypeError, match="incompatible constructor arguments"):
        ovlab.Model()
    x = ops.parameter([2], np.float32)
    model = ovlab.Model(result=ops.relu(x), parameters=[x], name="one")
    assert model.get_friendly_name() == "one" and len(model.outputs) == 1


def test_constant_defaults_differ_by_overload():
    """An array is copied unless shared_memory=True; a Tensor is shared unless
    shared_memory=False (the wheel's two overloads' defaults)."""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert not np.shares_memory(Constant(a).get_data(), a)
    assert np.shares_memory(Constant(a, shared_memory=True).get_data(), a)
    t = ovlab.Tensor(a, shared_memory=True)
    assert np.shares_memory(Constant(t).get_data(), a)
    assert not np.shares_memory(Constant(t, shared_memory=False).get_data(), a)


def test_constant_tensor_view_shares_the_value():
    c = Constant(np.arange(6, dtype=np.int32).reshape(2, 3))
    view = c.get_tensor_view()
    assert isinstance(view, ovlab.Tensor) and view.get_element_type() == ovlab.Type.i32
    assert np.shares_memory(view.data, c.get_data()) and np.shares_memory(c.tensor_view.data,
                                                                            c.data)
    with pytest.raises(ValueError, match="read-only"):
        view.data[0, 0] = 1
    with pytest.raises(NotImplementedError, match="bf16 constant"):
        Constant(ovlab.Type.bf16, [2], [1.0, 2.0]).get_tensor_view()


def test_set_batch_by_dimension_keyword():
    x = ops.parameter([1, 3], np.float32, name="x")
    x.set_layout(ovlab.Layout("NC"))
    model = ovlab.Model([ops.relu(x)], [x])
    ovlab.set_batch(model, dimension=ovlab.Dimension(4))
    assert list(model.input(0).get_shape()) == [4, 3]
    ovlab.set_batch(model, batch_size=2)
    assert list(model.input(0).get_shape()) == [2, 3]
    with pytest.raises(RuntimeError, match="static dimension"):
        ovlab.set_batch(model, dimension=ovlab.Dimension(1, 8))


def test_ovany_items_of_list_and_dict_values():
    """As in the wheel (measured on 2026.4.1): items and len() read the value; setting an item
    works on a copy, so the held value does not change; a value without items raises."""
    seq, mapping = OVAny([1, 2, 3]), OVAny({"a": 1})
    assert (len(seq), seq[0], seq[-1], len(mapping), mapping["a"]) == (3, 1, 3, 1, 1)
    seq[1] = 5
    mapping["b"] = 2
    assert seq.value == [1, 2, 3] and mapping.value == {"a": 1}
    with pytest.raises(AttributeError, match="'int' object has no attribute '__getitem__'"):
        OVAny(3)[0]
    with pytest.raises(IndexError):
        seq[10] = 1


def test_classproperty_takes_func_and_classmethods():
    class Sample:
        _v = 7

        @classproperty
        def plain(cls):
            return cls._v

        both = classproperty(classmethod(lambda cls: cls._v * 2))

        @deprecatedclassproperty(name="Sample.old", version="2030")
        def old(cls):
            return cls._v

    assert Sample.plain == 7 and Sample().plain == 7 and Sample.both == 14
    assert classproperty(func=lambda cls: 1).__get__(None, Sample) == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert Sample.old == 7
    assert "Sample.old is deprecated and will be removed in version 2030" in \
        str(caught[0].message)
