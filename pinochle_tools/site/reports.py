"""Conformance reports as files: one engine's report (spec/schema/report.schema.json), or the
combined report of several engines (combined-report.schema.json) that ``pinochle test --engine A
--engine B --conformance-report FILE`` writes; both checked by the one schema checker. Read for
the site as ``EngineRun`` (one engine's verdicts) and ``Item`` (one case or scenario, with each
engine's verdict).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pinochle_judge.cases import Case, load_cases
from pinochle_judge.counts import Count
from specdata import Checker, escaped, load_schema, shorten, variant_ids
from specdata.files import read_at_most, size_over, unreadable, write_atomic

from ..catalogue import feature_paths, feature_scenarios

SINGLE = "report.schema.json"
COMBINED = "combined-report.schema.json"
COMBINED_FORMAT = 1
BAD = ("failed", "errored")
"""The outcomes that are a problem of the engine's."""
UNSPECIFIED = "unspecified"
"""The variant of an item whose report names none and whose scenario has several."""


class ReportError(ValueError):
    """A file given to the report site is not a conformance report; the message names it."""


# --- report files ---------------------------------------------------------------------------------


@cache
def checker(name: str) -> Checker:
    """The checker of the schema ``name`` (SINGLE or COMBINED), resolving the one's reference to
    the other (the combined report's items are single reports)."""
    return Checker(load_schema(name), [load_schema(n) for n in (SINGLE, COMBINED)])


def is_combined(document: Any) -> bool:
    """Whether a report file's content is a combined report (it says ``"combined": N``)."""
    return isinstance(document, dict) and "combined" in document


