"""``pinochle ask`` (a rules question answered by the reference engine with the rules that decided
it) and ``pinochle diff`` (what changed between two runs of one engine), and the report site's
view of the same change. In-process and small: no suite run."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from pinochle_cli import main
from pinochle_cli.ask import parser
from pinochle_tools.site import build_site
from pinochle_tools.site.changes import compare, kind_of, one_run

# --- ask ------------------------------------------------------------------------------------------


def ask(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["ask", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_meld_is_answered_with_each_items_rule(capsys: pytest.CaptureFixture[str]) -> None:
    # By hand: Ah Th Kh Qh Jh with hearts trump is a run (150, MELD-RUN) and Qs Jd a pinochle
    # (40, MELD-PINOCHLE); the run's own K-Q is not a royal marriage by default (MELD-TYPES).
    status, out, _ = ask(capsys, "meld", "--variant", "single-deck", "hand=Ah Th Kh Qh Jh Qs Jd")
    assert status == 2  # no trump: the params are incomplete
    status, out, _ = ask(
        capsys, "meld", "--variant", "single-deck", "hand=Ah Th Kh Qh Jh Qs Jd", "trump=h"
    )
    assert status == 0
    assert "total: 190" in out and "A♥ 10♥ K♥ Q♥ J♥ Q♠ J♦" in out
    assert "MELD-RUN (Run in trumps): meld item: run x1 = 150" in out
    assert "MELD-PINOCHLE" in out and "not scored: royal_marriage" in out
    # Under run_royal=both the run's K-Q scores a royal marriage as well: 150 + 40 + 40.
    status, out, _ = ask(
        capsys,
        "meld",
        "--variant",
        "single-deck",
        "--option",
        "run_royal=both",
        "--json",
        '{"hand": ["Ah","Th","Kh","Qh","Jh","Qs","Jd"], "trump": "h"}',
    )
    assert status == 0 and json.loads(out)["total"] == 230


def test_a_refused_play_and_call_name_their_rule(capsys: pytest.CaptureFixture[str]) -> None:
    # By hand: Qs led, spades held: follow and beat it (PLAY-CRAWL): As or Ks, not Js.
    params = '{"hand": ["As","Ks","Js","Ah"], "trick": ["Qs"], "trump": "h"}'
    status, out, _ = ask(capsys, "legal_plays", "--variant", "double-deck", params)
    assert status == 0 and "cards: A♠ K♠" in out and "PLAY-CRAWL (" in out
    calls = '{"dealer": 0, "calls": [{"seat": 0, "bid": 160}]}'
    status, out, _ = ask(capsys, "auction", "--variant", "single-deck", calls)
    assert status == 0 and "AUCTION-DEALER-OPENS" in out and "seat 0 bids 160" in out


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["meld", "--variant", "single-deck", "hand=Ah Zz", "trump=h"], "Zz"),
        (["meld", "--variant", "single-deck", '{"hand": ["Ah"]}'], "trump"),
        (["meld", "--variant", "single-deck", "--option", "run=15", "hand=Ah", "trump=h"], "run"),
        (["meld", "--variant", "nowhere", "hand=Ah", "trump=h"], "nowhere"),
        (["meld", "--variant", "single-deck", "{not json"], "PARAMS"),
        (["meld", "--variant", "single-deck", "hand"], "hand"),
    ],
)
def test_a_bad_question_is_one_line_naming_it(
    capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    status, out, err = ask(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and named in err


def test_the_help_examples_run_as_printed(capsys: pytest.CaptureFixture[str]) -> None:
    # The help shows them as written, each line fitting a terminal; a line ending in a backslash
    # goes on, as a shell reads it; each example answers (exit 0).
    shown = parser().format_help().partition("examples:\n")[2]
    assert all(len(line) <= 100 for line in shown.splitlines()), shown
    examples = shown.replace("\\\n", " ").splitlines()
    assert len(examples) == 3
    for line in examples:
        words = shlex.split(line)
        assert words[:2] == ["pinochle", "ask"], line
        status, out, err = ask(capsys, *words[2:])
        assert (status, err) == (0, ""), line
        assert out


# --- diff -----------------------------------------------------------------------------------------

TABLE = "features/tables/legal-plays-double-deck.yaml::"


def report(version: str, outcomes: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """A valid single report of engine ``eng`` with the given case -> (rule, outcome)."""
    cases = {
        TABLE + name: {"outcome": out, "rule": rule, "uses": [], "rules": [rule]}
        for name, (rule, out) in outcomes.items()
    }
    totals = {
        s: sum(o == s for _, o in outcomes.values())
        for s in ("passed", "failed", "errored", "skipped")
    }
    return {
        "format": 4,
        "engine": {"command": "eng", "name": "eng", "version": version},
        "variants": "all",
        "totals": totals,
        "rules": {},
        "diagnosis": [],
        "cases": cases,
    }


OLD = {
    "a": ("PLAY-CRAWL", "passed"),
    "b": ("PLAY-CRAWL", "failed"),
    "c": ("PLAY-FOLLOW", "passed"),
    "d": ("PLAY-FOLLOW", "passed"),
    "e": ("PLAY-LEAD", "errored"),
    "g": ("PLAY-CRAWL", "skipped"),
}
NEW = {
    "a": ("PLAY-CRAWL", "errored"),
    "b": ("PLAY-CRAWL", "passed"),
    "g": ("PLAY-CRAWL", "skipped"),
    "c": ("PLAY-FOLLOW", "skipped"),
    "e": ("PLAY-LEAD", "errored"),
    "f": ("PLAY-LEAD", "passed"),
}


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(report("1", OLD)), encoding="utf-8")
    new.write_text(json.dumps(report("2", NEW)), encoding="utf-8")
    return old, new


def test_kinds_of_change() -> None:
    assert kind_of("passed", "failed") == kind_of("passed", "errored") == "broke"
    assert kind_of("failed", "passed") == kind_of("errored", "passed") == "fixed"
    assert kind_of(None, "passed") == "new" and kind_of("failed", None) == "gone"
    assert kind_of("passed", "skipped") == kind_of("failed", "errored") == "changed"
    assert kind_of("failed", "failed") is None


def test_a_case_declared_only_in_one_run_is_new_or_gone_not_changed(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    undeclared = report("1", {"c": ("PLAY-LEAD", "skipped")})
    undeclared["cases"][TABLE + "c"]["undeclared"] = True
    old.write_text(json.dumps(undeclared), encoding="utf-8")
    new.write_text(json.dumps(report("2", {"c": ("PLAY-LEAD", "passed")})), encoding="utf-8")
    assert [c.kind for c in compare(one_run(old), one_run(new)).cases] == ["new"]
    assert [c.kind for c in compare(one_run(new), one_run(old)).cases] == ["gone"]
    assert compare(one_run(old), one_run(old)).cases == ()


def test_diff_names_each_change_per_case_and_rule_and_gates_regressions(
    runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = runs
    diff = compare(one_run(old), one_run(new))
    assert {c.name: c.kind for c in diff.cases} == {
        "a": "broke",
        "b": "fixed",
        "c": "changed",
        "d": "gone",
        "f": "new",
    }
    crawl = next(row for row in diff.rules() if row["rule"] == "PLAY-CRAWL")
    assert (crawl["before"], crawl["after"], crawl["broke"], crawl["fixed"]) == ("1/2", "1/2", 1, 1)
    # Passed of judged, as the site's cells and the badge count: a skip is not judged.
    follow = next(row for row in diff.rules() if row["rule"] == "PLAY-FOLLOW")
    assert (follow["before"], follow["after"]) == ("2/2", "-")
    assert main(["diff", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "1 broke, 1 fixed, 1 new, 1 gone, 1 changed" in out
    assert "PLAY-CRAWL  a  passed -> errored" in out
    # Backwards, b broke and a was fixed; as JSON, the same counts.
    assert main(["diff", str(new), str(old), "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["counts"]["broke"] == 1 and document["counts"]["fixed"] == 1
    assert document["regressed"] is True
    # A run against itself: nothing changed, exit 0.
    assert main(["diff", str(old), str(old)]) == 0
    assert "no case changed its outcome" in capsys.readouterr().out


@pytest.mark.parametrize("broken", ["missing", "not json", "not a report"])
def test_diff_of_a_bad_file_is_one_line_and_exit_2(
    runs: tuple[Path, Path], broken: str, capsys: pytest.CaptureFixture[str]
) -> None:
    old, _ = runs
    bad = old.parent / "bad.json"
    if broken != "missing":
        bad.write_text("{" if broken == "not json" else '{"format": 4}', encoding="utf-8")
    assert main(["diff", str(old), str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "bad.json" in err


def test_the_report_site_shows_what_changed_between_two_runs_of_one_engine(
    runs: tuple[Path, Path], tmp_path: Path
) -> None:
    old, new = runs
    build_site([old, new], tmp_path / "site")
    index = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert 'href="changes.html"' in index and "1 broke" in index
    page = (tmp_path / "site" / "changes.html").read_text("utf-8")
    assert 'id="broke"' in page and 'href="rules/PLAY-CRAWL.html#a"' in page
    # Two different engines are side by side, not a change: no comparison (and none left over).
    other = json.loads(new.read_text("utf-8"))
    other["engine"] = {"command": "other", "name": "other", "version": "1"}
    new.write_text(json.dumps(other), encoding="utf-8")
    build_site([old, new], tmp_path / "site")
    assert not (tmp_path / "site" / "changes.html").exists()
    assert 'href="changes.html"' not in (tmp_path / "site" / "index.html").read_text("utf-8")
