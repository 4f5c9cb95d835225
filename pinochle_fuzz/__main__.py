"""``python -m pinochle_fuzz ...``: the same as ``pinochle fuzz ...``."""

import sys

from .cli import main

sys.exit(main())
