"""The conformance site (``pinochle report REPORT.json ... -o DIR``): static HTML pages built from
conformance reports, one engine or several side by side.

Per variant a matrix of rules x engines; a page per rule (its statement from spec/rules, its cases
with the cards drawn and, for failures, expected against actual); a page and an SVG badge per
engine with its diagnosis. The pages hold no script and load nothing from the network.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from pinochle_judge import notation
from pinochle_judge.cases import Case, load_cases
from specdata import (
    RULE_ID,
    RULES_DIR,
    SPEC_DIR,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_codes,
    shorten,
    variant_ids,
)
from specdata.files import unreadable, write_atomic
from specdata.rules import Rule, load_catalogue

from .catalogue import Examples, Scenario, feature_paths, feature_scenarios
from .reports import COMBINED, SINGLE, checker, is_combined

TEMPLATES = Path(__file__).resolve().parent / "templates"
STATUSES = ("passed", "failed", "errored", "skipped")
UNSPECIFIED = "unspecified"
"""The variant of an item whose report names none and whose scenario has several."""
SUIT_COLOUR = {"s": "black", "c": "black", "h": "red", "d": "red"}
BADGE_COLOURS = {"passed": "#2e7d32", "partial": "#9e9d24", "failed": "#c62828", "none": "#757575"}


class ReportError(ValueError):
    """A file given to ``build_site`` is not a conformance report; the message names it."""


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
    def totals(self) -> dict[str, int]:
        return {s: int(self.report["totals"].get(s, 0)) for s in STATUSES}

    @property
    def diagnosis(self) -> list[dict[str, Any]]:
        return list(self.report.get("diagnosis", []))

    @property
    def unsupported(self) -> list[tuple[str, int]]:
        """Rules the engine answered "unsupported" (-32001) for, with how many cases."""
        raw = self.report.get("unsupported") or {}
        return sorted((str(rule), int(n)) for rule, n in raw.items())

    @property
    def derived(self) -> dict[str, int]:
        """Outcome counts of the cases judged on a derived expectation (house rules)."""
        raw = self.report.get("derived") or {}
        return {s: int(raw.get(s, 0)) for s in STATUSES}

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
        size = path.stat().st_size
        text = path.read_text(encoding="utf-8") if size <= REPORT_LIMIT else None
        document: Any = None if text is None else json.loads(text)
    except OSError as e:
        raise ReportError(f"{path}: {unreadable(path, e)}") from None
    except ValueError as e:
        raise ReportError(f"{path}: not JSON: {e}") from None
    except RecursionError:
        raise ReportError(f"{path}: not a conformance report: nested too deeply") from None
    if text is None:
        raise ReportError(
            f"{path}: {size} bytes, over the {REPORT_LIMIT // 2**20} MiB a report may have"
        )
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
    label = " ".join(shorten(text, NAME_LIMIT) for text in named)
    label = label or shorten(str(engine["command"]), COMMAND_LIMIT)
    slug = _slug(label)
    if report.get("complete", True) is False:
        # Shown wherever the engine is named: these counts are of the cases that finished only.
        label += f" (partial run, exit status {report.get('exit_status', '?')})"
    command = shorten(str(engine["command"]), COMMAND_LIMIT)
    return EngineRun(slug, label, command, path, report, report["cases"], source)


NAME_LIMIT = 100
"""Longest engine name or version shown (characters): a report written by hand, or before the
client capped them, must not copy a megabyte into every page."""
COMMAND_LIMIT = 500


def _unique_slugs(runs: Sequence[EngineRun]) -> None:
    """Two reports of one engine (two versions, two commands) get different file names."""
    seen: Counter[str] = Counter()
    for run in runs:
        seen[run.slug] += 1
        if seen[run.slug] > 1:
            run.slug = f"{run.slug}-{seen[run.slug]}"
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


BAD = ("failed", "errored")
"""The outcomes that are a problem of the engine's."""


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


