"""Game records (records.py): a played game replays clean; each kind of tampering is reported."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from reference_engine import bots, records
from reference_engine.errors import PinochleError
from reference_engine.game import Game
from reference_engine.variants import load_rules
from specdata import load_schema


def played_record(variant: str, seed: int, options: dict[str, str] | None = None) -> dict[str, Any]:
    rules = load_rules(variant, options)
    state = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and len(state.history) < 60:
        state.apply(bots.simple(state.hand, rng))
    return records.record(state)


@pytest.fixture(scope="module")
def dd_record() -> dict[str, Any]:
    return played_record("double-deck", 5)


@pytest.mark.parametrize(
    ("variant", "options"),
    [("double-deck", None), ("single-deck", {"auction_end": "four-passes"}), ("online", None)],
)
def test_a_played_game_replays_clean(variant: str, options: dict[str, str] | None) -> None:
    data = played_record(variant, 3, options)
    jsonschema.validate(data, load_schema("game-record.schema.json"))
    json.loads(json.dumps(data))  # plain JSON
    report = records.replay(data)
    assert report["ok"], records.describe(report)
    assert report["hands"] == len(data["hands"]) and report["winner"] == data["winner"]
    assert data["winner"] in (0, 1)


def test_every_hand_records_seats_and_figures(dd_record: dict[str, Any]) -> None:
    for n, hand in enumerate(dd_record["hands"], 1):
        assert hand["number"] == n
        assert hand["dealer"] == (n - 1) % 4  # dealer 0 deals first, then clockwise
        assert sum(len(h) for h in hand["deal"]) == 80
        assert hand["scores"] == [
            s + d
            for s, d in zip(
                dd_record["hands"][n - 2]["scores"] if n > 1 else [0, 0], hand["delta"], strict=True
            )
        ]
        if hand["outcome"] == "played":
            assert sum(hand["card_points"]) == 50


def test_changed_figure_is_a_mismatch(dd_record: dict[str, Any]) -> None:
    data = copy.deepcopy(dd_record)
    data["hands"][0]["delta"][1] += 10
    data["hands"][1]["meld"][2] += 1
    report = records.replay(data)
    assert not report["ok"] and report["first_illegal"] is None
    fields = {(m["hand"], m["field"]) for m in report["mismatches"]}
    assert fields == {(1, "delta"), (2, "meld")}


def test_illegal_action_is_reported_with_index_and_rule(dd_record: dict[str, Any]) -> None:
    data = copy.deepcopy(dd_record)
    actions = data["hands"][1]["actions"]
    play_at = next(i for i, a in enumerate(actions) if a["action"].startswith("play "))
    # A bid in place of the first lead: the auction is over (AUCTION-END).
    actions[play_at]["action"] = "bid 300"
    report = records.replay(data)
    assert report["first_illegal"]["hand"] == 2
    assert report["first_illegal"]["index"] == play_at
    assert report["first_illegal"]["rule"] == "AUCTION-END"
    assert report["hands"] == 1 and not report["ok"]


def test_wrong_seat_is_reported(dd_record: dict[str, Any]) -> None:
    data = copy.deepcopy(dd_record)
    first = data["hands"][0]["actions"][0]
    first["seat"] = (first["seat"] + 1) % 4
    report = records.replay(data)
    assert report["first_illegal"]["rule"] == "AUCTION-TURN"
    assert report["first_illegal"]["index"] == 0


def test_changed_deal_is_reported(dd_record: dict[str, Any]) -> None:
    data = copy.deepcopy(dd_record)
    deal = data["hands"][0]["deal"]
    # Swap two different cards between seats 0 and 1: still the deck, but not the seeded deal.
    j = next(j for j, c in enumerate(deal[1]) if c != deal[0][0])
    deal[0][0], deal[1][j] = deal[1][j], deal[0][0]
    report = records.replay(data)
    assert {"hand": 1, "field": "deal"}.items() <= report["mismatches"][0].items()
    deal[0][0] = "Ah" if deal[0][0] != "Ah" else "As"
    report = records.replay(data)
    assert report["first_illegal"]["rule"] == "DEAL-HANDS"


def test_truncated_hand_and_wrong_winner(dd_record: dict[str, Any]) -> None:
    data = copy.deepcopy(dd_record)
    data["winner"] = 1 - data["winner"]
    report = records.replay(data)
    assert [m["field"] for m in report["mismatches"]] == ["winner"]
    data = copy.deepcopy(dd_record)
    data["hands"][0]["actions"].pop()
    report = records.replay(data)
    assert report["first_illegal"]["hand"] == 1 and report["first_illegal"]["action"] is None


def test_schema_violations_are_named() -> None:
    with pytest.raises(PinochleError, match="hands"):
        records.replay(
            {
                "format": "pinochle-game-record",
                "version": 1,
                "variant": "online",
                "options": {},
                "winner": None,
            }
        )


# --- every bad record is one line; only canonical actions --------------------------------------


def written(tmp_path: Path, content: bytes) -> Path:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "pinochle-game-record",\n "variant": "caf\xe9"}', "game.json:2: not UTF-8"),
        (b'{"format": "pinochle-game-record",\n "hands": [}', "game.json:2: not JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "game.json: not JSON: nested"),
        (json.dumps([{"hands": ["x" * 100]}] * 300).encode(), "game.json: at (top): expected"),
        (b'{"format": "pinochle-game-record"}', "game.json: at (top): 'version' is a required"),
    ],
    ids=["not-utf8", "not-json", "deep", "top-level-list", "schema"],
)
def test_a_bad_record_file_is_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    """Was a UnicodeDecodeError traceback (status 1, as a FAILED replay) and a 34 KB message."""
    with pytest.raises(records.RecordError) as info:
        records.load(written(tmp_path, content))
    text = str(info.value)
    assert message in text, text[:500]
    assert "\n" not in text and len(text) < 400, text[:500]


def test_a_good_record_file_loads(tmp_path: Path, dd_record: dict[str, Any]) -> None:
    path = written(tmp_path, json.dumps(dd_record).encode())
    assert records.replay(records.load(path))["ok"]


def first_action(record: dict[str, Any], prefix: str) -> tuple[int, int, str]:
    for h, hand in enumerate(record["hands"]):
        for i, step in enumerate(hand["actions"]):
            if step["action"].startswith(prefix):
                return h, i, step["action"]
    raise AssertionError(f"no {prefix!r} action in the record")


SPOILS: dict[str, tuple[str, Callable[[str], str]]] = {
    "lower": ("play ", lambda a: a.lower()),  # play jc
    "two-spaces": ("bid ", lambda a: a.replace(" ", "  ")),  # bid  55
    "leading-zero": ("bid ", lambda a: a.replace(" ", " 0")),  # bid 055
    "plus": ("bid ", lambda a: a.replace(" ", " +")),  # bid +55
    "leading-space": ("play ", lambda a: " " + a),
    "newline": ("bid ", lambda a: a + "\n"),
    "ten": ("play T", lambda a: a.replace("T", "10")),  # play 10h: people's spelling
    "symbol": ("play ", lambda a: a[:-1] + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[a[-1]]),
    "upper": ("trump ", lambda a: a.upper()),  # TRUMP H
    "upper-suit": ("trump ", lambda a: a[:-1] + a[-1].upper()),  # trump H
}


@pytest.mark.parametrize("name", SPOILS)
def test_a_non_canonical_action_is_refused(dd_record: dict[str, Any], name: str) -> None:
    """``bid  55``, ``bid 055``, ``play 10h``, ``trump H`` were read as the actions they name."""
    kind, spoil = SPOILS[name]
    data = copy.deepcopy(dd_record)
    h, i, action = first_action(data, kind)
    bad = spoil(action)
    assert bad != action
    data["hands"][h]["actions"][i]["action"] = bad
    with pytest.raises(PinochleError) as info:
        records.replay(data)
    text = str(info.value)
    assert f"hand {h + 1} action {i}" in text or f"hands/{h}/actions/{i}/action" in text, text
    assert "canonical" in text and "\n" not in text, text


def test_a_give_out_of_canonical_order_is_refused() -> None:
    data = played_record("online", 3)
    h, i, action = first_action(data, "give ")
    cards = action.split()[1:]
    assert len(set(cards)) > 1
    data["hands"][h]["actions"][i]["action"] = " ".join(["give", *reversed(cards)])
    with pytest.raises(PinochleError, match=rf"hand {h + 1} action {i}: .*canonical"):
        records.replay(data)
