"""ovlab's own machinery, under the openvino-shaped modules at the root of ``ovlab/``.

Each folder here is one room (``docs/architecture.md`` draws them as layers, lowest first):
``errors``, ``overloads`` (base); ``graph`` (Model, ops, NumPy kernels, Layout, other opset
versions) and ``models`` (the zoo, digits); ``frontends`` (IR / ONNX files); ``hardware``
(devices, cost model, platforms); ``runtime`` (Core, CompiledModel, InferRequest on a SimPy
clock) and ``trace``; ``plugins`` (CPU/GPU/NPU, AUTO, MULTI, BATCH, HETERO); ``genai``
(OpenVINO GenAI, served as ``openvino_genai``); ``runner`` (serves ``openvino.*``),
``experiments``, ``workloads``, ``labtools``; ``calibration``; ``viz``; ``widgets``; and, using
the public API as learners do, ``exercises`` and ``preclass``.
"""
