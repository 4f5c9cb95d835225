"""The differential fuzzer: it finds each planted bug the fixed suite misses, within a bounded
number of rounds and with a minimal reproducer; the reference finds nothing; a seed fixes the
questions; the exit status. How fast it finds them is a figure of benchmarks/bench_fuzz.py."""

from __future__ import annotations

import dataclasses
import functools
import io
import itertools
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from pinochle_adapters import sdk
from pinochle_adapters.client import Engine, load_server, open_engine, open_in_process
from pinochle_adapters.reference import ReferenceEngine
from pinochle_fuzz import campaign, cli
from pinochle_fuzz.campaign import Disagreement
from pinochle_fuzz.cases import write_case
from pinochle_fuzz.questions import Question, refusable
from pinochle_judge.cases import load_table
from reference_engine.variants import load_rules
from tests import capability_engines
from tests.house_engines import HOUSES, HouseEngine

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


def hunt(engine: Engine, methods: list[str] | None = None) -> campaign.Report:
    """A whole campaign (every declared variant, every declared method or those of
    ``methods``) until the first shrunk finding.

    Shrinking is bounded by a count of questions, not by a time limit, so a loaded machine gets
    the same minimal reproducer, later."""
    if methods is None:
        return campaign_of(engine, HUNT_ROUNDS, max_findings=1)
    assert engine.info is not None
    targets = campaign.targets(engine.info)
    return campaign.run(
        engine, targets, methods, SEED, hands=HUNT_ROUNDS, shrink_budget=SHRINK, max_findings=1
    )


SHARED_STREAM = [m for m in campaign.ROUND_METHODS if m not in campaign.OWN_STREAM]
"""The methods drawing their questions from the seed's shared stream: without the others (whole
tricks and games, on streams of their own), a campaign asks them the very same questions, at a
fraction of the cost, for a bug of a rule function."""


def campaign_of(engine: Engine, rounds: int, **kw: Any) -> campaign.Report:
    """A campaign of ``rounds`` rounds with SEED over all the engine declares."""
    return campaign.run_declared(engine, SEED, hands=rounds, shrink_budget=SHRINK, **kw)


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
        report = hunt(engine, SHARED_STREAM)
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
        report = hunt(engine, SHARED_STREAM)
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
        report = hunt(engine, SHARED_STREAM)
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
        report = hunt(engine, SHARED_STREAM)
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
        report = campaign.run_declared(engine, 7, hands=150)
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


def test_same_seed_and_engine_write_byte_identical_reproducers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shrinking is derandomized: two campaigns with one seed against one engine write the same
    case file, byte for byte (with seed 6, an unseeded search ends on another trick almost every
    run)."""
    monkeypatch.chdir(tmp_path)
    written = []
    for _ in range(2):
        with engine_of("last_seat_never_wins") as engine:
            assert engine.info is not None
            targets = campaign.targets(engine.info, ["online"])
            report = campaign.run(
                engine,
                targets,
                ["trick_winner"],
                6,
                hands=500,
                shrink_budget=SHRINK,
                max_findings=1,
            )
        (finding,) = report.findings
        path = write_case(finding.disagreement, Path("out"), "engine", 6, in_process=True)
        written.append(path.read_bytes())
        path.unlink()
    assert written[0] == written[1]


@pytest.mark.parametrize("method", ["play_hand", "play_game"])
def test_answers_read_from_the_generators_hands_are_the_references_replay(method: str) -> None:
    """Whole hands and games carry the reference's answer read from the states the generator
    played: it is the answer the reference gives replaying the question's params."""
    info = {
        "variants": [{"id": "double-deck"}, {"id": "online", "options": {"rounds": ["off", "5"]}}],
        "methods": [method],
    }
    targets = campaign.targets(info)
    for q in campaign.asked_questions(targets, [method], seed=SEED, rounds=40):
        assert q.answer is not None
        assert q.answer == getattr(ReferenceEngine(), method)(q.params), q.params


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
        report = hunt(engine, SHARED_STREAM)
    assert report.findings, report.disagreed
    found = report.findings[0].disagreement
    assert (found.question.method, found.question.variant) == ("auction", "online")
    assert found.actual["violation"]["rule"] == "AUCTION-STEP"


