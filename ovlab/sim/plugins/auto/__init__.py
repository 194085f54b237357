"""AUTO and MULTI (``src/plugins/auto``): one plugin, registered under both names.

The rooms follow the plugin's own source: ``plugin`` (compile_model, properties), ``config``
(keys and validation), ``select`` (candidate lists, priorities), ``schedule`` (the CPU helper and
the handover), ``cumulative`` (CUMULATIVE_THROUGHPUT and MULTI), ``workers`` (worker request
pools), ``compiled`` (the compiled models) and ``log`` (AUTO's LOG_LEVEL lines).
"""

from .plugin import AutoPlugin

__all__ = ["AutoPlugin"]
