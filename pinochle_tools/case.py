"""``pinochle case CASE-ID [--engine CMD]``: one table case or one scenario question, run alone,
with the request line, the engine's reply, the expected answer and the comparison printed.

A case is found by its table case ID or its scenario's node ID (as failures and reports name
them); it is judged exactly as the export and the suite judge it (``export.check_record``).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import json
import sys
from typing import Any, TextIO

from pinochle_adapters.client import (
    EngineError,
    UnsupportedReply,
    load_server,
    open_engine,
    open_in_process,
)
from pinochle_judge import charges, wording
from pinochle_judge.capabilities import Skip
from pinochle_judge.cases import load_cases, request_line
from pinochle_judge.engines import REFERENCE_SERVER, REFERENCE_SHOWN, ModelledEngine, trace_of
from pinochle_judge.house_rules import DERIVED, SKIP
from specdata import FEATURES_DIR

from . import export
from .scenario_capture import CaptureError, capture_scenarios

PASSED, FAILED, USAGE, SKIPPED = 0, 1, 2, 77
"""Exit statuses: the answer conforms; a wrong answer or an engine error; no such case, or an
engine that cannot start; the case was not judged (the engine does not declare what it needs, or
answered unsupported), 77 as a skipped test in the automake convention, so that a script never
reads a skip as a pass."""
SEVERITY = (PASSED, SKIPPED, FAILED)
"""A scenario's questions give the worst of their statuses, in this order."""


def find_records(case_id: str) -> list[dict[str, Any]]:
    """The export records of ``case_id``: a table case's one record, or a scenario's questions
    (by node ID, or one question by its ``#n`` ID). Raises KeyError naming close IDs."""
    cases = {c.id: c for c in load_cases()}
    if case_id in cases:
        return [export.case_record(cases[case_id])]
    scenarios: list[dict[str, Any]] = []
    if "::" in case_id:
        # Only that scenario runs (to learn its questions); all of them only to suggest IDs.
        node = FEATURES_DIR.parent / case_id.split("#", 1)[0]
        with contextlib.suppress(CaptureError):
            scenarios = capture_scenarios(tests=[str(node)]).records
        found = [r for r in scenarios if case_id in (r["id"], r["node"])]
        if found:
            return found
        scenarios = export.scenario_records()
    known = [*cases, *(r["id"] for r in scenarios)]
    close = difflib.get_close_matches(case_id, known, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    kind = "scenario node ID" if "::" in case_id else "case ID"
    raise KeyError(f"no {kind} {case_id!r}{hint}")


def _open(engine: str | None) -> ModelledEngine:
    if engine is None:
        return ModelledEngine(open_in_process(load_server(REFERENCE_SERVER)))
    return ModelledEngine(open_engine(engine))


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def run_record(record: dict[str, Any], engine: ModelledEngine, out: TextIO) -> int:
    """Ask ``engine`` one record's question; print request, reply, expected answer and verdict."""
    method, params = record["method"], record["params"]
    where = f"{record['file']}:{record['line']}"
    out.write(f"case {record['id']} ({where}); tests {record['rule']}")
    out.write(f", using {', '.join(record['uses'])}\n" if record["uses"] else "\n")
    inputs = {k: v for k, v in params.items() if k not in ("variant", "options")}
    variant, options = record["variant"], record["options"]
    if record["checks"]:  # a scenario's Then steps check more than the answer's fields
        plan = engine.house_rules.plan_question(method, variant, options, inputs)
    else:
        plan = engine.house_rules.plan_case(
            method, variant, options, inputs, record["expect"], record["rule"]
        )
    if plan.house:
        out.write(f"played under the engine's options: {plan.house_text}\n")
    if plan.kind == SKIP:
        out.write(f"request (not sent): {request_line(method, plan.params)}\n")
        out.write(f"skipped: {plan.reason}\n")
        return SKIPPED
    params = plan.params
    hand_worked = None
    if plan.kind == DERIVED and plan.expect is not None:
        hand_worked = record["expect"]
        out.write(f"{plan.reason}\n")
        if not plan.reached:
            out.write(f"{wording.unreached_case(record['rule'])}\n")
        record = {**record, "expect": plan.expect}
    traffic = io.StringIO()
    engine.engine.log_traffic(traffic)
    try:
        answer = engine.call(method, params)
    except UnsupportedReply as e:
        out.write(f"skipped: the engine answered unsupported: {e.message}\n")
        return SKIPPED
    except Skip as e:  # the engine's declared model has no call for this question
        out.write(f"skipped: {e}\n")
        return SKIPPED
    except EngineError as e:
        out.write(f"engine error: {e}\n")
        return FAILED
    finally:
        engine.engine.log_traffic(None)
        # The line as the engine received it (its id, its options, the model it declared).
        sent = [line[2:] for line in traffic.getvalue().splitlines() if line.startswith("> ")]
        out.write(f"request: {sent[-1] if sent else request_line(method, params)}\n")
    replies = [line[2:] for line in traffic.getvalue().splitlines() if line.startswith("< ")]
    out.write(f"reply: {replies[-1] if replies else _show({'result': answer})}\n")
    out.write(f"expected: {_show(record['expect'])}\n")
    for check in record["checks"]:
        out.write(f"  and {check['at']} ({check['kind']}): {_show(check['value'])}\n")
    mismatches = export.check_record(record, answer)
    if not mismatches:
        out.write("comparison: passed\n")
        return PASSED
    out.write("comparison: failed\n")
    out.writelines(f"  - {m}\n" for m in mismatches)
    # Charged as the suite charges it: the params sent, the expectation judged, the trace.
    found = charges.charge(
        method, params, record["expect"], answer, trace_of(method, params), record["rule"],
        record["uses"],
    )  # fmt: skip
    out.write(f"charged to: {', '.join(found.rules)} (at {found.at})\n")
    if hand_worked is not None:
        # The hand-worked reasoning is about another answer: say what the house options changed.
        for line in charges.house_changed(method, hand_worked, record["expect"]):
            out.write(line.removeprefix("  ") + "\n")
    elif record["why"]:
        out.write(f"why: {record['why']}\n")
    return FAILED


def run_case(case_id: str, engine: str | None, out: TextIO | None = None) -> int:
    """Run one table case or scenario (by case ID or node ID) against ``engine`` (a shell command;
    None: the reference engine) and print what was asked, answered and expected. The exit
    status: 0 passed, 1 failed or errored, 2 unknown case or engine not starting, 77 skipped."""
    stream = sys.stdout if out is None else out
    errors = sys.stderr if out is None else out  # the one line of a usage error
    try:
        records = find_records(case_id)
    except KeyError as e:
        errors.write(f"pinochle case: {e.args[0]}\n")
        return USAGE
    try:
        opened = _open(engine)
    except EngineError as e:
        errors.write(f"pinochle case: the engine cannot start: {e}\n")
        return USAGE
    try:
        if opened.info is None:
            errors.write(
                f"pinochle case: the engine cannot start ({engine or REFERENCE_SHOWN}): "
                f"{opened.start_error}\n"
            )
            return USAGE
        status = PASSED
        for number, record in enumerate(records):
            if number:
                stream.write("\n")
            status = max(status, run_record(record, opened, stream), key=SEVERITY.index)
        return status
    finally:
        opened.close()
