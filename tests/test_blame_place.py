"""A hand's divergence (``pinochle_judge.blame.Blame``) carries its place as data: the fuzzer's
oracle reads the seat, trick and field from it, never from the words shown (``Blame.at``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from pinochle_fuzz.oracle import differences, expectation, likely_rules, meld_seat, played_answer
from pinochle_fuzz.questions import Question, play_hand_question
from pinochle_judge import wording
from pinochle_judge.blame import HAND, HAND_ORDER, hand_divergence
from pinochle_judge.verdicts import Where
from reference_engine.variants import load_rules
from tests.test_blame import HAND as ANSWER
from tests.test_blame import changed


@pytest.mark.parametrize("key", [k for k in HAND_ORDER if k not in ("meld", "tricks")])
def test_each_field_of_a_hand_is_placed_as_data(key: str) -> None:
    value = ANSWER[key]
    other = [*value, 1] if isinstance(value, list) else f"not {value}"
    found = hand_divergence(ANSWER, changed(**{key: other}))
    assert found is not None and found.where == Where(HAND, key, key)


def test_a_seat_meld_and_a_trick_are_placed_by_seat_and_trick() -> None:
    found = hand_divergence(ANSWER, changed(meld=[20, 10, 40, 4]))
    assert found is not None and found.where == Where(HAND, "meld", "meld", seat=2)
    tricks = [ANSWER["tricks"][0], {**ANSWER["tricks"][1], "winner": 3}]
    found = hand_divergence(ANSWER, changed(tricks=tricks))
    assert found is not None and found.where == Where(HAND, "trick winner", "winner", trick=1)
    found = hand_divergence(ANSWER, changed(tricks=[*ANSWER["tricks"], tricks[0]]))
    assert found is not None and found.where == Where(HAND, "tricks", "tricks")


def _hands() -> Iterator[tuple[Question, dict[str, Any]]]:
    """Whole single-deck hands the generator plays through their tricks (a few fixed seeds),
    with the reference's answer."""
    rules = load_rules("single-deck", {})
    for seed in range(40):
        choose = random.Random(seed).randrange
        params, played, extra = play_hand_question(rules, choose)
        answer = played_answer(played, extra)
        tricks = answer.get("tricks")
        if extra is None and isinstance(tricks, list) and len(tricks) >= 3 and answer["meld"]:
            yield Question("play_hand", "single-deck", {}, params, answer), answer


def _wrong_answers(question: Question, answer: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Engine answers leaving the hand at a seat's meld, a trick's winner, the contract, each
    alone and with a play refused after it (the oracle then looks for the earlier divergence)."""
    plays = [i for i, a in enumerate(question.input["actions"]) if "play " in a]
    tricks = answer["tricks"]
    late = {"index": plays[9], "rule": "PLAY-FOLLOW", "message": "no"}
    early = {"index": plays[1], "rule": "PLAY-FOLLOW", "message": "no"}
    wrong_meld = {**answer, "meld": [m + 10 * (s == 1) for s, m in enumerate(answer["meld"])]}
    wrong_trick = {**answer, "tricks": [{**tricks[0], "winner": (tricks[0]["winner"] + 1) % 4}]}
    wrong_trick["tricks"] += tricks[1:]
    wrong_contract = {**answer, "contract": answer["contract"] + 10}
    for wrong in (wrong_meld, wrong_trick, wrong_contract):
        yield wrong
        for refused in (late, early):
            yield {**wrong, "legal": False, "first_illegal": refused}


def _judged() -> list[tuple[tuple[str, ...], int | None]]:
    found = []
    for question, answer in _hands():
        expect = expectation("play_hand", answer)
        for got in _wrong_answers(question, answer):
            mismatches = differences("play_hand", expect, got)
            found.append(
                (likely_rules(question, expect, got, mismatches), meld_seat(question, expect, got))
            )
    return found


def _misleading(where: Where) -> str:
    """Words naming another place than ``where``: a reader that parses them goes astray."""
    return "trick 1 winner" if where.field == "meld" else "seat 3 meld"


def test_the_oracle_reads_the_place_never_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    honest = _judged()
    assert len(honest) >= 9 and 1 in {seat for _rules, seat in honest}
    monkeypatch.setattr(wording, "blame_at", _misleading)
    found = hand_divergence(ANSWER, changed(meld=[0, 10, 30, 4]))
    assert found is not None and found.at == "trick 1 winner"
    assert _judged() == honest
