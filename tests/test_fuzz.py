"""The differential fuzzer: it finds each planted bug the fixed suite misses, within a bounded
number of rounds and with a minimal reproducer; the reference finds nothing; a seed fixes the
questions; the exit status. How fast it finds them is a figure of benchmarks/bench_fuzz.py."""

from __future__ import annotations

import dataclasses
import io
import sys
from pathlib import Path

import pytest
import yaml

from pinochle_adapters.client import Engine, load_server, open_engine, open_in_process
from pinochle_fuzz import campaign, cli
from pinochle_fuzz.campaign import Disagreement
from pinochle_fuzz.questions import Question
from pytest_pinochle.tables import load_table

REFERENCE = "pinochle_adapters.reference:server"
SEED = 1


def engine_of(name: str) -> Engine:
    """A planted-bug engine (or the reference) loaded in-process."""
    target = REFERENCE if name == "reference" else f"tests.fuzz_engines.{name}:server"
    return open_in_process(load_server(target))


HUNT_ROUNDS = 5000
"""Rounds a campaign may ask before giving up: with SEED, the slowest planted bug here is found
in about 2,600 (the same seed asks the same questions, so the bound is a count, not a time)."""


SHRINK = campaign.ShrinkBudget(questions=400, seconds=None)
"""Shrinking by count: the same seed gives the same reproducer on any machine."""


def hunt(engine: Engine) -> campaign.Report:
    """A whole campaign (every declared variant and method) until the first shrunk finding.

    Shrinking is bounded by a count of questions, not by a time limit, so a loaded machine gets
    the same minimal reproducer, later."""
    assert engine.info is not None
    return campaign.run(
        engine,
        campaign.targets(engine.info),
        campaign.declared_methods(engine.info),
        SEED,
        hands=HUNT_ROUNDS,
        shrink_budget=SHRINK,
        max_findings=1,
    )


def agrees_with(engine: Engine, found: Disagreement, **change: object) -> bool:
    """Whether the engine agrees with the reference once the reproducer's input is changed."""
    question = found.question
    smaller = dataclasses.replace(question, input={**question.input, **change}, answer=None)
    return campaign.disagreement(engine, smaller) is None


# --- planted bugs ------------------------------------------------------------------------------


@pytest.mark.slow
def test_third_identical_trick_is_found_minimal() -> None:
    """Three identical cards in a trick of three: the reproducer is those three cards."""
    with engine_of("third_identical") as engine:
        report = hunt(engine)
    assert report.findings, report.disagreed
    found = report.findings[0].disagreement
    assert (found.question.method, found.rule) == ("trick_winner", "TRICK-IDENTICAL")
    trick = found.question.input["trick"]
    assert len(trick) == 3 and len(set(trick)) == 1
    assert found.expect == {"winner": 0} and found.actual == {"winner": 2}


@pytest.mark.slow
def test_run_plus_extra_royal_is_found_minimal() -> None:
    """A run, four kings and queens of trumps and a marriage: dropping any card agrees."""
    with engine_of("run_royal_quad") as engine:
        report = hunt(engine)
        assert report.findings, report.disagreed
        found = report.findings[0].disagreement
        assert (found.question.method, found.rule) == ("meld", "MELD-ROYAL-MARRIAGE")
        hand = found.question.input["hand"]
        for i in range(len(hand)):
            assert agrees_with(engine, found, hand=hand[:i] + hand[i + 1 :]), hand[i]


@pytest.mark.slow
def test_online_raise_after_partner_pass_is_found_minimal() -> None:
    """Online auction: the reproducer ends at the refused raise (dropping it agrees)."""
    with engine_of("online_raise_50") as engine:
        report = hunt(engine)
        assert report.findings, report.disagreed
        found = report.findings[0].disagreement
        assert (found.question.method, found.question.variant) == ("auction", "online")
        calls = found.question.input["calls"]
        assert found.actual["violation"]["rule"] == "AUCTION-STEP"
        assert found.expect["legal"] is True
        assert agrees_with(engine, found, calls=calls[:-1])


@pytest.mark.slow
def test_identical_copy_in_whole_hand_is_found_with_shortest_action_list() -> None:
    """play_hand: the action list ends with the trick the engine gives away (one action fewer
    agrees), and the trick's first and third cards are identical."""
    with engine_of("third_copy_takes") as engine:
        report = hunt(engine)
        assert report.findings, report.disagreed
        found = report.findings[0].disagreement
        assert (found.question.method, found.rule) == ("play_hand", "TRICK-IDENTICAL")
        actions = found.question.input["actions"]
        assert agrees_with(engine, found, actions=actions[:-1])
        last = found.expect["tricks"][-1]
        assert last["cards"][0] == last["cards"][2] and actions[-1].startswith("play ")