def test_one_deviation_in_two_variants_gives_one_reproducer_the_smaller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last card of a full trick never wins, in single-deck and in online alike: the
    answers part at a point the same rule decides in both, so one deviation, one case written,
    the smaller of the two variants' reproducers; the counts per variant stay in the summary."""
    engine = "tests.fuzz_engines.last_seat_never_wins:server"
    with engine_of("last_seat_never_wins") as planted:
        assert planted.info is not None
        targets = campaign.targets(planted.info, ["single-deck", "online"])
        small = campaign.ShrinkBudget(questions=40, seconds=None)
        report = campaign.run(
            planted, targets, ["trick_winner"], SEED, hands=150, shrink_budget=small
        )
    assert {variant for variant, _ in report.rules} == {"single-deck", "online"}, report.rules
    (finding,) = report.findings
    assert finding.seen == sum(report.rules.values())
    assert finding.disagreement.key == "TRICK-WINNER"
    out = io.StringIO()
    monkeypatch.setattr(campaign, "run", functools.partial(campaign.run, shrink_budget=small))
    argv = ["--engine", engine, "--in-process", "--method", "trick_winner", "--seed", "1"]
    for variant in ("single-deck", "online"):
        argv += ["--variant", variant]
    assert cli.main([*argv, "--hands", "150", "--out", str(tmp_path)], out) == 1
    assert len(list(tmp_path.glob("*.yaml"))) == 1, out.getvalue()
    assert out.getvalue().count("DISAGREEMENT") == 1


# --- what is asked: declarations, capabilities, refusable figures, boundaries -----------------


def house_engine(name: str, bugs: str | None = None) -> Engine:
    """A house-rule engine of tests.house_engines: in-process when clean; with planted bugs
    (patched into the reference's functions, which the fuzzer's oracle also calls) a subprocess."""
    if bugs is None:
        return open_in_process(sdk.Server(HouseEngine(HOUSES[name])))
    return open_engine(f"{sys.executable} -m tests.house_engines {name} {bugs}")


@pytest.mark.parametrize("name", sorted(HOUSES))
def test_only_the_house_values_declared_are_asked(name: str) -> None:
    """An engine declaring one value of an option is asked that value, never the default."""
    house = HOUSES[name]
    info = {"variants": HouseEngine(house).variants, "methods": list(campaign.ROUND_METHODS)}
    targets = campaign.targets(info)
    methods = campaign.declared_methods(info)
    for q in campaign.asked_questions(targets, methods, seed=SEED, rounds=60):
        assert dict(q.options) == house.options, q


def test_several_declared_values_vary_and_undeclared_options_stay_at_the_default() -> None:
    info = {
        "variants": [{"id": "double-deck", "options": {"target": ["1000", "500"]}}],
        "methods": ["score_hand"],
    }
    targets = campaign.targets(info)
    asked = [dict(q.options) for q in campaign.asked_questions(targets, ["score_hand"], 4, 80)]
    assert {o.get("target") for o in asked} == {"1000", "500"}
    assert all(set(o) <= {"target"} for o in asked)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(HOUSES))
def test_clean_house_engine_reports_nothing(name: str) -> None:
    """The house engines (the reference, honestly declared): no report in a bounded
    campaign (benchmarks/bench_fuzz.py runs them 30 s each)."""
    with house_engine(name) as engine:
        report = campaign_of(engine, 250)
    assert not report.findings and not report.rules, report.rules


class UnsupportedWinner(ReferenceEngine):
    """Answers "unsupported" (-32001) to every trick_winner question."""

    def trick_winner(self, params: dict[str, Any]) -> Any:
        raise sdk.Unsupported("trick_winner of four cards only")


def test_unsupported_is_a_skip_not_a_disagreement() -> None:
    with open_in_process(sdk.Server(UnsupportedWinner())) as engine:
        report = campaign_of(engine, 40)
    assert report.skipped["trick_winner"] == 40 and not report.disagreed
    assert not report.findings


@pytest.mark.slow  # a fuzz campaign against each capability engine
@pytest.mark.parametrize("name", ["implicit-forced-bid", "meld-totals"])
def test_capabilities_are_translated_by_the_suites_code(name: str) -> None:
    """Engines speaking the other model, declared: no disagreement (asked through
    pinochle_judge.capabilities); undeclared, the fuzzer finds the difference."""
    with open_in_process(capability_engines.server(name)) as engine:
        report = campaign_of(engine, 300)
    assert not report.findings, [f.disagreement.mismatches for f in report.findings]
    with open_in_process(capability_engines.server(name, declared=False)) as engine:
        report = campaign_of(engine, 300, max_findings=1)
    assert report.findings


