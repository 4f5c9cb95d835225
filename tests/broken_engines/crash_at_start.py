"""Broken engine: dies before reading anything, with a message on stderr."""

import sys

sys.stderr.write("broken engine: cannot load my meld tables\n")
sys.exit(3)
