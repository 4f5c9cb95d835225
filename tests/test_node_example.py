"""The Node.js example adapter passes the double-deck suite for the four methods it implements.

Everything else is skipped with the reason (a method it does not have, an option value it does
not declare); nothing fails or errors.
"""

from __future__ import annotations

import re
import shutil
from typing import Any

import pytest

from tests.suite_runs import SuiteRun, run_suite, start_suite

ADAPTER = "pinochle_adapters/examples/node/adapter.js"
IMPLEMENTED_TABLES = ("meld", "legal-plays", "trick-winner", "card-points")
OTHER_TABLES = {
    "auction": "auction",
    "scoring": "score_hand",
    "game-end": "score_hand",
    "hands": "play_hand",
}
"""Tables of methods the example does not implement, with the method each calls."""
OPTION_SKIP = re.compile(
    r"engine does not declare option \S+=\S+"
    r"|engine plays \S+=\S+(, \S+=\S+)* \(the case needs \S+=\S+(, \S+=\S+)*\): .+"
)
"""An option value the engine does not play (undeclared: it plays the default; or another value
declared as its house rule) where the reference engine finds that it changes the answer."""
SKIP_REASON = re.compile(rf"(Skipped: )?(no method \w+|{OPTION_SKIP.pattern})")

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH"),
    pytest.mark.slow,  # the suite against the Node.js engine, in a child pytest
]


def prefetch() -> None:
    """Start the run at once (tests/conftest.py)."""
    start_suite(f"node {ADAPTER}", ("double-deck",))


@pytest.fixture(scope="module")
def node_run() -> SuiteRun:
    """The double-deck suite against the Node example, with the outcome of every item."""
    return run_suite(f"node {ADAPTER}", ("double-deck",))


def _table_items(outcomes: dict[str, dict[str, Any]], table: str) -> dict[str, dict[str, Any]]:
    prefix = f"features/tables/{table}-double-deck.yaml::"
    return {node: o for node, o in outcomes.items() if node.startswith(prefix)}


def test_node_example_passes(node_run: SuiteRun) -> None:
    bad = sorted(node_run.items("failed") | node_run.items("errored"))
    assert not bad, f"the Node example fails {bad}:\n{node_run.tail()}"
    assert node_run.returncode == 0, node_run.tail()


@pytest.mark.parametrize("table", IMPLEMENTED_TABLES)
def test_implemented_methods_run(node_run: SuiteRun, table: str) -> None:
    """Every case of the four methods runs and passes, unless it sets an undeclared option."""
    items = _table_items(node_run.outcomes, table)
    assert items, f"no {table} cases collected"
    assert any(o["outcome"] == "passed" for o in items.values())
    for node, o in items.items():
        if o["outcome"] == "skipped":
            assert OPTION_SKIP.fullmatch(o.get("skip", "")), (node, o)
        else:
            assert o["outcome"] == "passed", (node, o)


@pytest.mark.parametrize("table", sorted(OTHER_TABLES))
def test_other_methods_skipped_with_reason(node_run: SuiteRun, table: str) -> None:
    items = _table_items(node_run.outcomes, table)
    assert items, f"no {table} cases collected"
    for node, o in items.items():
        assert o["outcome"] == "skipped", (node, o)
        assert o.get("skip", "").endswith(f"no method {OTHER_TABLES[table]}"), (node, o)


def test_every_skip_has_a_reason(node_run: SuiteRun) -> None:
    for node, o in node_run.outcomes.items():
        if o["outcome"] == "skipped":
            assert SKIP_REASON.fullmatch(o.get("skip", "")), (node, o)
