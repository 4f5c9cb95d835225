"""The in-process and subprocess engine paths give exactly the same outcome for every case.

Both paths exchange the same protocol messages (the in-process one skips the pipe), so the full
conformance suite run through ``python -m adapters.reference`` as a subprocess must report, case
by case, what the in-process run reports.
"""

from __future__ import annotations

import sys

from tests.suite_runs import run_suite


def test_subprocess_engine_gives_the_in_process_outcomes() -> None:
    in_process = run_suite(None)
    command = f"{sys.executable} -m adapters.reference"
    through_pipe = run_suite(command, extra=["--validate-protocol"])
    assert in_process.returncode == 0, in_process.tail()
    assert through_pipe.returncode == 0, through_pipe.tail()
    assert len(in_process.outcomes) > 1000
    assert in_process.outcomes.keys() == through_pipe.outcomes.keys()
    differing = [k for k, v in in_process.outcomes.items() if through_pipe.outcomes[k] != v]
    assert not differing, differing[:20]