def test_score_hand_never_asks_the_closed_list_of_errata_score_hand_inputs() -> None:
    info = {
        "variants": [
            {"id": "double-deck", "options": {"throw_in": ["voluntary", "none"]}},
            {"id": "single-deck", "options": {}},
            {"id": "online", "options": {"rounds": ["off", "5"]}},
        ],
        "methods": ["score_hand"],
    }
    targets = campaign.targets(info)
    seen = set()
    for q in campaign.asked_questions(targets, ["score_hand"], seed=SEED, rounds=3000):
        rules = load_rules(q.variant, q.options)
        assert refusable(rules, q.input) is None, q
        seen.add((q.variant, q.input["outcome"]))
    assert seen == {
        ("double-deck", "played"),
        ("double-deck", "thrown_in"),
        ("double-deck", "meld_short"),
        ("double-deck", "no_marriage"),
        ("single-deck", "played"),
        ("online", "played"),
        ("online", "thrown_in"),
    }


def test_auctions_bid_one_off_each_step_at_every_threshold() -> None:
    """Double-deck: after a high bid of 56 to 60, bids of 61 to 64 (refused: above 60 only
    fives) and 65; online: raises of 49, 51 and 60 (refused) and 50 over the high bid."""
    info = {"variants": [{"id": "double-deck"}, {"id": "online"}], "methods": ["auction"]}
    targets = campaign.targets(info)
    pairs: dict[str, set[tuple[int, int]]] = {"double-deck": set(), "online": set()}
    for q in campaign.asked_questions(targets, ["auction"], seed=SEED, rounds=1500):
        bids = [c["bid"] for c in q.input["calls"] if "bid" in c]
        pairs[q.variant].update(itertools.pairwise(bids))
    dd = pairs["double-deck"]
    assert {b for a, b in dd if 56 <= a <= 60} >= {61, 62, 63, 64, 65}
    assert {b - a for a, b in pairs["online"]} >= {49, 50, 51, 60}


def test_whole_hands_play_held_cards_that_break_a_binding_obligation() -> None:
    info = {"variants": [{"id": "double-deck"}], "methods": ["play_hand"]}
    targets = campaign.targets(info)
    rules = set()
    for q in campaign.asked_questions(targets, ["play_hand"], seed=SEED, rounds=1500):
        illegal = q.answer["first_illegal"] if q.answer else None
        if illegal and illegal["rule"].startswith("PLAY-"):
            rules.add(illegal["rule"])
    assert rules >= {"PLAY-FOLLOW", "PLAY-CRAWL", "PLAY-TRUMP-VOID"}


# --- bugs planted in house-rule and whole-hand-only engines -----------------------------------

THREE_BUGS = "arounds-missing-suit+step-on-high-bid+no-overtrump"


@pytest.mark.slow
def test_three_planted_bugs_give_one_reproducer_per_rule() -> None:
    """dd-no-bid-to-win with three bugs at once: exactly one reproducer for each of the three
    rules, the counts per rule in the report (figures: benchmarks/bench_fuzz.py)."""
    with house_engine("dd-no-bid-to-win", THREE_BUGS) as engine:
        report = campaign_of(engine, 400, max_findings=3)
    rules = sorted(f.disagreement.rule for f in report.findings)
    assert rules == ["AUCTION-STEP", "MELD-AROUNDS", "PLAY-OVERTRUMP"], report.rules
    assert {rule for _, rule in report.rules} == set(rules)
    step = next(f.disagreement for f in report.findings if f.disagreement.rule == "AUCTION-STEP")
    bids = [c.get("bid") for c in step.question.input.get("calls", [])]
    assert any(isinstance(b, int) and b > 60 and b % 5 for b in bids), step.question.input


@pytest.mark.slow
def test_whole_hand_only_engine_with_the_crawl_bug_is_found() -> None:
    """An engine declaring play_hand and play_game only, which lets a player under a partner's
    winning card follow low: found, with an action list ending at the crawl it lets pass."""
    command = f"{sys.executable} -m tests.whole_hand_engines partner-no-crawl"
    with open_engine(command) as engine:
        assert engine.info is not None
        # Whole games draw from a stream of their own: play_hand is asked the same questions.
        targets = campaign.targets(engine.info)
        report = campaign.run(
            engine, targets, ["play_hand"], SEED, hands=3000, shrink_budget=SHRINK, max_findings=1
        )
        assert report.findings, report.rules
        found = report.findings[0].disagreement
        assert (found.question.method, found.rule) == ("play_hand", "PLAY-CRAWL")
        actions = found.question.input["actions"]
        assert agrees_with(engine, found, actions=actions[:-1])


