"""The OpenVINO version ovlab emulates, and ovlab's own: the lowest room, so the IR writer, the
model cache and ``ovlab benchmark`` can stamp files and logs without importing the runtime or
the package's facade."""

OPENVINO_VERSION = "2026.4.1"
BUILD_NUMBER = f"{OPENVINO_VERSION}-ovlab"
__version__ = "0.1.0"


def get_version() -> str:
    """The OpenVINO version ovlab emulates, stamped with ovlab's own."""
    return f"{OPENVINO_VERSION}-ovlab-{__version__}"
