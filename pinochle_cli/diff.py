"""``pinochle diff OLD.json NEW.json [--json]``: what changed between two conformance reports of
one engine, per case and per rule: fixed, broke, new, gone. Exit 1 when a case that passed in OLD
fails in NEW (a gate against regressions in CI), 0 otherwise; 2, with one line naming it, when a
file is not a report.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from pinochle_tools.site.changes import compare, diff_text, one_run
from pinochle_tools.site.reports import ReportError

REGRESSED = 1
"""The exit status when a case that passed in OLD fails or errors in NEW."""


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(
        prog="pinochle diff",
        description="What changed between two conformance reports (--conformance-report) of one "
        "engine: fixed, broke, new, gone. Exit 1 when a case that passed in OLD fails in NEW.",
    )
    out.add_argument("old", type=Path, metavar="OLD.json", help="the earlier report")
    out.add_argument("new", type=Path, metavar="NEW.json", help="the later report")
    out.add_argument("--json", action="store_true", help="print the comparison as JSON")
    return out


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    try:
        diff = compare(one_run(args.old), one_run(args.new))
    except ReportError as err:
        print(f"pinochle diff: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(diff.as_json(), indent=1))
    else:
        print(diff_text(diff))
    return REGRESSED if diff.regressed else 0
