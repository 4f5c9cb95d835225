"""``pinochle smoke``: one question per declared method and variant, each reply checked against its
schema, one line per problem. In-process engines for the choices; two subprocess runs for the
command itself (the reference passes, a broken engine is named per method and variant)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from pinochle_adapters.client import open_in_process
from pinochle_adapters.protocol import INTERNAL_ERROR, INVALID_PARAMS, RULE_METHODS
from pinochle_adapters.reference import server
from pinochle_cli.smoke import questions, smoke
from pinochle_judge.cases import load_cases

from .suite_runs import ROOT

REFERENCE = f"{sys.executable} -m pinochle_adapters.reference"
BAD_RESULT = f"{sys.executable} {ROOT / 'tests' / 'broken_engines' / 'bad_result.py'}"


class Altered:
    """The reference server with its ``initialize`` result or one method's result rewritten."""

    def __init__(self, info: dict[str, Any] | None = None, method: str = "", result: Any = None):
        self.inner = server()
        self.info, self.method, self.result = info, method, result

    def handle_line(self, line: str) -> str:
        message = json.loads(line)
        reply = json.loads(self.inner.handle_line(line))
        if message["method"] == "initialize" and self.info is not None:
            reply["result"] = {**reply["result"], **self.info}
        elif message["method"] == self.method and isinstance(self.result, int):
            del reply["result"]  # an int stands for a JSON-RPC error code
            reply["error"] = {"code": self.result, "message": "refused"}
        elif message["method"] == self.method:
            reply["result"] = self.result
        return json.dumps(reply)


def run_smoke(engine_server: Altered) -> tuple[list[str], int]:
    with open_in_process(engine_server, validate=True) as engine:
        return smoke(engine)


def test_the_reference_answers_every_method_in_every_variant_well() -> None:
    problems, good = run_smoke(Altered())
    assert problems == []
    assert good == len(RULE_METHODS) * 3


def test_only_declared_methods_and_variants_are_asked() -> None:
    info = {
        "methods": ["meld", "legal_plays"],
        "variants": [{"id": "single-deck", "options": {}}],
    }
    asked, problems = questions(info, load_cases())
    assert problems == []
    assert [(q.method, q.variant) for q in asked] == [
        ("meld", "single-deck"),
        ("legal_plays", "single-deck"),
    ]


def test_a_house_rule_is_sent_in_place_of_the_cases_value() -> None:
    """An engine declaring one value of an option is asked under that value, never the default."""
    info = {"methods": ["meld"], "variants": [{"id": "double-deck", "options": {"run": ["15"]}}]}
    (question,), _ = questions(info, load_cases())
    assert question.params["options"].get("run") == "15"


def test_unknown_methods_and_variants_are_problems() -> None:
    info = {"methods": ["meld", "bake"], "variants": [{"id": "klaberjass", "options": {}}]}
    asked, problems = questions(info, load_cases())
    assert asked == []
    assert len(problems) == 2
    assert "'bake'" in problems[0]
    assert "'klaberjass'" in problems[1]


def test_a_reply_failing_its_schema_is_one_line_per_variant() -> None:
    problems, good = run_smoke(Altered(method="card_points", result={"points": "ten"}))
    assert len(problems) == 3
    assert all(p.startswith("card_points (") and "schema" in p for p in problems)
    assert good == len(RULE_METHODS) * 3 - 3


@pytest.mark.parametrize(("code", "note"), [(INVALID_PARAMS, True), (INTERNAL_ERROR, False)])
def test_a_refusal_is_a_note_and_a_crash_a_problem(code: int, note: bool) -> None:
    """-32602 is the engine's ruling on the question (the whole suite judges it); -32603 is a
    fault in its own code."""
    lines, _ = run_smoke(Altered(method="deal", result=code))
    assert len(lines) == 3
    assert all(line.startswith("note: ") == note for line in lines)


def test_an_engine_speaking_another_protocol_is_one_line() -> None:
    problems, good = run_smoke(Altered(info={"protocol": 2}))
    assert len(problems) == 1
    assert problems[0].startswith("initialize: ")
    assert good == 0


def smoke_command(engine: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pinochle_cli", "smoke", "--engine", engine],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.slow
def test_the_command_passes_the_reference_server() -> None:
    done = smoke_command(REFERENCE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(done.stdout.splitlines()) == 1


@pytest.mark.slow
def test_the_command_names_each_bad_reply_and_exits_1() -> None:
    done = smoke_command(BAD_RESULT)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert [line.split(" (")[0] for line in lines[:-1]] == ["meld", "meld", "meld"]
    assert "result.total" in lines[0]


def test_each_method_is_asked_its_fullest_request() -> None:
    """An engine that takes only whole requests (a winner function for four-card tricks) is
    probed: a trick of four, a hand that is not a refusal."""
    info = {
        "methods": ["trick_winner", "play_hand"],
        "variants": [{"id": v, "options": {}} for v in ("double-deck", "single-deck", "online")],
    }
    asked, problems = questions(info, load_cases())
    assert problems == []
    cases = {c.id: c for c in load_cases()}
    for q in asked:
        assert not cases[q.case_id].negative, q.case_id
        if q.method == "trick_winner":
            assert len(q.params["trick"]) == 4, q.case_id