# --- cells of the matrix ----------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """The outcomes of one rule's items in one variant for one engine."""

    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def status(self) -> str:
        """The cell's colour: failed, errored, skipped (only), partial (passes and skips),
        passed, or none (no item)."""
        c = self.counts
        if not self.total:
            return "none"
        if c["failed"]:
            return "failed"
        if c["errored"]:
            return "errored"
        if not c["passed"]:
            return "skipped"
        return "partial" if c["skipped"] else "passed"

    @property
    def text(self) -> str:
        if not self.total:
            return "·"
        return f"{self.counts['passed']}/{self.total}"

    @property
    def tooltip(self) -> str:
        return ", ".join(f"{self.counts[s]} {s}" for s in STATUSES if self.counts[s]) or "no case"


def cell(items: Iterable[Item], slug: str) -> Cell:
    counts = dict.fromkeys(STATUSES, 0)
    for item in items:
        verdict = item.verdicts.get(slug)
        # A case of a variant or method the engine does not declare is no case of its.
        if verdict is not None and not verdict.get("undeclared"):
            counts[str(verdict["outcome"])] += 1
    return Cell(counts)


# --- rule statements ----------------------------------------------------------------------------


def rule_statement(rule: Rule) -> str:
    """The rule's section of its chapter in spec/rules, from its heading to the next heading."""
    path = RULES_DIR / Path(rule.file).name
    lines = path.read_text(encoding="utf-8").splitlines()
    body = []
    for line in lines[rule.line :]:  # rule.line is the heading's 1-based line
        if line.startswith("#"):
            break
        body.append(line)
    return "\n".join(body).strip()


def _code(match: re.Match[str]) -> str:
    words = match[1].split()
    if words and all(re.fullmatch(r"[ATKQJ9][shdc]", w) for w in words):
        return cards_html(words)  # cards quoted in the rule text are drawn too
    return f"<code>{match[1]}</code>"


def _inline(text: str) -> str:
    out = html.escape(text, quote=False)
    # A link's target is a file of the repository, not of the site: keep its words only.
    out = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", out)
    out = re.sub(r"`([^`]+)`", _code, out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"(?<![*\w])\*([^*]+)\*(?!\w)", r"<em>\1</em>", out)


def markdown_html(text: str) -> Markup:
    """The small Markdown the spec uses: headings (one level down, with an id), paragraphs,
    bullets (with continuation lines), tables, fenced code, ``code``, **bold** and *italic*;
    everything else is escaped text."""
    out: list[str] = []
    block: list[str] = []
    kind = ""

    def flush() -> None:
        nonlocal block, kind
        if kind == "p":
            out.append(f"<p>{_inline(' '.join(block))}</p>")
        elif kind == "ul":
            out.append("<ul>" + "".join(f"<li>{_inline(x)}</li>" for x in block) + "</ul>")
        elif kind == "table":
            rows = [
                [c.strip() for c in row.strip().strip("|").split("|")]
                for row in block
                if not re.fullmatch(r"\|[\s:|-]+\|?", row.strip())
            ]
            head, *rest = rows or [[]]
            out.append(
                "<table class='statement'><tr>"
                + "".join(f"<th>{_inline(c)}</th>" for c in head)
                + "</tr>"
                + "".join(
                    "<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>"
                    for row in rest
                )
                + "</table>"
            )
        block, kind = [], ""

    fenced: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if fenced is not None:  # a fenced code block: kept as it is, up to its closing fence
            if stripped.startswith("```"):
                out.append(f"<pre>{html.escape(chr(10).join(fenced))}</pre>")
                fenced = None
            else:
                fenced.append(line)
            continue
        if stripped.startswith("```"):
            flush()
            fenced = []
        elif re.match(r"#{1,6} ", stripped):
            flush()
            level = min(len(stripped) - len(stripped.lstrip("#")) + 1, 6)
            title = stripped.lstrip("#").strip()
            out.append(f"<h{level} id='{heading_id(title)}'>{_inline(title)}</h{level}>")
        elif not stripped:
            flush()
        elif stripped.startswith("|"):
            if kind != "table":
                flush()
                kind = "table"
            block.append(stripped)
        elif re.match(r"^[-*] ", stripped) and not line.startswith("  "):
            if kind != "ul":
                flush()
                kind = "ul"
            block.append(stripped[2:])
        elif kind == "ul" and line.startswith(" "):
            block[-1] += " " + stripped
        else:
            if kind not in ("p", ""):
                flush()
            kind = "p"
            block.append(stripped)
    flush()
    return Markup("\n".join(out))