@pytest.mark.slow
def test_whole_hand_only_engine_without_over_trumping_is_found() -> None:
    """The rarest obligation to reach in a random hand: a void player, in a trick already
    trumped, holding a trump above it and one below. The generator stops there and offers the
    lower trump (seed 1: found in round 2,283 of double-deck, about 3 s)."""
    command = f"{sys.executable} -m tests.whole_hand_engines no-overtrump"
    with open_engine(command) as engine:
        assert engine.info is not None
        targets = campaign.targets(engine.info, ["double-deck"])
        report = campaign.run(
            engine, targets, ["play_hand"], SEED, hands=4000, shrink_budget=SHRINK, max_findings=1
        )
        assert report.findings, report.rules
        assert report.findings[0].disagreement.rule == "PLAY-OVERTRUMP"


@pytest.mark.slow
def test_game_reproducer_is_the_hand_where_the_answers_part() -> None:
    """play_game, a set costing the bidders nothing, met in the second hand of a game of three
    from 0-0 (seed 2): the reproducer is that hand alone, dealt first from the scores carried to
    it, its action list cut where the hand is scored (one action fewer agrees)."""
    command = f"{sys.executable} -m tests.whole_hand_engines set-costs-nothing"
    with open_engine(command) as engine:
        assert engine.info is not None
        targets = campaign.targets(engine.info)
        report = campaign.run(
            engine, targets, ["play_game"], 2, hands=10, shrink_budget=SHRINK, max_findings=1
        )
        assert report.findings, report.rules
        found = report.findings[0].disagreement
        assert (found.question.method, found.rule) == ("play_game", "SCORE-SET")
        given = found.question.input
        assert len(given["hands"]) == 1 and given["scores"] != [0, 0], given["scores"]
        assert agrees_with(engine, found, actions=[given["actions"][0][:-1]])


def test_shrinking_seeds_hypothesis_through_its_database_format() -> None:
    """``campaign.shrink`` hands Hypothesis the recorded choices as a saved example
    (``hypothesis.database.choices_to_bytes``) and patches nothing; this fails loudly if a
    Hypothesis release moves or changes that format."""
    from hypothesis.database import choices_from_bytes, choices_to_bytes

    assert choices_from_bytes(choices_to_bytes([3, 0, 7])) == (3, 0, 7)


def test_replay_of_a_broken_file_is_one_line_and_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A broken replay file is a usage error (2) in one line, not the status of "still
    disagrees" (1)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("area: tricks\ncases: [\n", encoding="utf-8")
    argv = ["--engine", REFERENCE, "--in-process", "--replay", str(bad)]
    assert cli.main(argv, io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("pinochle fuzz: ") and "bad.yaml" in err and len(err.splitlines()) == 1


def test_out_naming_a_file_is_refused_before_the_campaign(tmp_path: Path) -> None:
    """An ``--out`` that cannot hold findings is refused before any question is asked, so no
    finding is lost after the campaign."""
    taken = tmp_path / "taken"
    taken.write_text("keep me", encoding="utf-8")
    argv = ["--engine", REFERENCE, "--in-process", "--hands", "5", "--out", str(taken)]
    assert cli.main(argv, io.StringIO()) == 2
    assert taken.read_text(encoding="utf-8") == "keep me"


class NotJson:
    """An in-process engine that answers initialize, then every question with a line that is
    not JSON."""

    def __init__(self) -> None:
        self.reference = load_server(REFERENCE)

    def handle_line(self, line: str) -> str:
        if '"initialize"' in line:
            return str(self.reference.handle_line(line))
        return "not json"


def test_an_engine_that_fails_to_answer_is_an_error_not_a_finding() -> None:
    """A fault of the engine (here a reply that is not JSON) is counted as errored, charged to no
    rule and written as no case: the rules it plays are not what failed."""
    with open_in_process(NotJson(), timeout=5) as engine:
        report = campaign.run_declared(engine, 3, hands=2)
    assert sum(report.errored.values()) > 0 and report.faults
    assert not report.findings and not report.rules and not report.disagreed