def combined(
    reports: Sequence[dict[str, Any]], exit_status: int, missing: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """The combined report of several engines' reports (each kept as it is)."""
    document: dict[str, Any] = {
        "combined": COMBINED_FORMAT,
        "exit_status": exit_status,
        "reports": list(reports),
    }
    if missing:
        document["missing"] = list(missing)
    return document


def write_combined(
    path: Path, report_paths: Sequence[Path], exit_status: int, missing: Sequence[dict[str, Any]]
) -> None:
    """Write the combined report of the single reports in ``report_paths`` to ``path``, whole
    or not at all."""
    reports = [json.loads(p.read_text(encoding="utf-8")) for p in report_paths]
    write_atomic(path, json.dumps(combined(reports, exit_status, missing), indent=1) + "\n")


# --- reading the reports --------------------------------------------------------------------------


@dataclass
class EngineRun:
    """One report: the engine it ran against and each item's verdict."""

    slug: str
    """The engine's file name on the site (``pinochle-reference-0-1-0``)."""
    label: str
    command: str
    path: Path
    report: dict[str, Any]
    cases: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str = ""
    """Where the report came from, as shown: the file's name (and which engine of a combined
    report)."""

    @property
    def count(self) -> Count:
        """The run's one count (pinochle_judge.counts), as the terminal summary said it."""
        return Count.of_report(self.report)

    @property
    def diagnosis(self) -> list[dict[str, Any]]:
        return list(self.report.get("diagnosis", []))

    @property
    def unsupported(self) -> list[tuple[str, int]]:
        """Rules the engine answered "unsupported" (-32001) for, with how many cases."""
        raw = self.report.get("unsupported") or {}
        return sorted((str(rule), int(n)) for rule, n in raw.items())

    @property
    def reach(self) -> dict[str, Any]:
        """The report's ``reach`` (empty for a report written before it existed)."""
        raw = self.report.get("reach")
        return dict(raw) if isinstance(raw, dict) else {}

    @property
    def partly_reached(self) -> list[tuple[str, int, int]]:
        """Rules some of whose judged cases stop before the rule decides: (rule, reaching,
        judged), rules the engine's options switch off left out."""
        off = set(self.reach.get("off") or ())
        rules = self.reach.get("rules") or {}
        return sorted(
            (str(r), int(c["reached"]), int(c["judged"]))
            for r, c in rules.items()
            if int(c["reached"]) < int(c["judged"]) and r not in off
        )

    @property
    def complete(self) -> bool:
        """Whether the run went through its whole selection (a report without the field did)."""
        return self.report.get("complete", True) is not False


REPORT_LIMIT = 64 * 2**20
"""Largest report ``pinochle report`` reads (bytes): a full suite's report is about 2 MB."""
SLUG_LIMIT = 60
"""Longest readable part of an engine's file name on the site (characters), before its hash."""


def _slug(text: str) -> str:
    """The engine's file name on the site: its label in ``[a-z0-9-]``, at most SLUG_LIMIT
    characters, then a hash of the whole label when it is cut, so that a long name neither
    breaks the file system (255 bytes a name) nor collides with another cut the same way."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "engine"
    if len(slug) <= SLUG_LIMIT:
        return slug
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{slug[:SLUG_LIMIT].strip('-') or 'engine'}-{digest}"


def _read(path: Path) -> Any:
    """A report file's JSON; ReportError naming the file when it cannot be read as JSON."""
    try:
        raw = read_at_most(path, REPORT_LIMIT)
        document: Any = None if raw is None else json.loads(raw.decode("utf-8"))
    except OSError as e:
        raise ReportError(f"{path}: {unreadable(path, e)}") from None
    except ValueError as e:
        raise ReportError(f"{path}: not JSON: {e}") from None
    except RecursionError:
        raise ReportError(f"{path}: not a conformance report: nested too deeply") from None
    if raw is None:
        size = size_over(path, REPORT_LIMIT)
        raise ReportError(f"{path}: {size}, over the {REPORT_LIMIT // 2**20} MiB a report may have")
    return document


def _check(path: Path, document: Any, schema: str) -> None:
    """ReportError naming the file and the first place where ``document`` fails ``schema``."""
    error = checker(schema).error(document)
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "(top)"
        raise ReportError(f"{path}: not a conformance report: {where}: {error.message}")


def load_run(path: Path) -> EngineRun:
    """A single engine's report file as an ``EngineRun``; ReportError naming the file when it is
    not JSON or fails spec/schema/report.schema.json."""
    document = _read(path)
    _check(path, document, SINGLE)
    return _run_of(path, document, path.name)


def load_runs(path: Path) -> list[EngineRun]:
    """The runs a report file holds: one for a single report, each engine's for a combined
    report (spec/schema/combined-report.schema.json), in its order; ReportError naming the
    file when it is neither."""
    document = _read(path)
    if not is_combined(document):
        _check(path, document, SINGLE)
        return [_run_of(path, document, path.name)]
    _check(path, document, COMBINED)
    if not document["reports"]:
        raise ReportError(f"{path}: a combined report holding no engine's report")
    return [
        _run_of(path, report, f"{path.name}, engine {n}")
        for n, report in enumerate(document["reports"], start=1)
    ]


def _run_of(path: Path, report: dict[str, Any], source: str) -> EngineRun:
    engine = report["engine"]
    named = [str(engine[k]) for k in ("name", "version") if engine.get(k)]
    # Escaped: a report written by hand (or before the client escaped them) may hold control
    # characters, which the pages and the terminal must not pass on.
    label = escaped(" ".join(shorten(text, NAME_LIMIT) for text in named))
    label = label or escaped(shorten(str(engine["command"]), COMMAND_LIMIT))
    slug = _slug(label)
    if report.get("complete", True) is False:
        # Shown wherever the engine is named: these counts are of the cases that finished only.
        label += f" (partial run, exit status {report.get('exit_status', '?')})"
    command = escaped(shorten(str(engine["command"]), COMMAND_LIMIT))
    return EngineRun(slug, label, command, path, report, report["cases"], source)


NAME_LIMIT = 100
"""Longest engine name or version shown (characters): a report written by hand, or before the
client capped them, must not copy a megabyte into every page."""
COMMAND_LIMIT = 500


def unique_slugs(runs: Sequence[EngineRun]) -> None:
    """Every run gets a file name (and a column) of its own, whatever the names: a second run of
    a slug takes the first ``SLUG-N`` that no run has, as its own slug or as one given here (two
    "pin 1" and one "pin 1 2": ``pin-1``, ``pin-1-3``, ``pin-1-2``)."""
    taken: set[str] = set()
    wanted = {run.slug for run in runs}
    for run in runs:
        if run.slug not in taken:
            taken.add(run.slug)
            continue
        n = 2
        while f"{run.slug}-{n}" in taken or f"{run.slug}-{n}" in wanted:
            n += 1
        run.slug = f"{run.slug}-{n}"
        taken.add(run.slug)
        run.label = f"{run.label} ({run.source or run.path.name})"


# --- what each item is ------------------------------------------------------------------------


@cache
def _table_cases() -> dict[str, Case]:
    return {case.id: case for case in load_cases()}


@cache
def _scenario_variants() -> dict[str, tuple[str, ...]]:
    """Test function name (as pytest-bdd names it) -> the variants its scenario is tagged with."""
    known = set(variant_ids())
    out: dict[str, set[str]] = defaultdict(set)
    for path in feature_paths():
        for scenario in feature_scenarios(path):
            name = "test_" + _python_name(scenario.name)
            for tags in scenario.rows:
                out[name].update(t for t in tags if t in known)
    return {name: tuple(sorted(v)) for name, v in out.items()}


def _python_name(text: str) -> str:
    # pytest-bdd's own naming (pytest_bdd.scenario.make_python_name), so node IDs can be matched.
    text = re.sub(r"\W", "", text.replace(" ", "_"))
    return re.sub(r"^\d+_*", "", text).lower()


def variant_of(node: str, verdict: Mapping[str, Any]) -> str:
    """The variant an item ran in: the report's, a table case's, or its scenario's one variant
    tag (a Scenario Outline over several variants: the variant its row's ID starts with)."""
    if isinstance(verdict.get("variant"), str):
        return str(verdict["variant"])
    name = node.rsplit("::", 1)[-1]
    case = _table_cases().get(name)
    if case is not None and node.split("::", 1)[0].endswith(".yaml"):
        return case.variant
    function, _, params = name.partition("[")
    names = _scenario_variants()
    # pytest-bdd numbers a second scenario of the same name: test_x, test_x_1, ...
    tagged = names.get(function) or names.get(re.sub(r"_\d+$", "", function), ())
    if len(tagged) == 1:
        return tagged[0]
    for variant in sorted(tagged or variant_ids(), key=len, reverse=True):
        if params.startswith(f"{variant}-") or params.rstrip("]") == variant:
            return variant
    return UNSPECIFIED


@dataclass(frozen=True)
class Item:
    """One case or scenario as the site shows it, with each engine's verdict."""

    node: str
    rule: str
    variant: str
    case: Case | None
    verdicts: dict[str, dict[str, Any]]
    """Engine slug -> the report's verdict (absent when that run did not have the item)."""

    @property
    def title(self) -> str:
        if self.case is not None:
            return self.case.id
        function, _, params = self.node.rsplit("::", 1)[-1].partition("[")
        words = function.removeprefix("test_").replace("_", " ")
        return words + (f" [{params}" if params else "")

    @property
    def source(self) -> str:
        if self.case is not None:
            return self.case.where
        return self.node.split("::", 1)[0]

    @property
    def anchor(self) -> str:
        """The item's HTML id on its rule page: its title when that is a valid id (a table case's
        ID), else the title in ``[A-Za-z0-9_-]`` with a short hash of it, unique and quote-free."""
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9_.-]*", self.title):
            return self.title
        digest = hashlib.sha256(self.title.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        return f"{re.sub(r'[^A-Za-z0-9_-]+', '-', self.title).strip('-')[:80]}-{digest}"

    def bad(self, slug: str) -> bool:
        """Whether the engine ``slug`` failed or errored on this item."""
        return str(self.verdicts.get(slug, {}).get("outcome")) in BAD

    @property
    def failing(self) -> bool:
        """Whether any engine failed or errored on this item."""
        return any(self.bad(slug) for slug in self.verdicts)

    @property
    def request(self) -> str | None:
        """The request line every engine was sent, when they were all asked the same (ids
        aside; an engine's house rules can change the options sent); None otherwise."""
        lines = [str(v["request"]) for v in self.verdicts.values() if v.get("request")]
        asked = {_without_id(line) for line in lines}
        return lines[0] if len(asked) == 1 else None


def _without_id(line: str) -> str:
    """A request line with its id left out: each engine numbers its own requests."""
    try:
        message = json.loads(line)
    except ValueError:
        return line
    if isinstance(message, dict):
        message.pop("id", None)
    return json.dumps(message, sort_keys=True)


def failing_first(items: Sequence[Item]) -> list[Item]:
    """``items`` with those some engine failed or errored on first, each group in its order."""
    return sorted(items, key=lambda item: not item.failing)


INSTALL_PATH = re.compile(r"(?:[^\s\"'(]*[/\\])?(?:site|dist)-packages[/\\](?:specdata[/\\])?")
"""An installed package's directory in a path (``../venv/lib/python3.11/site-packages/``, and
specdata's, where the packaged suite lives): shown as the path inside the project."""


def shown(text: Any) -> str:
    """``text`` without install paths: the site reads the same from a wheel as from a checkout."""
    return INSTALL_PATH.sub("", str(text))


def collect_items(runs: Sequence[EngineRun]) -> list[Item]:
    """Every item of every report, once, with each engine's verdict."""
    nodes: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for run in runs:
        for node, verdict in run.cases.items():
            nodes[node][run.slug] = verdict
    items = []
    for node in sorted(nodes):
        verdicts = nodes[node]
        first = next(iter(verdicts.values()))
        name = node.rsplit("::", 1)[-1]
        case = _table_cases().get(name) if node.split("::", 1)[0].endswith(".yaml") else None
        items.append(Item(node, str(first["rule"]), variant_of(node, first), case, verdicts))
    return items
