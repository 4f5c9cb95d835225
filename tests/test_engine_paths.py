"""The in-process and subprocess engine paths give exactly the same outcome for every case.

Both paths exchange the same protocol messages (the in-process one skips the pipe), so the full
conformance suite run through ``python -m adapters.reference`` as a subprocess must report, case
by case, what the in-process run reports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _outcomes(tmp_path: Path, name: str, *engine: str) -> dict[str, Any]:
    out = tmp_path / f"{name}.json"
    env = dict(os.environ, PINOCHLE_OUTCOMES=str(out))
    cmd = [sys.executable, "-m", "pytest", "features/", "-q", "-p", "no:cacheprovider"]
    cmd += ["-p", "tests.mutants.outcomes", *engine]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    outcomes: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return outcomes


def test_subprocess_engine_gives_the_in_process_outcomes(tmp_path: Path) -> None:
    in_process = _outcomes(tmp_path, "in-process")
    command = f"{sys.executable} -m adapters.reference"
    subprocess_run = _outcomes(tmp_path, "subprocess", "--engine", command, "--validate-protocol")
    assert len(in_process) > 1000
    assert in_process.keys() == subprocess_run.keys()
    differing = [k for k in in_process if in_process[k] != subprocess_run[k]]
    assert not differing, differing[:20]