# --- no false alarms, reproducibility, the command ---------------------------------------------


def test_reference_as_engine_under_test_disagrees_nowhere() -> None:
    """The reference server, results checked as any engine's, against the reference."""
    with engine_of("reference") as engine:
        assert engine.info is not None
        report = campaign.run(
            engine,
            campaign.targets(engine.info),
            campaign.declared_methods(engine.info),
            seed=7,
            hands=150,
        )
    assert not report.findings and not report.disagreed
    assert set(report.asked) == set(campaign.ROUND_METHODS)
    assert all(n == 150 for n in report.asked.values())


def test_same_seed_asks_the_same_questions() -> None:
    with engine_of("reference") as engine:
        assert engine.info is not None
        targets = campaign.targets(engine.info)
        methods = campaign.declared_methods(engine.info)
        asked: list[Question] = []
        campaign.run(engine, targets, methods, seed=5, hands=6, on_question=asked.append)
    again = list(campaign.asked_questions(targets, methods, seed=5, rounds=6))
    other = list(campaign.asked_questions(targets, methods, seed=6, rounds=6))
    assert [q.params for q in asked] == [q.params for q in again]
    assert [q.params for q in asked] != [q.params for q in other]


def test_only_declared_variants_options_and_methods_are_asked() -> None:
    info = {
        "variants": [{"id": "single-deck", "options": {"pass_cards": ["4"]}}],
        "methods": ["meld", "trick_winner", "shutdown"],
    }
    targets = campaign.targets(info)
    methods = campaign.declared_methods(info)
    assert [t.variant for t in targets] == ["single-deck"] and methods == ["meld", "trick_winner"]
    for q in campaign.asked_questions(targets, methods, seed=3, rounds=200):
        assert q.variant == "single-deck" and q.method in methods
        assert set(q.options.items()) <= {("pass_cards", "4")}
    with pytest.raises(campaign.FuzzError):
        campaign.targets(info, options={"pass_cards": "3"})


@pytest.mark.slow
def test_command_writes_a_case_and_exits_1_then_replays(tmp_path: Path) -> None:
    out = io.StringIO()
    engine = "tests.fuzz_engines.third_identical:server"
    argv = ["--engine", engine, "--in-process", "--method", "trick_winner", "--seed", "1"]
    status = cli.main([*argv, "--hands", "2000", "--out", str(tmp_path)], out)
    text = out.getvalue()
    assert status == 1, text
    assert "trick_winner" in text and "TRICK-IDENTICAL" in text and "hands/s" in text
    (path,) = tmp_path.glob("*.yaml")
    head = path.read_text()
    assert "to be checked against the rules by hand" in head and "--replay" in head
    (case,) = load_table(path)  # the suite's loader accepts it: schema, cards, params
    assert case.method == "trick_winner" and case.rule == "TRICK-IDENTICAL"
    assert yaml.safe_load(head)["cases"][0]["expect"] == {"winner": 0}
    replayed = io.StringIO()
    assert cli.main(["--engine", engine, "--in-process", "--replay", str(path)], replayed) == 1
    assert cli.main(["--engine", REFERENCE, "--in-process", "--replay", str(path)], out) == 0


def test_command_exits_0_when_nothing_disagrees(tmp_path: Path) -> None:
    out = io.StringIO()
    argv = ["--engine", REFERENCE, "--in-process", "--hands", "20", "--seed", "2"]
    assert cli.main([*argv, "--out", str(tmp_path)], out) == 0, out.getvalue()
    assert not list(tmp_path.iterdir())


def test_command_refuses_an_undeclared_option() -> None:
    argv = ["--engine", REFERENCE, "--in-process", "--option", "run=99", "--hands", "1"]
    assert cli.main(argv, io.StringIO()) == 2


@pytest.mark.slow
def test_planted_bug_found_through_a_subprocess_engine() -> None:
    """The same campaign through the pipe (the bug found in the fewest rounds here)."""
    command = f"{sys.executable} -m tests.fuzz_engines.online_raise_50"
    with open_engine(command) as engine:
        report = hunt(engine)
    assert report.findings, report.disagreed
    found = report.findings[0].disagreement
    assert (found.question.method, found.question.variant) == ("auction", "online")
    assert found.actual["violation"]["rule"] == "AUCTION-STEP"
