"""The SDK server: framing, initialize, shutdown and every JSON-RPC error an engine must give."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_adapters import protocol
from pinochle_adapters.reference import ReferenceEngine, server
from pinochle_adapters.sdk import Encoded, InvalidParams, Server, encoded_handlers
from reference_engine.errors import IllegalAction
from tests.strategies import suits


def codes(text: str) -> list[str]:
    """Card codes written with spaces."""
    return text.split()


class ToyEngine:
    """Implements two methods; fails on purpose for some inputs."""

    name = "toy"
    version = "0.1"
    variants: ClassVar = {"double-deck": {"run": ["15", "16"]}}

    def trick_winner(self, params: dict[str, Any]) -> dict[str, Any]:
        print("this stray print must not reach stdout")
        return {"winner": 0}

    def meld(self, params: dict[str, Any]) -> dict[str, Any]:
        hand = params["hand"]
        if hand == ["9h"]:
            raise IllegalAction("MELD-RUN", "nines do not meld here")
        if hand == ["Jh"]:
            raise KeyError("jack_table")
        if hand == ["Qh"]:
            raise InvalidParams("queens are on strike")
        if hand == ["Kh"]:
            raise RuntimeError("kings crashed\nwith a second line")
        return {"total": 0, "melds": []}


def ask(server: Server, message: Any) -> dict[str, Any]:
    line = message if isinstance(message, str) else json.dumps(message)
    reply: dict[str, Any] = json.loads(server.handle_line(line))
    assert protocol.schema_error(reply, "response.json", "reply") is None
    return reply


def meld_request(hand: list[str], **extra: Any) -> dict[str, Any]:
    params = {"variant": "double-deck", "options": {}, "trump": "h", "hand": hand, **extra}
    return protocol.request(7, "meld", params)


@pytest.fixture
def toy() -> Server:
    return Server(ToyEngine())


def error_of(reply: dict[str, Any]) -> tuple[int, str]:
    assert "result" not in reply
    return reply["error"]["code"], reply["error"]["message"]


def test_initialize_reports_what_the_object_implements(toy: Server) -> None:
    reply = ask(toy, protocol.request(1, "initialize", {"protocol": 1}))
    assert reply["id"] == 1
    info = reply["result"]
    assert protocol.check_result("initialize", info) is None
    assert info["methods"] == ["meld", "trick_winner"]
    assert info["engine"] == {"name": "toy", "version": "0.1"}
    assert info["variants"] == [{"id": "double-deck", "options": {"run": ["15", "16"]}}]


def test_initialize_refuses_another_protocol_version(toy: Server) -> None:
    code, message = error_of(ask(toy, protocol.request(1, "initialize", {"protocol": 2})))
    assert code == protocol.INVALID_PARAMS
    assert "protocol 2 is not supported" in message


def test_a_good_call_answers_the_result(toy: Server) -> None:
    reply = ask(toy, meld_request(["Ah"]))
    assert reply == {"jsonrpc": "2.0", "id": 7, "result": {"total": 0, "melds": []}}


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("{not json", protocol.PARSE_ERROR, "not JSON"),
        ("[1, 2]", protocol.INVALID_REQUEST, "batches are not supported"),
        ('"meld"', protocol.INVALID_REQUEST, "not an object"),
        ('{"jsonrpc": "2.0", "method": "meld", "params": {}}', protocol.INVALID_REQUEST, "id"),
        ('{"id": 3, "method": "meld", "params": {}}', protocol.INVALID_REQUEST, '"jsonrpc": "2.0"'),
        ('{"jsonrpc": "2.0", "id": 3, "method": 5}', protocol.INVALID_REQUEST, "method"),
    ],
)
def test_framing_errors(toy: Server, line: str, code: int, words: str) -> None:
    got_code, message = error_of(ask(toy, line))
    assert got_code == code
    assert words in message


def test_unknown_method_names_the_implemented_ones(toy: Server) -> None:
    request = protocol.request(4, "play_hand", {"variant": "double-deck", "options": {}})
    reply = ask(toy, request)
    code, message = error_of(reply)
    assert reply["id"] == 4
    assert code == protocol.METHOD_NOT_FOUND
    assert "'play_hand'" in message and "meld, trick_winner" in message


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (meld_request(["Ah", "Xx"]), "params.hand[1]: 'Xx' does not match"),
        (meld_request(["Ah"], hnad=["Ah"]), "'hnad' was unexpected"),
        (protocol.request(7, "meld", [1, 2]), "params must be an object"),
        (
            protocol.request(
                7, "meld", {"variant": "online", "options": {}, "trump": "h", "hand": []}
            ),
            "unknown variant 'online': this engine plays double-deck",
        ),
        (
            protocol.request(
                7, "meld", {"variant": "double-deck", "options": {"run": "14"}, "trump": "h",
                            "hand": []}
            ),
            "option run='14' is not implemented for double-deck: use 15, 16",
        ),
        (
            protocol.request(
                7, "meld", {"variant": "double-deck", "options": {"colour": "red"},
                            "trump": "h", "hand": []}
            ),
            "variant double-deck has no option 'colour'",
        ),
        (meld_request(["Qh"]), "queens are on strike"),
    ],
)  # fmt: skip
def test_invalid_params(toy: Server, request_: dict[str, Any], words: str) -> None:
    code, message = error_of(ask(toy, request_))
    assert code == protocol.INVALID_PARAMS
    assert words in message


def test_integer_option_values_match_declared_strings(toy: Server) -> None:
    request = protocol.request(
        7, "meld", {"variant": "double-deck", "options": {"run": 15}, "trump": "h", "hand": []}
    )
    assert "result" in ask(toy, request)


def test_internal_error_is_one_short_line_with_no_traceback(
    toy: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    code, message = error_of(ask(toy, meld_request(["Kh"])))
    assert code == protocol.INTERNAL_ERROR
    assert message == "internal error in meld: RuntimeError: kings crashed"
    assert "Traceback" in capsys.readouterr().err  # the traceback goes to stderr only


def test_a_result_that_is_not_json_is_an_internal_error() -> None:
    class Sloppy:
        variants: ClassVar = {"double-deck": {}}

        def card_points(self, params: dict[str, Any]) -> dict[str, Any]:
            return {"points": {1, 2}}

    server = Server(Sloppy(), log=io.StringIO())
    params = {"variant": "double-deck", "options": {}, "cards": [], "last_trick": False}
    code, _ = error_of(ask(server, protocol.request(1, "card_points", params)))
    assert code == protocol.INTERNAL_ERROR


@pytest.mark.parametrize(
    ("result", "words"),
    [
        ({"points": float("nan")}, "the result is not JSON: ValueError"),
        ({"points": "\ud800"}, "surrogates not allowed"),
    ],
)
def test_a_nan_or_a_lone_surrogate_in_a_result_is_an_internal_error(
    result: dict[str, Any], words: str
) -> None:
    class Sloppy:
        variants: ClassVar = {"double-deck": {}}

        def card_points(self, params: dict[str, Any]) -> dict[str, Any]:
            return result

    server = Server(Sloppy(), log=io.StringIO())
    params = {"variant": "double-deck", "options": {}, "cards": [], "last_trick": False}
    code, message = error_of(ask(server, protocol.request(1, "card_points", params)))
    assert code == protocol.INTERNAL_ERROR and words in message


def test_each_result_is_encoded_once(toy: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review item 22: the result was encoded, thrown away, then encoded again."""
    encoded: list[object] = []
    real = protocol.encode

    def counting(message: dict[str, Any]) -> str:
        encoded.append(message)
        return real(message)

    monkeypatch.setattr(protocol, "encode", counting)
    assert ask(toy, meld_request(["Ah"]))["result"] == {"total": 0, "melds": []}
    assert len(encoded) == 1


