"""The ``pinochle`` command, the project's one face: it imports the parts and nothing imports it.

``test`` runs the packaged conformance suite through pytest from any directory; the other
commands (``commands``) play and replay games, list the spec, export the suite, run one case,
build the report site and fuzz. ``test`` imports no part before pytest starts but specdata (to
find the suite), so that pytest can rewrite the plugin's asserts as it loads it.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path

INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C or SIGTERM (the shell's 128 + SIGINT); ``pinochle
test`` has pytest's, TEST_INTERRUPTED."""
TEST_INTERRUPTED = 2
CLOSED_PIPE = 141
"""The exit status of a command whose output was closed early (``pinochle ... | head -1``): 128 +
SIGPIPE, what a shell reports for a program a closed pipe ends."""
"""pytest's exit status for an interrupted run (``pytest.ExitCode.INTERRUPTED``)."""
IMPORTED_BEFORE_PYTEST = ("pinochle_cli", "specdata")
"""What ``pinochle test`` has imported when pytest starts: this package, and specdata to find the
suite. pytest would warn that it cannot rewrite their asserts; neither holds a test."""

TEST_USAGE = """\
usage: pinochle test [options] [file_or_dir] [file_or_dir] [...]

Runs the packaged Pinochle conformance suite (pytest with the suite's own configuration, from any
directory) against the engine under test; the reference engine, in-process, without --engine.

  pinochle test --engine "node my_adapter.js"
  pinochle test --engine "./my-engine" --variant double-deck --conformance-report r.json
  pinochle test --engine "..." -m "rule(id='PLAY-CRAWL')"   # one rule
  pinochle case CASE-ID --engine "..."                      # one case: request, reply, expected
  pinochle test --engine A --engine B --runs-dir DIR        # one run each, one site comparing them
  pinochle test --engine A --engine B --runs-dir DIR --conformance-report all.json  # and one report

"""


def test_command(pytest_args: Sequence[str]) -> int:
    """``pinochle test [pytest options]``: the packaged suite, from any directory.

    The suite's own configuration is used (not one the user's directory holds), test IDs read as
    in the repository (``features/tables/...::case-id``), and no cache is written next to it.
    """
    import pytest  # here: the other commands need no test runner

    from specdata import FEATURES_DIR

    args = ["-c", str(FEATURES_DIR / "suite.ini"), "--rootdir", str(FEATURES_DIR.parent)]
    args.append(str(FEATURES_DIR))
    for name in IMPORTED_BEFORE_PYTEST:
        warning = f"Module already imported so cannot be rewritten; {name}"
        args += ["-W", f"ignore:{warning}:pytest.PytestAssertRewriteWarning"]
    if "-h" in pytest_args or "--help" in pytest_args:
        return test_help([*args, *pytest_args])
    from pinochle_cli import multi

    engines, rest, runs_dir = multi.split_engines(pytest_args)
    if len(engines) > 1 and runs_dir is None:
        # Several runs leave several files: they go where the user says, never into a default.
        print(f"pinochle test: {multi.NO_RUNS_DIR}", file=sys.stderr)
        return multi.CANNOT_RUN
    if runs_dir is not None:
        # No --engine: the reference engine (None), as in a run without --runs-dir.
        chosen: list[str | None] = [*engines] or [None]
        return multi.run_engines(chosen, rest, Path(runs_dir))
    return int(pytest.main([*args, *pytest_args]))


def test_help(pytest_args: Sequence[str]) -> int:
    """``pinochle test --help``: the Pinochle options first, then pytest's whole help."""
    import pytest

    with contextlib.redirect_stdout(io.StringIO()) as out:
        status = int(pytest.main(list(pytest_args)))
    text = out.getvalue().replace("pytest.main() [options]", "pinochle test [options]")
    # The plugin's option group, as pytest words it: from its title to the first blank line.
    group = text.partition("\nPinochle conformance suite:\n")[2].partition("\n\n")[0]
    # `--pinochle` is for plain pytest runs; `pinochle test` always runs the packaged suite.
    entries = ("\n" + group).split("\n  --")[1:]
    shown = "".join(f"\n  --{e}" for e in entries if not e.startswith("pinochle "))
    print(TEST_USAGE + "Pinochle conformance suite:" + shown)
    print("\npytest's own options (any of them works):\n")
    print(text, end="")
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pinochle`` console script. Ctrl-C (and SIGTERM, a CI job's timeout)
    stops any command the same clean way: engines stopped, files whole, one line, status 130."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list[:1] in (["--version"], ["-V"]):
            from specdata import suite_version

            print(f"pinochle {suite_version()}")
            return 0
        if args_list[:1] == ["test"]:
            return test_command(args_list[1:])  # the plugin makes SIGTERM a Ctrl-C itself
        # Only now: see the module's docstring.
        from pinochle_adapters.processes import interrupt_on_sigterm
        from pinochle_cli import commands

        restore = interrupt_on_sigterm()
        try:
            return commands.run(args_list)
        finally:
            restore()
    except KeyboardInterrupt:
        command = " ".join(["pinochle", *args_list[:1]])
        print(f"{command}: interrupted", file=sys.stderr)
        return TEST_INTERRUPTED if args_list[:1] == ["test"] else INTERRUPTED
    except BrokenPipeError:
        # The reader has gone (`| head`): nothing to say, and nothing may be said on the way out
        # either (flushing stdout again at exit would fail the same way).
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return CLOSED_PIPE
