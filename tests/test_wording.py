"""Failure wording has one home, ``pinochle_judge/wording.py``: no other module of the judgement,
the plugin, the step library or the export's record checks words a verdict, and a mismatch reads
the same in a table case and in a scenario.

The scan reads the source with ``ast`` and looks at the places a failure's text goes: what
``pytest.fail``/``skip``/``xfail`` are given, an ``AssertionError`` (or the suite's own failures)
raised, an ``assert``'s message, a ``Mismatch``, ``Charge``, ``Blame`` or ``Plan`` (its skip or
derived reason) built, a Then step's message
(``check``, ``expect``...), a terminal summary line, a report's ``longrepr``/``wasxfail``. Text
with words there (a string or f-string literal) is a sentence worded outside wording.py. The step
library is held tighter: no f-string and no string of several words passed to any call, outside
the step patterns of its decorators.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path
from typing import Any, cast

import pytest

from features.steps import then
from pinochle_judge import wording
from pinochle_judge.cases import TABLES_DIR, load_cases
from pinochle_judge.compare import compare
from pytest_pinochle.driver import RuleMismatch, Situation
from tests.test_layers import imports_of

ROOT = Path(__file__).resolve().parent.parent
JUDGE = ROOT / "pinochle_judge"
PLUGIN = ROOT / "pytest_pinochle"
TOOLS = ROOT / "pinochle_tools"
STEPS = ROOT / "features" / "steps"
HOME = JUDGE / "wording.py"

FAIL_CALLS = {"fail", "skip", "xfail"}
"""``pytest.<name>(reason)``."""
EXCEPTIONS = {"AssertionError", "RuleMismatch", "CaseFailed"}
"""Exceptions a failure is raised as."""
VALUES = {"Mismatch": 1, "Charge": 2, "Blame": 2, "Plan": 3}
"""Values carrying a failure's text, with how many arguments come before it (the place, the
rules; a plan's kind, request and expectation)."""
TEXT_KEYWORDS = ("text", "detail", "reason")
"""The keyword arguments of those values that carry the text."""
MESSAGE_CALLS = {"check", "check_all", "expect", "expect_at", "expect_meld", "write_line"}
"""Calls whose arguments are a Then step's message or a terminal summary line."""
REPORT_TEXT = {"longrepr", "wasxfail"}
"""Attributes of a test report that hold its failure or skip text."""
WORD = re.compile(r"[A-Za-z]{2,}")


def _worded(node: ast.AST | None) -> bool:
    """Whether a literal string in ``node`` holds a word (an f-string's text counts); a key
    (``{"total": 20}``, ``x["rule"]``, ``d.get("at")``) names a field, it is not text shown."""
    if node is None:
        return False
    keys: set[int] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Dict):
            keys.update(id(k) for k in n.keys if k is not None)
        elif isinstance(n, ast.Subscript):
            keys.add(id(n.slice))
        elif isinstance(n, ast.Call) and _name(n.func) == "get" and n.args:
            keys.add(id(n.args[0]))
    return any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and WORD.search(n.value)
        for n in ast.walk(node)
        if id(n) not in keys
    )


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _message_args(call: ast.Call) -> list[ast.expr]:
    """The arguments of a call that carry a failure's text (none: not such a call)."""
    func, name = call.func, _name(call.func)
    owner = func.value if isinstance(func, ast.Attribute) else None
    if isinstance(owner, ast.Name) and owner.id == "pytest" and name in FAIL_CALLS:
        return [*call.args, *(k.value for k in call.keywords)]
    if name in EXCEPTIONS:
        return [*call.args, *(k.value for k in call.keywords)]
    if name in VALUES:  # after the place (a path, a charge's rules and place): the text
        skip = VALUES[name]
        return [*call.args[skip:], *(k.value for k in call.keywords if k.arg in TEXT_KEYWORDS)]
    if name in MESSAGE_CALLS and call.args:
        return [call.args[-1]]  # the message comes last (a summary line: the only one)
    return []


def _several_words(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (len(node.value.split()) > 1 and bool(WORD.search(node.value)))
    )


def hand_worded(source: str, steps: bool = False) -> list[int]:
    """Lines where ``source`` words a failure itself. ``steps`` (the Then steps): also any call
    given an f-string or a string of several words, outside the decorators' step patterns."""
    tree = ast.parse(source)
    decorators = {
        id(n)
        for f in ast.walk(tree)
        if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        for d in f.decorator_list
        for n in ast.walk(d)
    }
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if any(map(_worded, _message_args(node))):
                found.add(node.lineno)
            if steps and id(node) not in decorators:
                args = [*node.args, *(k.value for k in node.keywords)]
                if any(isinstance(a, ast.JoinedStr) or _several_words(a) for a in args):
                    found.add(node.lineno)
        elif isinstance(node, ast.Assert) and _worded(node.msg):
            found.add(node.lineno)
        elif isinstance(node, ast.Assign) and _worded(node.value):
            targets = [t.attr for t in node.targets if isinstance(t, ast.Attribute)]
            if REPORT_TEXT.intersection(targets):
                found.add(node.lineno)
    return sorted(found)


def scanned() -> list[Path]:
    """The judgement's modules, the plugin's, the step library, the export (its record checks
    judge an engine's answers: ``pinochle_tools.export.run_check``) and one case's verdict
    (``pinochle_tools.case``), wording.py aside."""
    files = [*JUDGE.glob("*.py"), *PLUGIN.glob("*.py"), *STEPS.glob("*.py")]
    files += [TOOLS / "export.py", TOOLS / "case.py"]
    return sorted(f for f in files if f != HOME)


