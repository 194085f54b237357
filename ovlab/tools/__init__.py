"""``openvino.tools``' place in ovlab: tools written over the public API.

``ovlab.tools.benchmark`` is ``ovlab benchmark`` (benchmark_app's options and report on virtual
devices), where the real wheel keeps ``openvino.tools.benchmark``. Under the runner,
``openvino.tools.*`` is the installed wheel's own pure-Python source run on the served
``openvino`` (``ovlab/sim/runner/wheel_tools.py``), so ``benchmark_app`` itself runs unchanged.
"""
