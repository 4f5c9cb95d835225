"""``pinochle suite export``: every scenario-table case with its expected answer, as one JSON file.

For engine authors who drive the cases from their own test runner instead of Python (as
toml-test's decoder tests are plain files): each case is a ready protocol request and the answer
the rules require, with the comparison rules spelled out.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import reference_engine

from .cases import Case, load_cases, parse_card_list
from .protocol import PROTOCOL_VERSION

FORMAT_VERSION = 1
"""Version of the export file's layout."""

COMPARISON: dict[str, Any] = {
    "summary": (
        "A case passes when every key under `expect` matches the engine's result for `method` "
        "called with `params`. Keys of the result that `expect` does not name are ignored."
    ),
    "default": (
        "exact: equal JSON values; an integer equals the same number as a float; objects nested "
        "inside an expected value must have exactly the expected keys; lists compare item by "
        "item and must have the same length"
    ),
    "card_lists": (
        "wherever a list of card codes is compared, order does not matter: the lists compare as "
        "multisets (identical cards count)"
    ),
    "keys": [
        {
            "method": "legal_plays",
            "key": "cards",
            "compare": "set",
            "description": "the distinct codes must be the same set",
        },
        {
            "method": "*",
            "key": "melds",
            "compare": "multiset",
            "fields": ["id", "count", "points", "suit"],
            "complete": True,
            "description": (
                "each expected entry matches one reported entry on the fields the entry gives "
                "(suit only where given); every reported entry must be matched (complete)"
            ),
        },
        {
            "method": "*",
            "key": "violation",
            "compare": "given-keys",
            "description": "null must be null; otherwise only the keys given (usually rule)",
        },
        {
            "method": "*",
            "key": "first_illegal",
            "compare": "given-keys",
            "description": "null must be null; otherwise only the keys given (usually rule)",
        },
    ],
    "skipping": (
        "run a case only when the engine implements its method, its variant and every option "
        "value in params.options; otherwise report it skipped"
    ),
}
"""How to compare an answer with ``expect``: the rules of adapters.cases.compare, as data."""

_CARD_KEYS = {"cards", "hand", "deck", "trick"}


def _cards_normalised(key: str | None, value: Any) -> Any:
    """Expected values with card lists written as strings turned into lists of codes."""
    if key in _CARD_KEYS and isinstance(value, str):
        return parse_card_list(value)
    if key == "hands" and isinstance(value, list):
        return [parse_card_list(h) if isinstance(h, str) else h for h in value]
    if isinstance(value, dict):
        return {k: _cards_normalised(k, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cards_normalised(key, v) for v in value]
    return value


def case_record(case: Case) -> dict[str, Any]:
    """One case as exported: a ready request and the answer the rules require."""
    return {
        "id": case.id,
        "file": case.file,
        "line": case.line,
        "area": case.area,
        "rules": list(case.rules),
        "negative": case.negative,
        "variant": case.variant,
        "options": dict(case.options),
        "method": case.method,
        "params": case.request,
        "expect": _cards_normalised(None, case.expect),
        "why": case.why,
    }


def export(cases: Sequence[Case]) -> dict[str, Any]:
    """The export document for these cases."""
    return {
        "format": FORMAT_VERSION,
        "protocol": PROTOCOL_VERSION,
        "generator": f"pinochle-spec {reference_engine.__version__}",
        "comparison": COMPARISON,
        "cases": [case_record(c) for c in cases],
    }


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pinochle suite", description="Work with the conformance suite's cases."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    out = commands.add_parser(
        "export", help="write every scenario-table case with its expected answer as JSON"
    )
    out.add_argument("output", help="file to write, or - for standard output")
    out.add_argument(
        "--variant", action="append", default=[], help="only this variant's cases (repeatable)"
    )
    out.add_argument(
        "--method", action="append", default=[], help="only this method's cases (repeatable)"
    )
    out.add_argument(
        "--tables", nargs="+", type=Path, help="tables to read (default: features/tables/*.yaml)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """``pinochle suite export OUT``: argv are the words after ``suite``."""
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        cases = load_cases(args.tables)
    except ValueError as e:  # CaseError, DataFileError: they name the file and line
        print(f"pinochle suite export: {e}", file=sys.stderr)
        return 1
    if args.variant:
        cases = [c for c in cases if c.variant in args.variant]
    if args.method:
        cases = [c for c in cases if c.method in args.method]
    text = json.dumps(export(cases), indent=1, ensure_ascii=False) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {len(cases)} cases to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
