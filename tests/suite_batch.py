"""The conformance suite against several wrong engines in one process, one after the other.

    python -m tests.suite_batch OUTDIR NAME[=VARIANT,...] [NAME[=VARIANT,...] ...]

Each mutant of ``tests/mutants`` (``reference``: the control) is installed in this process around
one in-process ``pytest features/`` (narrowed to the variants given), so the interpreter, the
imports and the assertion rewriting are paid once per batch, not once per mutant. The transport
is not what these runs judge (``test_engine_paths`` shows both engine paths give the same
outcomes). Writes ``OUTDIR/NAME.json`` (the ``--conformance-report``), ``NAME.out`` (the run's
output) and ``NAME.status`` (pytest's exit status) per mutant.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.mutants import get

ARGS = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist"]
ARGS += ["-p", "no:unraisableexception"]
"""Without pytest's unraisable-exception plugin: at the end of every ``pytest.main`` it runs the
garbage collector several times over this process's heap, which grows with each run (a quarter
of a batch's time); these runs judge outcomes, which it does not change."""


def run_one(out_dir: Path, name: str, variants: Sequence[str]) -> int:
    """The suite against mutant ``name`` installed in this process; pytest's exit status."""
    args = ["features/", *ARGS, "--conformance-report", str(out_dir / f"{name}.json")]
    for variant in variants:
        args += ["--variant", variant]
    with (
        open(out_dir / f"{name}.out", "w", encoding="utf-8") as out,
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(out),
        get(name).installed(),
    ):
        status = int(pytest.main(args))
    (out_dir / f"{name}.status").write_text(str(status), encoding="utf-8")
    return status


def main(argv: Sequence[str]) -> int:
    out_dir, *runs = argv
    for run in runs:
        name, _, variants = run.partition("=")
        run_one(Path(out_dir), name, [v for v in variants.split(",") if v])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
