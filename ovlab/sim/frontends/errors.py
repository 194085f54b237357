"""Errors of the file frontends, carrying the source lines OpenVINO prints for the same bad file.

OpenVINO raises a plain ``RuntimeError`` whose text is a chain of ``Exception from <file>:<line>:``
(or ``Check '...' failed at <file>:<line>:``) lines, the meaningful message, then one newline per
level. A frontend raises :class:`FrontendError` with the lines below the API's own; the public
entry point (``Core.read_model``, ``Core.compile_model``, ``ovlab.sim.frontends.read_model``) adds its
line and raises the ``RuntimeError`` a learner sees. Every text here was measured with
``openvino==2026.4.1`` on the same bad file (``tests/frontends/test_ir_errors.py`` compares).
Where OpenVINO's own line says little (a cycle is "Attempt to access node 2 that not in graph."),
ovlab keeps it and adds one line of its own starting with ``ovlab:``.
"""

from __future__ import annotations

from .. import errors as _errors

__all__ = ["FrontendError", "raise_public"]

# The lines OpenVINO's IR frontend prints (src/core/xml_util, src/frontends), measured.
XML_UTIL = "src/core/xml_util/src/xml_deserialize_util.cpp"
OPEN_FILE = ("Check 'util::directory_exists(path) || util::file_exists(path)' failed at "
             "src/frontends/common/src/frontend.cpp:117")
PARSE = "Check 'res.status == pugi::status_ok' failed at src/frontends/ir/src/input_model.cpp:219"
MODEL_READER = "src/inference/src/model_reader.cpp:148"
MODEL_READER_BYTES = "src/inference/src/model_reader.cpp:188"
NO_WEIGHTS = f"Check 'm_weights_provider' failed at {XML_UTIL}:887"
WEIGHTS_RANGE = ("Check 'is_valid_weights_range(m_weights_provider->size(), offset, size)' "
                 f"failed at {XML_UTIL}:900")
CONST_SIZE = f"{XML_UTIL}:911"
PORT_IN = f"{XML_UTIL}:183"
PORT_OUT = f"{XML_UTIL}:194"
NOT_IN_GRAPH = f"{XML_UTIL}:1018"
INCONSISTENT = f"{XML_UTIL}:1023"
NO_OP_TYPE = f"{XML_UTIL}:1286"
BAD_OPSET = f"{XML_UTIL}:1316"
ENUM = "Check 'false' failed at src/core/include/openvino/core/enum_names.hpp:34"
PARSE_VALUE = ("Check 'parsed.has_value()' failed at "
               "src/core/xml_util/include/openvino/xml_util/xml_deserialize_util.hpp:37")
UNSIGNED = "Check 'false' failed at src/frontends/common/src/frontend.cpp:53"
DIMENSION = "Check 'check_all_digits(dim_str)' failed at src/core/src/dimension.cpp:88"
MAP_FILE = "Check 'false' failed at src/frontends/common/src/frontend.cpp:47"
FRONTENDS = "ir onnx"  # what ovlab lists where OpenVINO lists "jax paddle onnx pytorch tflite ir tf"


class FrontendError(Exception):
    """A file could not be read; ``sources`` are OpenVINO's lines below the API's, innermost
    last, and ``message`` is the meaningful text."""

    def __init__(self, message: str, *sources: str) -> None:
        super().__init__(message)
        self.message = message
        self.sources = list(sources)


def raise_public(api: str, err: FrontendError, *extra_sources: str) -> RuntimeError:
    """The ``RuntimeError`` OpenVINO raises for ``err`` under the API ``api`` (``"read_model"``,
    ``"read_model_bytes"``, ``"compile_model_path"``)."""
    return _errors.ov_error(api, err.message, *extra_sources, *err.sources)