def heading_id(title: str) -> str:
    """A heading's id, as a forge would make it: lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


# --- cards and values -----------------------------------------------------------------------------


def card_html(code: str) -> str:
    """One card drawn: rank and suit symbol, red for hearts and diamonds, black otherwise."""
    colour = SUIT_COLOUR.get(code[-1:], "black")
    return (
        f'<span class="card {colour}" title="{html.escape(code)}">'
        f"{html.escape(notation.card(code))}</span>"
    )


def cards_html(codes: Sequence[Any]) -> str:
    if not codes:
        return '<span class="none">no cards</span>'
    return '<span class="cards">' + "".join(card_html(str(c)) for c in codes) + "</span>"


def value_html(method: str, kind: str, key: str, data: Any) -> Markup:
    """A field of a request (``params``) or answer (``result``), its cards drawn."""
    paths = notation.card_paths(method, kind)
    if key == "trump" and isinstance(data, str):
        return Markup(f"{card_suit(data)} {html.escape(SUIT_NAMES.get(data, data))}")
    if key in paths and isinstance(data, list):
        return Markup(cards_html(data))
    if f"{key}[]" in paths and isinstance(data, list):
        return Markup(
            "<ol class='hands' start='0'>"
            + "".join(
                f"<li>{cards_html(h) if isinstance(h, list) else html.escape(str(h))}</li>"
                for h in data
            )
            + "</ol>"
        )
    if key == "melds" and isinstance(data, list):
        shown = [html.escape(notation.meld(m)) for m in data if isinstance(m, dict)]
        return Markup(", ".join(shown) or "none")
    text = json.dumps(data, ensure_ascii=False) if not isinstance(data, str) else data
    return Markup(f"<code>{html.escape(text)}</code>")


QUOTED = re.compile(r'"([^"]*)"')
"""A quoted argument of a step (``seat 1 holds "Ah Ks Qd Jc"``)."""


def _cards_in(text: str) -> list[str]:
    """The cards ``text`` is made of (``Ah Ks``, ``AdAdAdAd``), or [] when it is anything else."""
    try:
        return card_codes(text) if text.strip() else []
    except ValueError:
        return []


def drawn_html(text: str) -> Markup:
    """Text of a step or a cell, its cards drawn: a quoted argument or a whole text made of
    cards only; everything else escaped as written."""
    whole = _cards_in(text)
    if whole:
        return Markup(cards_html(whole))
    out, at = [], 0
    for m in QUOTED.finditer(text):
        cards = _cards_in(m.group(1))
        out += [
            html.escape(text[at : m.start()]),
            cards_html(cards) if cards else html.escape(m[0]),
        ]
        at = m.end()
    return Markup("".join([*out, html.escape(text[at:])]))


@dataclass(frozen=True)
class ScenarioView:
    """A Gherkin scenario under one rule of the spec site: the scenario as written, with the
    Examples blocks (of an outline) whose rows test that rule."""

    scenario: Scenario
    blocks: tuple[Examples, ...]

    @property
    def anchor(self) -> str:
        return f"scenario-{Path(self.scenario.file).stem}-{self.scenario.line}"

    @property
    def where(self) -> str:
        return f"{self.scenario.file}:{self.scenario.line}"

    @property
    def text(self) -> str:
        """Everything it says, for the offline search."""
        steps = [f"{s.keyword} {s.text}" for s in self.scenario.steps]
        return " ".join([self.scenario.name, *self.scenario.tags, *steps])


def scenarios_by_rule() -> dict[str, list[ScenarioView]]:
    """Rule ID -> the scenarios testing it, in feature-file order: a scenario under its rule tags;
    an outline under each Examples block's rule tag (the scenario's when the block has none)."""
    out: dict[str, list[ScenarioView]] = defaultdict(list)
    for path in feature_paths():
        for sc in feature_scenarios(path):
            own = [t for t in sc.tags if RULE_ID.fullmatch(t)]
            by_rule: dict[str, list[Examples]] = {rule: [] for rule in own} if not sc.blocks else {}
            for block in sc.blocks:
                for rule in [t for t in block.tags if RULE_ID.fullmatch(t)] or own:
                    by_rule.setdefault(rule, []).append(block)
            for rule, blocks in by_rule.items():
                out[rule].append(ScenarioView(sc, tuple(blocks)))
    return out


def card_suit(letter: str) -> str:
    symbol = SUIT_SYMBOLS.get(letter, letter)
    return f'<span class="suit {SUIT_COLOUR.get(letter, "black")}">{html.escape(symbol)}</span>'


# --- badges -------------------------------------------------------------------------------------


def badge_svg(run: EngineRun) -> str:
    """A shields-style badge: ``pinochle | 1141/1370 passed``, green when nothing fails; a run
    that did not complete is never green (``partial run``)."""
    totals = run.totals
    ran = sum(totals.values())
    bad = totals["failed"] + totals["errored"]
    status = (
        "none"
        if not ran
        else "failed"
        if bad
        else "partial"
        if totals["skipped"] or not run.complete
        else "passed"
    )
    left, right = "pinochle", f"{totals['passed']}/{ran} passed"
    if not run.complete:
        right += ", partial run"
    # Widths from an average glyph of 7 px at 11 px Verdana: close enough for a badge.
    lw, rw = 10 + 7 * len(left), 10 + 7 * len(right)
    colour = BADGE_COLOURS[status]
    label = html.escape(f"{left}: {right} ({run.label})", quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lw + rw}" height="20" role="img" '
        f'aria-label="{label}"><title>{label}</title>'
        f'<rect width="{lw}" height="20" fill="#555"/>'
        f'<rect x="{lw}" width="{rw}" height="20" fill="{colour}"/>'
        '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{lw / 2}" y="14" text-anchor="middle">{left}</text>'
        f'<text x="{lw + rw / 2}" y="14" text-anchor="middle">{html.escape(right)}</text>'
        "</g></svg>\n"
    )


# --- the site -------------------------------------------------------------------------------------


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["cards"] = lambda codes: Markup(cards_html(codes))
    env.filters["shown"] = shown
    env.filters["drawn"] = drawn_html
    env.globals["value_html"] = value_html
    env.globals["statuses"] = STATUSES
    return env


def build_site(reports: list[Path], out: Path) -> None:
    """Write the conformance site of ``reports`` (single reports, one per engine, or combined
    reports of several) into ``out``: index.html (per variant a matrix of rules x engines),
    rules/ID.html, engines/SLUG.html, badges/SLUG.svg, style.css; pages and badges an earlier
    site left there (an engine no longer reported) are removed. Raises ReportError naming a file
    that is not a conformance report."""
    if not reports:
        raise ReportError("no report given: pass one or more --conformance-report files")
    runs = [run for p in reports for run in load_runs(Path(p))]
    _unique_slugs(runs)
    catalogue = load_catalogue()
    items = collect_items(runs)
    by_rule_variant: dict[tuple[str, str], list[Item]] = defaultdict(list)
    by_rule: dict[str, list[Item]] = defaultdict(list)
    for item in items:
        by_rule_variant[(item.rule, item.variant)].append(item)
        by_rule[item.rule].append(item)
    variants = [*variant_ids()] + (
        [UNSPECIFIED] if any(i.variant == UNSPECIFIED for i in items) else []
    )
    rule_ids = [*catalogue, *sorted(set(by_rule) - set(catalogue))]

    def rules_of(variant: str) -> list[str]:
        return [
            r
            for r in rule_ids
            if (r in catalogue and variant in catalogue[r].variants)
            or by_rule_variant.get((r, variant))
        ]

    matrices = [
        {
            "variant": variant,
            "rows": [
                {
                    "rule": rule,
                    "title": catalogue[rule].title if rule in catalogue else "(not in spec/rules)",
                    "cells": [cell(by_rule_variant.get((rule, variant), []), r.slug) for r in runs],
                }
                for rule in rules_of(variant)
            ],
        }
        for variant in variants
    ]
    env = _environment()
    out.mkdir(parents=True, exist_ok=True)
    for sub in ("rules", "engines", "badges"):
        (out / sub).mkdir(exist_ok=True)
    write_atomic(out / "style.css", (TEMPLATES / "style.css").read_text(encoding="utf-8"))
    common = {"runs": runs, "catalogue": catalogue}
    failures = what_fails(runs, by_rule_variant, rule_ids, variants, catalogue)
    _render(
        env,
        "index.html.j2",
        out / "index.html",
        root="",
        matrices=matrices,
        failures=failures,
        **common,
    )
    for rule in rule_ids:
        sections = [
            {
                "variant": variant,
                "cells": [cell(by_rule_variant[(rule, variant)], r.slug) for r in runs],
                "items": failing_first(by_rule_variant[(rule, variant)]),
                "first_bad": [
                    next((i.anchor for i in by_rule_variant[(rule, variant)] if i.bad(r.slug)), "")
                    for r in runs
                ],
            }
            for variant in variants
            if by_rule_variant.get((rule, variant))
        ]
        known = catalogue.get(rule)
        _render(
            env,
            "rule.html.j2",
            out / "rules" / f"{rule}.html",
            root="../",
            rule_id=rule,
            rule=known,
            statement=markdown_html(rule_statement(known)) if known else Markup(""),
            sections=sections,
            **common,
        )
    for run in runs:
        bad = [
            item
            for item in items
            if str(item.verdicts.get(run.slug, {}).get("outcome")) in ("failed", "errored")
        ]
        _render(
            env,
            "engine.html.j2",
            out / "engines" / f"{run.slug}.html",
            root="../",
            run=run,
            bad=bad,
            per_variant=[
                (v, cell([i for i in items if i.variant == v], run.slug)) for v in variants
            ],
            **common,
        )
        write_atomic(out / "badges" / f"{run.slug}.svg", badge_svg(run))
    written = {
        *(out / "rules" / f"{rule}.html" for rule in rule_ids),
        *(out / "engines" / f"{run.slug}.html" for run in runs),
        *(out / "badges" / f"{run.slug}.svg" for run in runs),
    }
    for sub, suffix in (("rules", ".html"), ("engines", ".html"), ("badges", ".svg")):
        for page in (out / sub).iterdir():
            if page.suffix == suffix and page not in written:
                page.unlink()


def what_fails(
    runs: Sequence[EngineRun],
    by_rule_variant: Mapping[tuple[str, str], Sequence[Item]],
    rule_ids: Sequence[str],
    variants: Sequence[str],
    catalogue: Mapping[str, Rule],
) -> list[dict[str, Any]]:
    """What the index opens with: a row per engine and rule it failed or errored on (most such
    cases first, then the spec's order), each variant where it did with its counts and its first
    such case."""
    rows: list[dict[str, Any]] = []
    for run in runs:
        found: list[dict[str, Any]] = []
        for rule in rule_ids:
            where: list[dict[str, Any]] = []
            bad_count = 0
            for variant in variants:
                items = by_rule_variant.get((rule, variant), ())
                bad = [i for i in items if i.bad(run.slug)]
                if bad:
                    bad_count += len(bad)
                    where.append(
                        {
                            "variant": variant,
                            "bad": len(bad),
                            "total": len(items),
                            "cell": cell(items, run.slug),
                            "first": bad[0].anchor,
                        }
                    )
            if where:
                title = catalogue[rule].title if rule in catalogue else ""
                found.append(
                    {"run": run, "rule": rule, "title": title, "where": where, "bad": bad_count}
                )
        found.sort(key=lambda row: -int(row["bad"]))
        rows.extend(found)
    return rows


def _render(env: jinja2.Environment, template: str, path: Path, **context: Any) -> None:
    write_atomic(path, env.get_template(template).render(**context))


SPEC_PAGES = (("errata", "errata.md", "Errata"), ("protocol", "protocol.md", "The protocol"))
"""Chapters of spec/ the spec site renders whole: page name, file, title."""


def build_spec_site(out: Path) -> None:
    """Write the spec as a site into ``out``, from spec/ and features/ alone: an index of the
    rules, a page per rule (its text, sources, variants, every table case drawn with its
    expected answer and why, and every Gherkin scenario testing it: its steps, cards drawn, with
    its tags and feature file:line), the errata and the protocol, and search.html (a search that
    works offline: its index is in the page)."""
    catalogue = load_catalogue()
    by_rule_variant: dict[tuple[str, str], list[Item]] = defaultdict(list)
    for case in load_cases():
        item = Item(f"{case.file}::{case.id}", case.rule, case.variant, case, {})
        by_rule_variant[(case.rule, case.variant)].append(item)
    scenarios = scenarios_by_rule()
    env = _environment()
    out.mkdir(parents=True, exist_ok=True)
    (out / "rules").mkdir(exist_ok=True)
    write_atomic(out / "style.css", (TEMPLATES / "style.css").read_text(encoding="utf-8"))
    common: dict[str, Any] = {"runs": [], "catalogue": catalogue, "spec_site": True}
    entries = []
    for rule_id, rule in catalogue.items():
        sections = [
            {"variant": v, "cells": [], "items": by_rule_variant[(rule_id, v)], "first_bad": []}
            for v in variant_ids()
            if by_rule_variant.get((rule_id, v))
        ]
        statement = rule_statement(rule)
        _render(
            env,
            "rule.html.j2",
            out / "rules" / f"{rule_id}.html",
            root="../",
            rule_id=rule_id,
            rule=rule,
            statement=markdown_html(statement),
            sections=sections,
            scenarios=scenarios.get(rule_id, []),
            **common,
        )
        cases = sum(len(section["items"]) for section in sections)
        entries.append(
            {
                "id": rule_id,
                "title": rule.title,
                "cases": cases,
                "scenarios": len(scenarios.get(rule_id, [])),
                "text": statement,
            }
        )
    for name, file, title in SPEC_PAGES:
        text = (SPEC_DIR / file).read_text(encoding="utf-8")
        _render(
            env,
            "chapter.html.j2",
            out / f"{name}.html",
            root="",
            title=title,
            body=markdown_html(text),
            **common,
        )
        entries.append(
            {
                "id": title,
                "title": file,
                "cases": 0,
                "scenarios": 0,
                "text": text,
                "url": f"{name}.html",
            }
        )
    search = [
        {
            "id": e["id"],
            "title": e["title"],
            "url": e.get("url", f"rules/{e['id']}.html"),
            "text": " ".join(str(e["text"]).split()).lower(),
        }
        for e in entries
    ]
    search += [
        {
            "id": item.case.id,
            "title": f"{item.rule} case, {item.variant}",
            "url": f"rules/{item.rule}.html#{item.anchor}",
            "text": f"{item.case.id} {item.case.why}".lower(),
        }
        for items in by_rule_variant.values()
        for item in items
        if item.case is not None
    ]
    search += [
        {
            "id": view.scenario.name,
            "title": f"{rule_id} scenario, {view.where}",
            "url": f"rules/{rule_id}.html#{view.anchor}",
            "text": " ".join(view.text.split()).lower(),
        }
        for rule_id in catalogue
        for view in scenarios.get(rule_id, [])
    ]
    index_json = json.dumps(search, ensure_ascii=True).replace("</", "<\\/")
    _render(
        env,
        "spec_index.html.j2",
        out / "index.html",
        root="",
        rules=entries[: len(catalogue)],
        pages=SPEC_PAGES,
        **common,
    )
    _render(
        env, "search.html.j2", out / "search.html", root="", index_json=Markup(index_json), **common
    )
