"""The protocol schemas accept good messages and reject bad ones; protocol.md's session is real.

The example session in spec/protocol.md is replayed against the reference engine line by line, so
the documentation cannot drift from the engine or the schemas.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pinochle_adapters import protocol
from pinochle_adapters.reference import server

PROTOCOL_MD = Path(protocol.SCHEMA_DIR).parent.parent / "protocol.md"
DD: dict[str, Any] = {"variant": "double-deck", "options": {}}

GOOD_PARAMS: dict[str, dict[str, Any]] = {
    "initialize": {"protocol": 1},
    "deal": {**DD, "dealer": 3, "deck": ["Ah", "Ts"]},
    "meld": {**DD, "trump": "h", "hand": ["Kh", "Qh"]},
    "legal_plays": {**DD, "trump": "h", "hand": ["Kh"], "trick": []},
    "trick_winner": {**DD, "trump": "h", "trick": ["Kh", "Ah", "9s", "Qh"]},
    "card_points": {"variant": "online", "options": {"rounds": 3}, "cards": [], "last_trick": True},
    "auction": {**DD, "dealer": 0, "calls": [{"seat": 1, "bid": 50}, {"seat": 2, "pass": True}]},
    "score_hand": {**DD, "bidder_team": 1, "contract": 50, "outcome": "thrown_in",
                   "meld": [20, 0], "tricks": [0, 0], "tricks_won": [0, 0], "scores": [0, 0],
                   "hand": 2},
    "play_hand": {**DD, "dealer": 0, "scores": [0, 0], "hands": [["Ah"], [], [], []],
                  "actions": ["bid 50", "pass", "trump h", "give Ah Ts Kd Qc", "throw-in",
                              "play-on", "play 9c", "seat 2: pass"]},
    "play_game": {**DD, "dealer": 0, "hands": [[["Ah"], [], [], []]],
                  "actions": [["bid 50", "seat 3: play Ah"]]},
    "play_tricks": {**DD, "trump": "s", "leader": 2, "hands": [["Ah"], ["Kh"], ["Th"], ["Qh"]],
                    "plays": ["Th", "Qh"]},
    "shutdown": {},
}  # fmt: skip

BAD_PARAMS: list[tuple[str, dict[str, Any], str]] = [
    ("initialize", {}, "'protocol' is a required property"),
    ("meld", {**DD, "trump": "h", "hand": ["Ah", "Xx"]}, "params.hand[1]: 'Xx' does not match"),
    ("meld", {**DD, "trump": "h", "hand": ["10h"]}, "params.hand[0]: '10h'"),
    ("meld", {**DD, "trump": "H", "hand": []}, "params.trump: 'H' is not one of"),
    ("meld", {"variant": "double-deck", "trump": "h", "hand": []}, "'options' is a required"),
    ("meld", {**DD, "trump": "h", "hand": "Ah Th"}, "params.hand: 'Ah Th' is not of type 'array'"),
    ("meld", {**DD, "trump": "h", "hand": [], "extra": 1}, "'extra' was unexpected"),
    ("legal_plays", {**DD, "trump": "h", "hand": [], "trick": []},
     "params.hand: [] should be non-empty"),
    ("legal_plays", {**DD, "trump": "h", "hand": ["Ah"], "trick": ["Ah"] * 4}, "params.trick"),
    ("trick_winner", {**DD, "trump": "h", "trick": []}, "params.trick: [] should be non-empty"),
    ("card_points", {**DD, "cards": []}, "'last_trick' is a required property"),
    ("auction", {**DD, "dealer": 4, "calls": []}, "params.dealer: 4 is greater than the maximum"),
    ("auction", {**DD, "dealer": 0, "calls": [{"seat": 1}]}, "params.calls[0]"),
    ("auction", {**DD, "dealer": 0, "calls": [{"seat": 1, "pass": False}]}, "params.calls[0].pass"),
    ("auction", {**DD, "dealer": 0, "calls": [{"seat": 1, "bid": "50"}]}, "params.calls[0].bid"),
    ("score_hand", {**GOOD_PARAMS["score_hand"], "outcome": "won"}, "params.outcome: 'won'"),
    ("score_hand", {**GOOD_PARAMS["score_hand"], "meld": [20]}, "params.meld: [20] is too short"),
    ("play_hand", {**GOOD_PARAMS["play_hand"], "actions": ["bid fifty"]}, "params.actions[0]"),
    ("play_hand", {**GOOD_PARAMS["play_hand"], "actions": ["play 10h"]}, "params.actions[0]"),
    ("play_hand", {**GOOD_PARAMS["play_hand"], "hands": [[]]}, "params.hands: [[]] is too short"),
    ("play_hand", {**GOOD_PARAMS["play_hand"], "actions": ["seat 4: pass"]}, "params.actions[0]"),
    ("play_hand", {**GOOD_PARAMS["play_hand"], "actions": ["seat 1:pass"]}, "params.actions[0]"),
    ("play_game", {**GOOD_PARAMS["play_game"], "hands": []}, "params.hands: []"),
    ("play_game", {**GOOD_PARAMS["play_game"], "actions": [["trump x"]]}, "params.actions[0][0]"),
    ("play_tricks", {**GOOD_PARAMS["play_tricks"], "leader": 4}, "params.leader: 4"),
    ("play_tricks", {**GOOD_PARAMS["play_tricks"], "plays": ["play Ah"]}, "params.plays[0]"),
    ("deal", {**DD, "dealer": 0, "deck": [1]}, "params.deck[0]: 1 is not of type 'string'"),
    ("deal", {"variant": "Double Deck", "options": {}, "dealer": 0, "deck": []}, "params.variant"),
    ("deal", {"variant": "online", "options": {"x": [1]}, "dealer": 0, "deck": []},
     "params.options.x"),
]  # fmt: skip

MELD_ITEM = {"id": "marriage", "type": "I", "count": 1, "points": 2, "cards": ["Kh", "Qh"]}
NULL_HAND = {
    "legal": False,
    "first_illegal": {"index": 0, "rule": "AUCTION-TURN", "message": "seat 2 cannot bid now"},
    "complete": False,
    **dict.fromkeys(
        ["bidder", "contract", "trump", "outcome", "meld", "team_meld", "aces_around", "tricks",
         "card_points", "tricks_won", "delta", "scores", "game_winner"]
    ),
}  # fmt: skip

BAD_RESULTS: list[tuple[str, Any, str]] = [
    ("initialize", {"protocol": 1, "engine": {"name": "x"}, "variants": [], "methods": []},
     "result.engine: 'version' is a required property"),
    ("initialize", {"protocol": 1, "engine": {"name": "x", "version": "1"},
                    "variants": [{"id": "online", "options": {"run": "15"}}], "methods": []},
     "result.variants[0].options.run: '15' is not of type 'array'"),
    ("meld", {"total": 2, "melds": [{**MELD_ITEM, "suit": "x"}]}, "result.melds[0].suit"),
    ("meld", {"total": 2, "melds": [MELD_ITEM]}, "result.melds[0]: 'suit' is a required property"),
    ("meld", {"total": 2, "melds": [{**MELD_ITEM, "id": "double_pinochle", "suit": "h"}]},
     "result.melds[0].id"),
    ("meld", {"melds": []}, "'total' is a required property"),
    ("legal_plays", {"cards": ["Ah", "Ah"]}, "result.cards: ['Ah', 'Ah'] has non-unique elements"),
    ("trick_winner", {"winner": 4}, "result.winner: 4 is greater than the maximum of 3"),
    ("card_points", {"points": 1.5}, "result.points: 1.5 is not of type 'integer'"),
    ("auction", {"legal": True, "violation": None, "complete": False}, "'next_seat' is a required"),
    ("auction", {"legal": False, "violation": {"rule": "step"}, "complete": False,
                 "next_seat": 1, "winner": None, "contract": None, "min_bid": 50,
                 "can_pass": True}, "result.violation"),
    ("score_hand", {"made": True, "delta": [1, 2], "scores": [1, 2], "game_winner": 2},
     "result.game_winner"),
    ("deal", {"hands": [[]] * 4, "next_dealer": 1}, "'legal' is a required property"),
    ("play_hand", {**NULL_HAND, "trump": "hearts"}, "result.trump"),
    ("play_hand", {k: v for k, v in NULL_HAND.items() if k != "tricks"}, "'tricks' is a required"),
]  # fmt: skip


def test_every_schema_is_valid_draft_2020_12() -> None:
    names = sorted(p.name for p in protocol.SCHEMA_DIR.glob("*.json"))
    expected = {f"{m}.{k}.json" for m in protocol.METHODS for k in ("params", "result")}
    assert expected | {"common.json", "request.json", "response.json"} == set(names)
    for name in names:
        schema = protocol.schema(name)
        assert schema["$id"] == protocol.SCHEMA_BASE + name
        jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("method", protocol.METHODS)
def test_good_params_are_accepted(method: str) -> None:
    assert protocol.check_params(method, GOOD_PARAMS[method]) is None
    request = protocol.request(1, method, GOOD_PARAMS[method])
    assert protocol.schema_error(request, "request.json", "request") is None


@pytest.mark.parametrize(("method", "params", "words"), BAD_PARAMS)
def test_bad_params_are_rejected_naming_the_fault(
    method: str, params: dict[str, Any], words: str
) -> None:
    problem = protocol.check_params(method, params)
    assert problem is not None and words in problem


@pytest.mark.parametrize(("method", "result", "words"), BAD_RESULTS)
def test_bad_results_are_rejected_naming_the_fault(method: str, result: Any, words: str) -> None:
    problem = protocol.check_result(method, result)
    assert problem is not None and words in problem


def test_good_results_are_accepted() -> None:
    assert protocol.check_result("meld", {"total": 0, "melds": []}) is None
    assert (
        protocol.check_result("meld", {"total": 4, "melds": [{**MELD_ITEM, "suit": "h"}]}) is None
    )
    assert protocol.check_result("deal", {"legal": False, "hands": None, "next_dealer": None,
                                          "violation": {"rule": "DECK-COMPOSITION",
                                                        "message": "m"}}) is None  # fmt: skip
    assert protocol.check_result("play_hand", NULL_HAND) is None
    assert protocol.check_result("shutdown", None) is None
    # Results are open: extra fields are allowed (the suite compares only what a case expects).
    assert protocol.check_result("trick_winner", {"winner": 0, "why": "first ace"}) is None


@pytest.mark.parametrize(
    ("message", "valid"),
    [
        ({"jsonrpc": "2.0", "id": 1, "result": None}, True),
        ({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}}, True),
        ({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "m"}}, False),
        ({"jsonrpc": "2.0", "id": 1}, False),
        ({"jsonrpc": "1.0", "id": 1, "result": {}}, False),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": "bad", "message": "m"}}, False),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": -32603}}, False),
    ],
)
def test_response_envelope(message: dict[str, Any], valid: bool) -> None:
    assert (protocol.schema_error(message, "response.json", "reply") is None) is valid


@pytest.mark.parametrize(
    "message",
    [
        {"jsonrpc": "2.0", "id": 1, "method": "meld"},
        {"jsonrpc": "2.0", "id": 1, "method": "legal_actions", "params": {}},
        {"jsonrpc": "2.0", "id": 1.5, "method": "meld", "params": {}},
        {"id": 1, "method": "meld", "params": {}},
    ],
)
def test_request_envelope_rejects(message: dict[str, Any]) -> None:
    assert protocol.schema_error(message, "request.json", "request") is not None


def test_error_codes_are_json_rpc() -> None:
    assert (
        protocol.PARSE_ERROR,
        protocol.INVALID_REQUEST,
        protocol.METHOD_NOT_FOUND,
        protocol.INVALID_PARAMS,
        protocol.INTERNAL_ERROR,
    ) == (-32700, -32600, -32601, -32602, -32603)


def test_encode_is_one_line() -> None:
    line = protocol.encode(protocol.request(1, "meld", {"note": "two\nlines ♥"}))
    assert "\n" not in line and "♥" in line
    with pytest.raises(ValueError):
        protocol.encode({"x": float("nan")})


@pytest.mark.parametrize(
    "message",
    [{"a": [1, 2.5, None, True, "♥ \ud800"]}, {"n": 1e300}, {}, {"k": {"x": [[], {}]}}],
)
def test_encode_writes_what_the_json_encoder_writes(message: dict[str, Any]) -> None:
    written = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    assert protocol.encode(message) == written


def test_option_values_compare_as_strings() -> None:
    declared = {"run": ["15", "16"], "extra_trump_kq": ["off", "on"]}
    assert protocol.options_declared(declared, {"run": 15, "extra_trump_kq": True}) is None
    assert protocol.options_declared(declared, {"run": 14}) == ("run", "14")
    assert protocol.options_declared(declared, {"colour": "red"}) == ("colour", "red")


# --- spec/protocol.md's example session ---------------------------------------------------------


def documented_exchanges() -> list[tuple[str, str]]:
    """(request line, reply line) pairs of the ```jsonl blocks of spec/protocol.md."""
    text = PROTOCOL_MD.read_text(encoding="utf-8")
    lines = [
        line
        for block in re.findall(r"```jsonl\n(.*?)```", text, re.DOTALL)
        for line in block.splitlines()
    ]
    requests = [line[3:] for line in lines if line.startswith("-> ")]
    replies = [line[3:] for line in lines if line.startswith("<- ")]
    assert len(requests) == len(replies) and 2 * len(requests) == len(lines)
    return list(zip(requests, replies, strict=True))


def test_documented_session_is_what_the_reference_engine_says() -> None:
    exchanges = documented_exchanges()
    methods = [json.loads(request)["method"] for request, _ in exchanges]
    assert methods == ["initialize", "meld", "legal_plays", "auction", "meld", "shutdown"]
    engine = server()
    for request_line, reply_line in exchanges:
        request = json.loads(request_line)
        reply = json.loads(reply_line)
        assert protocol.schema_error(request, "request.json", "request") is None
        assert protocol.schema_error(reply, "response.json", "reply") is None
        assert reply["id"] == request["id"]
        if "result" in reply:
            assert protocol.check_result(request["method"], reply["result"]) is None
        actual = engine.handle_line(request_line)
        if request["method"] == "initialize":
            continue  # the documented reply is an example adapter's, not the reference's
        assert protocol.check_params(request["method"], request["params"]) is None or (
            "error" in reply
        )
        assert json.loads(actual) == reply, request["method"]
        assert actual == reply_line  # byte for byte, as an adapter would write it


# --- the compiled validator ---------------------------------------------------------------------


def _jsonschema_valid(instance: Any, name: str) -> bool:
    return jsonschema.Draft202012Validator(protocol.inlined_schema(name)).is_valid(instance)


@pytest.mark.parametrize(
    ("name", "instance"),
    [(f"{m}.params.json", p) for m, p in GOOD_PARAMS.items()]
    + [(f"{m}.params.json", p) for m, p, _ in BAD_PARAMS]
    + [(f"{m}.result.json", r) for m, r, _ in BAD_RESULTS],
)
def test_the_compiled_validator_agrees_with_jsonschema(name: str, instance: Any) -> None:
    assert protocol.is_valid(instance, name) == _jsonschema_valid(instance, name)


def test_a_card_code_with_a_trailing_newline_is_refused() -> None:
    """ECMA 262 ``$`` (the schemas' dialect) is the very end; Python's re would accept it."""
    params = {**DD, "trump": "h", "hand": ["Ah\n"]}
    assert _jsonschema_valid(params, "meld.params.json")  # the difference this test pins
    problem = protocol.check_params("meld", params)
    assert problem is not None and problem.startswith("params.hand[0]:")


def test_values_no_validator_can_read_are_refused_in_one_line() -> None:
    surrogate = protocol.check_params("meld", {**DD, "trump": "h", "hand": [], "x": "\ud800"})
    assert surrogate is not None and "'x' was unexpected" in surrogate
    deep: Any = []
    for _ in range(50_000):
        deep = [deep]
    problem = protocol.check_params("meld", {**DD, "trump": "h", "hand": deep})
    assert problem == "params: nested too deeply to check"
    assert len(problem) <= 2 * protocol.MESSAGE_LIMIT + 40


def test_messages_quote_huge_values_shortened() -> None:
    problem = protocol.check_params("meld", {**DD, "trump": "h", "hand": "Ah" * 1_000_000})
    assert problem is not None and problem.endswith("characters)")
    assert len(problem) < 1_000
