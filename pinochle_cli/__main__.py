"""``python -m pinochle_cli``: the ``pinochle`` command."""

from pinochle_cli import main

raise SystemExit(main())
