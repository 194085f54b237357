"""``python -m ovlab``: the ``ovlab`` command (``run``, ``benchmark``)."""

import sys

from ovlab.cli import main

sys.exit(main())