def test_variants_must_be_declared() -> None:
    with pytest.raises(TypeError, match="declare the variants"):
        Server(object())


def test_serve_stdio_until_shutdown(capsys: pytest.CaptureFixture[str]) -> None:
    requests = [
        protocol.request(1, "initialize", {"protocol": 1}),
        protocol.request(
            2, "trick_winner", {"variant": "double-deck", "options": {}, "trump": "h",
                                "trick": ["As"]}
        ),
        protocol.request(3, "shutdown", {}),
        protocol.request(4, "meld", {}),  # after shutdown: never read
    ]  # fmt: skip
    stdin = io.BytesIO(b"".join(json.dumps(r).encode() + b"\n\n" for r in requests))
    stdout = io.BytesIO()
    assert Server(ToyEngine()).serve_stdio(stdin, stdout) == 0
    replies = [json.loads(line) for line in stdout.getvalue().decode().splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3]
    assert replies[1]["result"] == {"winner": 0}
    assert replies[2]["result"] is None
    captured = capsys.readouterr()
    assert "stray print" in captured.err and "stray print" not in captured.out


# --- the reference engine behind the SDK ----------------------------------------------------------


def test_reference_declares_all_variants_options_and_methods() -> None:
    from reference_engine.variants import variant_ids, variant_options

    info = server().info()
    assert [v["id"] for v in info["variants"]] == variant_ids()
    for v in info["variants"]:
        assert v["options"] == {n: o["choices"] for n, o in variant_options(v["id"]).items()}
    assert set(info["methods"]) >= {"meld", "legal_plays", "trick_winner", "card_points"}
    assert set(info["methods"]) <= set(ReferenceEngine.__dict__)


