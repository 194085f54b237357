"""``openvino.Extension``: the base class of extensions.

An empty ``Extension`` adds nothing, so ``Core.add_extension`` accepts it as OpenVINO does;
extension libraries and custom ops (``OpExtension``, ``Op``) cannot run on ovlab, whose kernels
are ``ovlab.opset``'s NumPy ops, and ``add_extension`` says so.
"""


class Extension:
    """Base class of OpenVINO extensions (nothing to load on ovlab)."""

    def __init__(self) -> None:
        pass
