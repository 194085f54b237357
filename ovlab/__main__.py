"""``python -m ovlab``: the ``ovlab`` console script (``ovlab.cli``)."""

import sys

from .cli import main

sys.exit(main())