def test_every_module_that_uses_the_wording_is_scanned() -> None:
    """A module that takes sentences from wording.py could word one of its own: moving it to a
    folder the scan does not read must fail here, not leave the guard silently narrower."""
    users = {
        path
        for top in (
            "pinochle_judge",
            "pytest_pinochle",
            "pinochle_tools",
            "pinochle_fuzz",
            "features",
        )
        for path in (ROOT / top).rglob("*.py")
        if path != HOME and "pinochle_judge.wording" in imports_of(path)
    }
    assert users, "no module imports the wording: the scan below would prove nothing"
    assert not users - set(scanned()), sorted(
        str(p.relative_to(ROOT)) for p in users - set(scanned())
    )


@pytest.mark.parametrize("path", scanned(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_failure_is_worded_outside_wording_py(path: Path) -> None:
    lines = hand_worded(path.read_text(encoding="utf-8"), steps=path == STEPS / "then.py")
    shown = ", ".join(f"{path.relative_to(ROOT)}:{n}" for n in lines)
    assert not lines, f"failure text worded outside pinochle_judge/wording.py at {shown}"


HAND_WORDED = [
    'import pytest\npytest.fail(f"the engine says {x}")',
    'pytest.skip("engine does not play this")',
    'raise AssertionError("no question was put")',
    'raise RuleMismatch(f"the engine\'s answer has no {key!r}")',
    'assert ok, "the meld should total 20"',
    'assert ok, f"{a} should be {b}"',
    'out.append(Mismatch(label, f"expected {want!r}, got {got!r}"))',
    'return Charge(rules, at, "accepted by the engine")',
    'return Blame(f"trick {n} winner", rules, f"expected seat {want}, engine {got}")',
    'return Plan(SKIP, params, reason=f"no method {method}")',
    'situation.expect({"total": 20}, f"the meld should total {total}")',
    'situation.check(not extra, "the engine counts melds: " + ", ".join(extra))',
    'tr.write_line(f"skipped only: {names}")',
    'report.longrepr = f"wrong answer in {title}"',
]


@pytest.mark.parametrize("source", HAND_WORDED)
def test_the_scan_finds_a_hand_worded_failure(source: str) -> None:
    assert hand_worded(source) == [source.count("\n") + 1]


@pytest.mark.parametrize(
    "source",
    [
        '_refused(situation, "violation", {"rule": rule}, "this deck")',
        '_refused(situation, "first_illegal", found, f"action {index}")',
    ],
)
def test_the_scan_holds_the_steps_to_no_words_of_their_own(source: str) -> None:
    assert hand_worded(source) == []
    assert hand_worded(source, steps=True) == [1]


def test_the_scan_lets_pass_what_is_not_wording() -> None:
    source = textwrap.dedent(
        '''
        @then(parsers.re(r"the meld total is (?P<total>\\d+)"))
        def meld_total(situation, total):
            """The meld answer's total."""
            got = situation.field("total")
            situation.expect({"total": int(total)}, wording.meld_total(total, got))
            pytest.skip(plan.reason)
            raise RuleMismatch(wording.no_field(key))
            assert self.method is not None
            report.longrepr = (where, line, reason)
            text = ev.get("detail")
        '''
    )
    assert hand_worded(source, steps=True) == []


# --- one mismatch, one reading ----------------------------------------------------------------


def _scenario_failure() -> RuleMismatch:
    """The Then step "they are worth 5 points" failing on an engine that counts 3."""
    situation = Situation(engine=cast(Any, None), variant="double-deck")
    situation.method, situation.answer = "card_points", {"points": 3}
    with pytest.raises(RuleMismatch) as failure:
        then.worth(situation, "5")
    return failure.value


def test_a_scenario_and_a_table_case_show_a_mismatch_alike() -> None:
    failure = _scenario_failure()
    mismatches = compare("card_points", {"points": 5}, {"points": 3})
    block = wording.mismatch_lines(mismatches)
    assert block == "\n  mismatches:\n    - points: expected 5, got 3"
    assert block in str(failure)
    assert block in wording.case_failed("wrong answer in dd-pts", mismatches, None)
    assert str(failure).startswith("the cards are worth 5; the engine counts 3\n")


def test_a_failure_in_one_line_is_its_first_mismatch_or_its_sentence() -> None:
    mismatches = compare("card_points", {"points": 5}, {"points": 3})
    case = wording.case_failed(
        "wrong answer in dd-pts (t.yaml:3)\n  rules: double-deck", mismatches, "{}"
    )
    failure = _scenario_failure()
    scenario = wording.scenario_report(wording.WRONG_ANSWER, "f: s", failure, "{}")
    assert wording.one_line(case) == "points: expected 5, got 3"
    assert wording.one_line(scenario) == "the cards are worth 5; the engine counts 3"
    assert wording.one_line(scenario, "expected 5, engine 3") == "expected 5, engine 3"
    fault = "engine error in f: s\nengine 'x': crashed (exit 1)"
    assert wording.one_line(fault) == "crashed (exit 1)"


def test_a_failed_case_says_what_a_negative_case_is_in_words() -> None:
    # A negative case asks where the rule refuses or denies (a short run is no run): said so,
    # not in the suite's own jargon.
    case = next(c for c in load_cases([TABLES_DIR / "meld-double-deck.yaml"]) if c.negative)
    text = wording.case_text("wrong answer in", case, case.expect, {})
    assert f"tests {case.rule} (where the rule refuses or denies)" in text
    assert "(negative)" not in text
