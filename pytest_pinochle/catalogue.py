"""The rule catalogue and its coverage: which rule is tested where, per variant, and the table of
the variants side by side (``pinochle spec coverage|variants``)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gherkin.parser import Parser

from specdata import (
    FEATURES_DIR,
    RULE_ID,
    RULES_DIR,
    SPEC_DIR,
    load_variant,
    variant_ids,
)

from .tables import load_cases, shown_path

COVERAGE_MD = SPEC_DIR / "coverage.md"
README_MD = SPEC_DIR / "README.md"

RULE_HEADING = re.compile(rf"^## (?P<id>{RULE_ID.pattern}):\s*(?P<title>.*?)\s*$")
VARIANTS_BULLET = re.compile(r"^- \*\*Variants:\*\*\s*(?P<variants>.*?)\s*$")
VALUES_PREFIX = "- **Values:** "
VARIANTS_BLOCK = re.compile(
    r"(?P<begin><!-- BEGIN variants-table.*?-->)(?P<body>.*?)(?P<end><!-- END variants-table -->)",
    re.DOTALL,
)


@dataclass(frozen=True)
class Rule:
    """A rule of the catalogue: its ID, title, chapter and the variants it applies to."""

    id: str
    title: str
    file: str
    line: int
    variants: tuple[str, ...]
    refuse_only: tuple[str, ...] = ()
    """Variants whose value of the rule is ``none`` or ``never``: every attempt is refused, so
    only a negative case can exist there."""


def _refuse_only(values: str, variants: Sequence[str]) -> tuple[str, ...]:
    """The variants a ``- **Values:**`` text gives as ``none`` or ``never`` (``single-deck never
    allowed``)."""
    out = []
    for chunk in values.split(";"):
        words = chunk.split()
        if len(words) > 1 and words[0] in variants and words[1] in ("none", "never"):
            out.append(words[0])
    return tuple(out)


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


@dataclass
class Scenario:
    """A Gherkin scenario as the coverage sees it: its name, place and tags (the feature's too)."""

    name: str
    file: str
    line: int
    tags: list[str] = field(default_factory=list)
    examples: list[list[str]] = field(default_factory=list)
    """The tags of each Examples block (a block's rule tag is the tested rule of its rows)."""

    @property
    def rows(self) -> list[list[str]]:
        """The tag sets the scenario's items carry: one per Examples block, or the scenario's."""
        return [self.tags + tags for tags in self.examples] or [self.tags]


def load_catalogue(rules_dir: Path = RULES_DIR) -> dict[str, Rule]:
    """The rule catalogue: every ``## ID: title`` heading of spec/rules/*.md with its variants."""
    rules: dict[str, Rule] = {}
    for path in sorted(rules_dir.glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, text in enumerate(lines):
            m = RULE_HEADING.match(text)
            if not m:
                continue
            variants: tuple[str, ...] = ()
            values = ""
            body = lines[i + 1 :]
            for n, after in enumerate(body):
                if after.startswith("## ") or after.startswith("# "):
                    break
                vm = VARIANTS_BULLET.match(after)
                if vm:
                    variants = tuple(v.strip() for v in vm["variants"].split(",") if v.strip())
                if after.startswith(VALUES_PREFIX):
                    more = [x.strip() for x in body[n + 1 :] if x.startswith("  ")]
                    values = " ".join([after.removeprefix(VALUES_PREFIX), *more])
                    break
            rules[m["id"]] = Rule(
                m["id"],
                m["title"],
                shown_path(path),
                i + 1,
                variants,
                _refuse_only(values, variants),
            )
    return rules


def _names(tags: Iterable[Mapping[str, object]]) -> list[str]:
    return [str(t["name"]).lstrip("@") for t in tags]


def feature_scenarios(path: Path) -> list[Scenario]:
    """Scenarios of a .feature file, read by the official Gherkin parser, with their tags.

    A scenario carries its feature's and its rule's tags, as pytest-bdd applies them, and the
    tags of each of its Examples blocks apart.
    """
    document = Parser().parse(path.read_text(encoding="utf-8"))
    feature = document.get("feature")
    if not feature:
        return []
    file = shown_path(path)
    out: list[Scenario] = []

    def visit(children: list[Any], tags: list[str]) -> None:
        for child in children:
            if "rule" in child:
                rule = child["rule"]
                visit(rule["children"], tags + _names(rule["tags"]))
            elif "scenario" in child:
                sc = child["scenario"]
                line = int(sc["location"]["line"])
                blocks = [_names(ex.get("tags", [])) for ex in sc.get("examples", [])]
                out.append(Scenario(sc["name"], file, line, tags + _names(sc["tags"]), blocks))

    visit(feature["children"], _names(feature["tags"]))
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
