"""Mutation testing of the rule modules against the conformance suite (``features/``), one command.

Runs mutmut (configured in ``setup.cfg``) and prints each module's score; a surviving mutant that
docs/mutation.md does not judge equivalent is a gap, and the exit status is 1 while one remains.
A judged survivor whose row names unit tests (`` `tests/test_x.py::test_y` ``) is run against
them in mutmut's copy; they must fail under it, or it is a gap too. A judged name the run killed
or no longer made (code changes renumber mutants) is stale, and fails the run as well.

    python tests/mutation.py                      # every rule module (several minutes)
    python tests/mutation.py meld tricks          # some modules only
    python tests/mutation.py --report-only        # the last run's results, without running
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("meld", "tricks", "auction", "scoring", "hand")
"""The rule modules mutated (setup.cfg ``only_mutate`` lists the same files)."""
JUDGED = ROOT / "docs" / "mutation.md"
"""Survivors judged equivalent or out of scope, each named in backticks in a table row."""
_RESULT = re.compile(r"^\s*(reference_engine\.(\w+)\.\S+): (.+)$")
_NAME = re.compile(r"`(reference_engine\.[\w.ǁ]+__mutmut_\d+)`")
_UNIT = re.compile(r"`(tests/[\w/]+\.py(?:::\w+)?)`")


def run(modules: list[str], children: int) -> int:
    """``mutmut run`` on the given modules' mutants (mutmut's own exit status)."""
    names = [f"reference_engine.{m}.*" for m in modules]
    command = ["mutmut", "run", "--max-children", str(children), *names]
    return subprocess.run(command, cwd=ROOT, check=False).returncode


def results() -> dict[str, dict[str, str]]:
    """The last run's status of every mutant, by module: name -> killed, survived, no tests..."""
    out = subprocess.run(
        ["mutmut", "results", "--all", "true"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for line in out.splitlines():
        match = _RESULT.match(line)
        if match:
            found[match.group(2)][match.group(1)] = match.group(3).strip()
    return found


def _judged_text() -> str:
    if not JUDGED.exists():
        return ""
    return JUDGED.read_text("utf-8").partition("## Judged survivors")[2]


def judged() -> set[str]:
    """Mutant names docs/mutation.md judges (equivalent, or out of the suite's reach)."""
    return set(_NAME.findall(_judged_text()))


def unit_tests() -> dict[str, list[str]]:
    """Judged survivors whose row names the unit tests in tests/ that kill them: name -> tests."""
    found: dict[str, list[str]] = {}
    for line in _judged_text().splitlines():
        names, tests = _NAME.findall(line), _UNIT.findall(line)
        if names and tests:
            found[names[0]] = tests
    return found


def killed_by(name: str, tests: list[str]) -> bool:
    """Whether ``tests`` fail with mutant ``name`` installed: run in mutmut's copy (mutants/, with
    tests/), the mutant chosen as mutmut chooses it (MUTANT_UNDER_TEST)."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
        cwd=ROOT / "mutants",
        env={**os.environ, "MUTANT_UNDER_TEST": name},
        check=False,
        capture_output=True,
    )
    return done.returncode == 1  # failed; 2 to 5 (a collection error, no test) kill nothing


def stale(found: dict[str, dict[str, str]], modules: list[str]) -> list[str]:
    """Judged names of these modules that the last run killed or no longer made (renumbered):
    the page would argue about a mutant that is not a survivor."""
    names = []
    for name in sorted(judged()):
        module = name.split(".")[1]
        statuses = found.get(module, {}) if module in modules else {}
        if statuses and statuses.get(name) in (None, "killed", "timeout"):
            names.append(name)
    return names


def report(found: dict[str, dict[str, str]], modules: list[str]) -> int:
    """Print the score per module, the unjudged survivors and the judged names that are not
    survivors; 1 if there is one."""
    known = judged()
    gaps: list[str] = []
    print("| module | mutants | killed | timeout | survived | judged | not reached | score |")
    print("|---|---|---|---|---|---|---|---|")
    for module in modules:
        statuses = found.get(module, {})
        counts = Counter(statuses.values())
        survived = [n for n, s in statuses.items() if s == "survived"]
        equivalent = [n for n in survived if n in known]
        gaps += [n for n in survived if n not in known]
        caught = counts["killed"] + counts["timeout"]
        scored = caught + len(survived) - len(equivalent)
        score = f"{caught}/{scored} = {100 * caught / scored:.1f}%" if scored else "n/a"
        print(
            f"| {module}.py | {len(statuses)} | {counts['killed']} | {counts['timeout']} | "
            f"{len(survived)} | {len(equivalent)} | {counts['no tests']} | {score} |"
        )
    for name in gaps:
        print(f"survivor not judged in docs/mutation.md: {name} (mutmut show {name})")
    survivors = {n for m in modules for n, s in found.get(m, {}).items() if s == "survived"}
    missed = 0
    for name, tests in sorted(unit_tests().items()):
        if name in survivors and not killed_by(name, tests):
            missed += 1
            print(f"judged as killed by {' '.join(tests)}, which pass under it: {name}")
    old = stale(found, modules)
    for name in old:
        status = found[name.split(".")[1]].get(name, "no such mutant")
        print(f"judged in docs/mutation.md but {status} in the last run: {name}")
    return 1 if gaps or missed or old else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", choices=[[], *MODULES], default=[])
    parser.add_argument("--max-children", type=int, default=2, help="mutants run at once")
    parser.add_argument("--report-only", action="store_true", help="do not run mutmut")
    args = parser.parse_args(argv)
    modules = list(args.modules) or list(MODULES)
    if not args.report_only:
        run(modules, args.max_children)
    return report(results(), modules)


if __name__ == "__main__":
    sys.exit(main())
