"""What a reader gets holds no machine path and no tracker reference: the READMEs, CONTRIBUTING,
the spec, the docs, the suite's tables and features (their ``why`` texts are shown to users) and
the starters that ``pinochle adapter new`` copies. A path of the machine a document was written
on, or "issue 13", means nothing to someone who has only the document."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".md", ".yaml", ".yml", ".json", ".feature", ".sh", ".txt", ".ini"}
FOLDERS = ("spec", "docs", "features", "pinochle_cli/starters", "pinochle_adapters/examples")
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|home|Users|root|tmp)/[\w.-]+")
"""An absolute path on some machine (``/work/...``, ``/home/me/...``)."""
TRACKER = re.compile(r"\b(?:issues?|PR|pull request) ?#?\d+\b", re.IGNORECASE)
"""A reference to an issue tracker's entry (``issue 13``, ``issue #4``, ``PR 7``)."""


def documents() -> list[Path]:
    """Every document a reader gets, in path order."""
    found = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "tests" / "README.md"]
    found += [ROOT / "benchmarks" / "README.md"]
    for folder in FOLDERS:
        found += [
            p
            for p in (ROOT / folder).rglob("*")
            if p.is_file() and p.suffix in TEXT_SUFFIXES and "node_modules" not in p.parts
        ]
    return sorted(found)


def offences(text: str) -> list[str]:
    """Each machine path and tracker reference of a text, with its line number."""
    return [
        f"line {n}: {match.group(0)}"
        for n, line in enumerate(text.splitlines(), 1)
        for pattern in (MACHINE_PATH, TRACKER)
        for match in pattern.finditer(line)
    ]


def test_the_scan_finds_what_it_looks_for() -> None:
    assert offences("kept in `/work/shared/sources/`") == ["line 1: /work/shared"]
    assert offences("ok\n(added for issue 19)") == ["line 2: issue 19"]
    assert offences("see Issue #4 and PR 7") == ["line 1: Issue #4", "line 1: PR 7"]
    assert offences("pinochle_adapters/examples/node and features/tables/x.yaml:12") == []


def test_no_machine_path_and_no_tracker_reference() -> None:
    read = documents()
    assert len(read) > 50, "the documents were found"
    found = {str(p.relative_to(ROOT)): offences(p.read_text(encoding="utf-8")) for p in read}
    assert {path: lines for path, lines in found.items() if lines} == {}


def shell_lines(text: str) -> list[str]:
    """The command lines of a markdown text's ``sh`` blocks."""
    blocks = [part.split("```", 1)[0] for part in text.split("```sh\n")[1:]]
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_what_a_wheel_user_copies_runs_without_a_checkout() -> None:
    """ "Test your own engine" and the Node example's README (copied by ``pinochle adapter new
    node``) run ``pinochle`` commands, not ``pytest features/``, which needs a checkout."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Test your own engine", 1)[1].split("\n## ", 1)[0]
    node = (ROOT / "pinochle_adapters/examples/node/README.md").read_text(encoding="utf-8")
    for text in (section, node):
        lines = shell_lines(text)
        assert lines
        assert [
            line
            for line in lines
            if not line.startswith(("pinochle ", "pip ", "pytest --pinochle"))
        ] == []
    assert "docs/ci/" in section, "the CI recipes are linked"