def test_reference_meld_items_carry_codes_and_suits() -> None:
    hand = codes("Ah Th Kh Kh Kh Qh Qh Jh Qd Qd Jd Qc Qc As Ks Ks Qs Qs Js Js")
    result = ask(server(), meld_request(hand))["result"]
    assert result["total"] == 88
    run = next(m for m in result["melds"] if m["id"] == "run")
    assert run == {"id": "run", "type": "I", "count": 1, "points": 16, "suit": "h",
                   "cards": ["Ah", "Th", "Kh", "Qh", "Jh"]}  # fmt: skip
    pinochle = next(m for m in result["melds"] if m["id"] == "pinochle")
    assert "suit" not in pinochle


def test_reference_without_params_check_still_names_the_bad_card() -> None:
    lenient = Server(ReferenceEngine(), check_params=False)
    code, message = error_of(ask(lenient, meld_request(["Ah", "Zz"])))
    assert code == protocol.INVALID_PARAMS
    assert "'Zz'" in message


# --- an engine's own bug is an internal error, not "invalid params" ------------------------------


@pytest.mark.parametrize(
    ("hand", "kind", "words"),
    [
        (["Jh"], "KeyError", "internal error in meld: KeyError: 'jack_table'"),
        (["9h"], "IllegalAction", "internal error in meld: IllegalAction: nines do not meld here"),
    ],
)
def test_a_key_or_value_error_of_the_engine_is_an_internal_error_with_its_traceback(
    toy: Server, hand: list[str], kind: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Review stumble 6: a KeyError from a bug came back as -32602 with no traceback."""
    reply = ask(toy, meld_request(hand))
    code, message = error_of(reply)
    assert code == protocol.INTERNAL_ERROR
    assert message.startswith(words)
    data = reply["error"]["data"]
    assert data["type"] == kind
    # The innermost frame is the engine's own line, not the SDK's call into it.
    assert data["traceback"][-1].startswith(f"{__file__}:")
    assert "in meld: raise " in data["traceback"][-1]
    assert all("pinochle_adapters/sdk.py" not in frame for frame in data["traceback"])
    assert "Traceback" in capsys.readouterr().err


def test_declared_input_errors_answer_invalid_params() -> None:
    """An engine names its own "bad input" exceptions; those (and InvalidParams) are -32602."""
    declared = Server(ToyEngine(), invalid_params=(IllegalAction,))
    code, message = error_of(ask(declared, meld_request(["9h"])))
    assert (code, message) == (protocol.INVALID_PARAMS, "nines do not meld here (MELD-RUN)")
    assert "data" not in ask(declared, meld_request(["9h"]))["error"]
    assert error_of(ask(declared, meld_request(["Jh"])))[0] == protocol.INTERNAL_ERROR

    class Declaring(ToyEngine):
        invalid_params = (IllegalAction,)

    assert error_of(ask(Server(Declaring()), meld_request(["9h"])))[0] == protocol.INVALID_PARAMS


def test_the_reference_engine_answers_impossible_input_as_invalid_params() -> None:
    """Input that passes the schema but no deck can hold is the caller's fault, not a bug."""
    code, message = error_of(ask(server(), meld_request(["Ah"] * 5)))
    assert code == protocol.INVALID_PARAMS
    assert "5 copies of Ah" in message


NODE_EXAMPLE = Path(__file__).resolve().parent.parent / "pinochle_adapters/examples/node"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_the_node_example_answers_a_bug_as_internal_error_and_bad_input_as_invalid_params(
    tmp_path: Path,
) -> None:
    """The Node adapter maps errors as the SDK does; its engine is swapped for one whose meld
    has a bug (reading a property of undefined)."""
    shutil.copy(NODE_EXAMPLE / "adapter.js", tmp_path / "adapter.js")
    (tmp_path / "engine.js").write_text(
        "function meld(hand, trump) { const table = undefined; return table.run; }\n"
        "module.exports = { meld };\n",
        encoding="utf-8",
    )
    requests = [meld_request(["Ah"]), meld_request(["Zz"]), protocol.request(9, "shutdown", {})]
    done = subprocess.run(
        ["node", str(tmp_path / "adapter.js")],
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    bug, bad, _ = (json.loads(line) for line in done.stdout.splitlines())
    assert bug["error"]["code"] == protocol.INTERNAL_ERROR
    assert bug["error"]["message"].startswith("internal error in meld: TypeError: ")
    assert bug["error"]["data"]["type"] == "TypeError"
    assert "engine.js:1" in bug["error"]["data"]["traceback"][0]
    assert "TypeError" in done.stderr
    assert bad["error"] == {
        "code": protocol.INVALID_PARAMS,
        "message": 'params.hand[0]: "Zz" is not a card code',
    }


def test_capabilities_are_declared_in_initialize() -> None:
    """An engine's ``capabilities`` attribute (or the argument) reaches the initialize result."""

    class Totals:
        name, version = "totals", "1"
        variants: ClassVar[dict[str, dict[str, list[str]]]] = {"double-deck": {}}
        capabilities: ClassVar[dict[str, str]] = {"meld": "totals"}

        def meld(self, params: dict[str, Any]) -> dict[str, Any]:
            return {"total": 0, "melds": []}

    assert Server(Totals()).info()["capabilities"] == {"meld": "totals"}
    assert "capabilities" not in Server(Totals(), capabilities={}).info()
    info = Server(Totals(), capabilities={"forced_bid": "implicit"}).info()
    assert protocol.schema_error(info, "initialize.result.json", "result") is None
    assert info["capabilities"] == {"forced_bid": "implicit"}


def test_refused_call_rule_follows_the_spec_order() -> None:
    """The SDK picks the one rule of a call that breaks several, as the auction chapter orders
    them, so adapters do not rebuild it (and the order cannot drift from the chapter's)."""
    import re

    from pinochle_adapters.sdk import refused_call_rule
    from specdata import AUCTION_PRECEDENCE, RULES_DIR

    chapter = (RULES_DIR / "auction.md").read_text(encoding="utf-8")
    listed = chapter.split("**Which rule a refused call names.**", 1)[1].split("\n\n", 2)[1]
    named = list(dict.fromkeys(re.findall(r"AUCTION-[A-Z-]+[A-Z]", listed)))
    assert tuple(named) == AUCTION_PRECEDENCE
    assert refused_call_rule({"AUCTION-STEP", "AUCTION-TURN"}) == "AUCTION-TURN"
    assert refused_call_rule(["AUCTION-HIGHER", "AUCTION-STEP"]) == "AUCTION-HIGHER"
    with pytest.raises(ValueError, match="no auction rule"):
        refused_call_rule({"PLAY-TURN"})


# --- the trusted fast path: a result the engine wrote as JSON itself ------------------------------


def _meld_questions() -> list[tuple[str, dict[str, str]]]:
    """Every variant with its defaults and with each single option value switched on."""
    from reference_engine.variants import variant_ids, variant_options

    out: list[tuple[str, dict[str, str]]] = []
    for variant in variant_ids():
        out.append((variant, {}))
        for name, opt in variant_options(variant).items():
            out += [(variant, {name: c}) for c in opt["choices"] if c != opt["default"]]
    return out


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_meld_questions()), st.randoms(use_true_random=False), suits)
def test_the_encoded_meld_is_the_meld_encoded(
    question: tuple[str, dict[str, str]], rng: Any, trump: int
) -> None:
    from reference_engine.cards import SUITS, card_code
    from reference_engine.variants import load_rules

    variant, options = question
    deck = list(load_rules(variant, options).deck_cards)
    rng.shuffle(deck)
    size = rng.randrange(len(deck) // 2 + 1)
    params = {"variant": variant, "options": options, "trump": SUITS[trump],
              "hand": [card_code(c) for c in deck[:size]]}  # fmt: skip
    engine = ReferenceEngine()
    fast = engine.meld_encoded(params)
    assert isinstance(fast, Encoded)
    assert fast == protocol.encode(dict(engine.meld(params)))


@pytest.mark.parametrize("request_id", [7, -1, "seven", 'a "quoted" \u00e9 id'])
def test_a_spliced_result_line_is_the_encoded_response(request_id: int | str) -> None:
    result = {"total": 4, "melds": []}
    spliced = protocol.result_line(request_id, protocol.encode(result))
    assert spliced == protocol.encode(protocol.result_response(request_id, result))


def test_a_subclass_overriding_a_method_is_answered_by_its_override() -> None:
    class NoMeld(ReferenceEngine):
        def meld(self, params: dict[str, Any]) -> Any:
            return {"total": 0, "melds": []}

    class Fast(ReferenceEngine):
        pass

    hand = codes("Ah Th Kh Qh Jh")
    assert ask(Server(NoMeld()), meld_request(hand))["result"] == {"total": 0, "melds": []}
    assert ask(Server(Fast()), meld_request(hand))["result"]["total"] == 16
    assert encoded_handlers(NoMeld(), ["meld"]) == {}
    assert set(encoded_handlers(Fast(), ["meld"])) == {"meld"}
    patched = ReferenceEngine()
    patched.meld = lambda params: {"total": 1, "melds": []}  # type: ignore[method-assign]
    assert ask(Server(patched), meld_request(hand))["result"] == {"total": 1, "melds": []}


def test_an_encoded_result_with_a_lone_surrogate_is_an_internal_error() -> None:
    class Sloppy:
        variants: ClassVar = {"double-deck": {}}

        def card_points(self, params: dict[str, Any]) -> dict[str, Any]:
            return {"points": 0}

        def card_points_encoded(self, params: dict[str, Any]) -> Encoded:
            return Encoded('{"points":"\ud800"}')

    server = Server(Sloppy(), log=io.StringIO())
    params = {"variant": "double-deck", "options": {}, "cards": [], "last_trick": False}
    code, _ = error_of(ask(server, protocol.request(1, "card_points", params)))
    assert code == protocol.INTERNAL_ERROR
