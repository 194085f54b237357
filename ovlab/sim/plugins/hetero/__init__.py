"""HETERO (``src/plugins/hetero``): one model split over several devices by op affinity.

``plugin`` compiles and runs the subgraphs, ``split`` assigns affinities and cuts the model into
subgraphs, ``dot`` writes the ``OPENVINO_HETERO_VISUALIZE`` .dot files.
"""

from .plugin import HeteroBackend, HeteroPlugin, difficult_model, format_counters

__all__ = ["HeteroBackend", "HeteroPlugin", "difficult_model", "format_counters"]
