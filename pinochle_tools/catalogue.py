"""The rule catalogue's coverage: which rule is tested where, per variant, and the table of the
variants side by side (``pinochle spec coverage|variants``); the catalogue is specdata.rules."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gherkin.parser import Parser

from pinochle_judge.cases import load_cases, shown_path
from specdata import (
    FEATURES_DIR,
    RULE_ID,
    SPEC_DIR,
    load_variant,
    variant_ids,
)
from specdata.rules import Rule, load_catalogue

COVERAGE_MD = SPEC_DIR / "coverage.md"
README_MD = SPEC_DIR / "README.md"

VARIANTS_BLOCK = re.compile(
    r"(?P<begin><!-- BEGIN variants-table.*?-->)(?P<body>.*?)(?P<end><!-- END variants-table -->)",
    re.DOTALL,
)


@dataclass(frozen=True)
class Evidence:
    """One test of a rule in one variant: a table case or a Gherkin scenario."""

    kind: str  # "table" or "scenario"
    name: str
    file: str
    line: int
    rule: str
    variant: str
    negative: bool
    tested: bool = True
    """False for a rule the case only uses: it counts for names, not for coverage."""


@dataclass(frozen=True)
class Step:
    """A Gherkin step as written: keyword, text, line, and its doc string or data table."""

    keyword: str
    text: str
    line: int
    doc: str | None = None
    table: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Examples:
    """An Examples block of a Scenario Outline: its own tags, line, header and rows."""

    tags: tuple[str, ...]
    line: int
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class Scenario:
    """A Gherkin scenario as the coverage and the spec site see it: its name, place and tags (the
    feature's too), and as written: description, background steps, steps, Examples blocks."""

    name: str
    file: str
    line: int
    tags: list[str] = field(default_factory=list)
    examples: list[list[str]] = field(default_factory=list)
    """The tags of each Examples block (a block's rule tag is the tested rule of its rows)."""
    description: str = ""
    background: list[Step] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    blocks: list[Examples] = field(default_factory=list)

    @property
    def rows(self) -> list[list[str]]:
        """The tag sets the scenario's items carry: one per Examples block, or the scenario's."""
        return [self.tags + tags for tags in self.examples] or [self.tags]


def _names(tags: Iterable[Mapping[str, object]]) -> list[str]:
    return [str(t["name"]).lstrip("@") for t in tags]


def _cells(row: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(str(c["value"]) for c in row["cells"])


def _steps(steps: Iterable[Mapping[str, Any]]) -> list[Step]:
    out = []
    for s in steps:
        doc = s.get("docString")
        table = s.get("dataTable")
        out.append(
            Step(
                str(s["keyword"]).strip(),
                str(s["text"]),
                int(s["location"]["line"]),
                None if doc is None else str(doc["content"]),
                tuple(_cells(r) for r in table["rows"]) if table else (),
            )
        )
    return out


def _examples(block: Mapping[str, Any]) -> Examples:
    header = block.get("tableHeader")
    return Examples(
        tuple(_names(block.get("tags", []))),
        int(block["location"]["line"]),
        _cells(header) if header else (),
        tuple(_cells(r) for r in block.get("tableBody", [])),
    )


def feature_scenarios(path: Path) -> list[Scenario]:
    """Scenarios of a .feature file, read by the official Gherkin parser, with their tags and
    steps.

    A scenario carries its feature's and its rule's tags, as pytest-bdd applies them, and the
    tags of each of its Examples blocks apart; its background steps are the feature's and its
    rule's.
    """
    document = Parser().parse(path.read_text(encoding="utf-8"))
    feature = document.get("feature")
    if not feature:
        return []
    file = shown_path(path)
    out: list[Scenario] = []

    def visit(children: list[Any], tags: list[str], background: list[Step]) -> None:
        for child in children:
            if "background" in child:
                background = background + _steps(child["background"]["steps"])
            elif "rule" in child:
                rule = child["rule"]
                visit(rule["children"], tags + _names(rule["tags"]), background)
            elif "scenario" in child:
                sc = child["scenario"]
                line = int(sc["location"]["line"])
                blocks = [_examples(ex) for ex in sc.get("examples", [])]
                out.append(
                    Scenario(
                        sc["name"],
                        file,
                        line,
                        tags + _names(sc["tags"]),
                        [list(b.tags) for b in blocks],
                        str(sc.get("description") or "").strip(),
                        background,
                        _steps(sc["steps"]),
                        blocks,
                    )
                )

    visit(feature["children"], _names(feature["tags"]), [])
    return out


def feature_paths() -> list[Path]:
    """Every .feature file of the suite."""
    return sorted(FEATURES_DIR.glob("*.feature"))


def collect_evidence() -> list[Evidence]:
    """Every (rule, variant) a table case or a tagged scenario tests, and every rule it uses."""
    known = set(variant_ids())
    out = []
    for c in load_cases():
        out.append(Evidence("table", c.id, c.file, c.line, c.rule, c.variant, c.negative))
        out.extend(
            Evidence("table", c.id, c.file, c.line, r, c.variant, c.negative, tested=False)
            for r in c.uses
        )
    for path in feature_paths():
        for sc in feature_scenarios(path):
            for tags in sc.rows:
                variants = [t for t in tags if t in known]
                negative = "negative" in tags
                for tag in tags:
                    rule, tested = tag.removeprefix("uses:"), not tag.startswith("uses:")
                    if RULE_ID.fullmatch(rule):
                        out.extend(
                            Evidence(
                                "scenario", sc.name, sc.file, sc.line, rule, v, negative, tested
                            )
                            for v in variants
                        )
    return out


def matrix(
    rules: dict[str, Rule], evidence: Sequence[Evidence]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(rule, variant) -> (positive, negative) counts, for every rule in every variant it has."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for ev in evidence:
        if ev.tested:
            counts[(ev.rule, ev.variant)][1 if ev.negative else 0] += 1
    cells = {}
    for rule in rules.values():
        for variant in rule.variants:
            pos, neg = counts.get((rule.id, variant), [0, 0])
            cells[(rule.id, variant)] = (pos, neg)
    return cells


def gaps(rules: dict[str, Rule], evidence: Sequence[Evidence]) -> list[str]:
    """Every rule x variant without a positive and a negative case, and every unknown name."""
    out = []
    for (rule, variant), (pos, neg) in sorted(matrix(rules, evidence).items()):
        needed = (
            (("negative", neg),)
            if variant in rules[rule].refuse_only
            else (
                ("positive", pos),
                ("negative", neg),
            )
        )
        missing = [w for w, n in needed if n == 0]
        if missing:
            out.append(f"{rule} in {variant}: no {' and no '.join(missing)} case")
    known_variants = set(variant_ids())
    for ev in evidence:
        where = f"{ev.file}:{ev.line} ({ev.kind} {ev.name!r})"
        if ev.rule not in rules:
            out.append(f"{where}: unknown rule ID {ev.rule}")
        elif ev.variant not in rules[ev.rule].variants:
            out.append(f"{where}: {ev.rule} does not apply to {ev.variant}")
        if ev.variant not in known_variants:
            out.append(f"{where}: unknown variant {ev.variant}")
    return sorted(set(out), key=out.index)


def render_matrix(rules: dict[str, Rule], evidence: Sequence[Evidence]) -> str:
    """The rule x variant matrix as text: ``positive/negative`` per cell, ``!`` marks a gap."""
    variants = variant_ids()
    cells = matrix(rules, evidence)
    width = max([len(r) for r in rules] + [4])
    lines = [f"{'rule':<{width}}  " + "  ".join(f"{v:>12}" for v in variants)]
    for rule_id in rules:
        row = []
        for v in variants:
            if (rule_id, v) not in cells:
                row.append(f"{'·':>12}")
            else:
                pos, neg = cells[(rule_id, v)]
                mark = "" if pos and neg else " !"
                row.append(f"{f'{pos}/{neg}{mark}':>12}")
        lines.append(f"{rule_id:<{width}}  " + "  ".join(row))
    lines.append("cells: positive/negative cases (tables and tagged scenarios); ! = gap; · = n/a")
    return "\n".join(lines)


def render_coverage_md(rules: dict[str, Rule], evidence: Sequence[Evidence]) -> str:
    """spec/coverage.md: the matrix, then per rule ID its table cases and scenarios."""
    variants = variant_ids()
    cells = matrix(rules, evidence)
    out = [
        "# Coverage of the rules",
        "",
        "Generated by `pinochle spec coverage --write` from spec/rules, features/tables and the",
        "tags of features/*.feature; do not edit by hand. A cell is positive/negative cases; a",
        "missing positive or negative case is marked **gap**.",
        "",
        "| rule | " + " | ".join(variants) + " |",
        "| --- | " + " | ".join("---" for _ in variants) + " |",
    ]
    for rule_id in rules:
        row = []
        for v in variants:
            if (rule_id, v) not in cells:
                row.append("·")
            else:
                pos, neg = cells[(rule_id, v)]
                row.append(f"{pos}/{neg}" + ("" if pos and neg else " **gap**"))
        out.append(f"| [{rule_id}](#{rule_id.lower()}) | " + " | ".join(row) + " |")
    by_rule: dict[str, list[Evidence]] = defaultdict(list)
    for ev in evidence:
        by_rule[ev.rule].append(ev)
    for rule_id, rule in rules.items():
        out += ["", f"## {rule_id}", ""]
        out.append(
            f"{rule.title} ([{rule.file}:{rule.line}](../{rule.file}#L{rule.line})); "
            f"variants: {', '.join(rule.variants) or 'none'}"
        )
        out.append("")
        seen = set()
        items = sorted(by_rule.get(rule_id, []), key=lambda e: (e.kind, e.file, e.line, e.variant))
        if not items:
            out.append("- no case yet")
        for ev in items:
            place = (ev.kind, ev.file, ev.line)
            if place in seen:
                continue
            seen.add(place)
            vs = sorted({e.variant for e in items if (e.kind, e.file, e.line) == place})
            note = ", negative" if ev.negative else ""
            label = f"`{ev.name}`" if ev.kind == "table" else f"scenario “{ev.name}”"
            out.append(
                f"- {label} ({', '.join(vs)}{note}): [{ev.file}:{ev.line}](../{ev.file}#L{ev.line})"
            )
    return "\n".join(out) + "\n"


def coverage_report(markdown: bool = False) -> str:
    """The coverage of the rules: the text matrix, or spec/coverage.md's text when ``markdown``.

    Raises CaseError (a ValueError naming file and line) when a table is broken.
    """
    rules, evidence = load_catalogue(), collect_evidence()
    return render_coverage_md(rules, evidence) if markdown else render_matrix(rules, evidence)


def coverage_gaps() -> list[str]:
    """Every rule x variant lacking a positive or a negative case, and every unknown name used."""
    return gaps(load_catalogue(), collect_evidence())


# --- variants table -----------------------------------------------------------------------------


def _flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict) and data:
        flat: dict[str, Any] = {}
        for key, value in data.items():
            flat.update(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: data}


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return "—" if not value else ", ".join(f"{k}: {_cell(v)}" for k, v in value.items())
    return str(value).replace("|", "\\|")


def variants_table() -> str:
    """Every rules parameter of the variants side by side, then each variant's options."""
    variants = {vid: load_variant(vid) for vid in variant_ids()}
    flat = {vid: _flatten(v.rules_under()) for vid, v in variants.items()}
    keys: list[str] = []
    for vid in variants:
        keys += [k for k in flat[vid] if k not in keys]
    out = [
        "| parameter | " + " | ".join(variants) + " |",
        "| --- | " + " | ".join("---" for _ in variants) + " |",
    ]
    for key in keys:
        out.append(f"| `{key}` | " + " | ".join(_cell(flat[v].get(key)) for v in variants) + " |")
    out += ["", "Options (default first, then the other choices):", ""]
    for vid, variant in variants.items():
        for name, opt in variant.options.items():
            choices = list(opt.values[1:])
            desc = " ".join(opt.description.split())
            out.append(
                f"- {vid} `{name}`: **{opt.default}**"
                + (f" or {', '.join(choices)}" if choices else "")
                + (f" — {desc}" if desc else "")
            )
    return "\n".join(out)


def variants_block(text: str) -> str:
    """README text with its variants-table block filled in (ValueError if it has no block)."""
    m = VARIANTS_BLOCK.search(text)
    if m is None:
        raise ValueError(
            "no <!-- BEGIN variants-table --> ... <!-- END variants-table --> block found"
        )
    body = "\n" + variants_table() + "\n"
    return text[: m.start("body")] + body + text[m.end("body") :]
