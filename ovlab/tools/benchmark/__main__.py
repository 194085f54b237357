"""``python -m ovlab.tools.benchmark``: the same as ``ovlab benchmark``."""

import sys

from . import main

sys.exit(main())
