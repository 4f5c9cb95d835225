"""Spec tools: which rule is tested where (``pinochle spec coverage``), and the variants table.

Rule IDs come from the chapters (``## ID: title`` then ``- **Variants:** ...``); evidence from
the scenario tables and from the tags of the Gherkin features.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from adapters.cases import ROOT, CaseError, load_cases

SPEC_DIR = ROOT / "spec"
RULES_DIR = SPEC_DIR / "rules"
VARIANTS_DIR = SPEC_DIR / "variants"
FEATURES_DIR = ROOT / "features"
COVERAGE_MD = SPEC_DIR / "coverage.md"
README_MD = SPEC_DIR / "README.md"

RULE_HEADING = re.compile(r"^## (?P<id>[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+):\s*(?P<title>.*?)\s*$")
VARIANTS_BULLET = re.compile(r"^- \*\*Variants:\*\*\s*(?P<variants>.*?)\s*$")
RULE_TAG = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
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


@dataclass
class Scenario:
    """A Gherkin scenario as the coverage sees it: its name, place and tags."""

    name: str
    file: str
    line: int
    tags: list[str] = field(default_factory=list)


def variant_ids() -> list[str]:
    """The variants, from the file names of spec/variants."""
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def load_rules(rules_dir: Path = RULES_DIR) -> dict[str, Rule]:
    """The rule catalogue: every ``## ID: title`` heading of spec/rules/*.md with its variants."""
    rules: dict[str, Rule] = {}
    for path in sorted(rules_dir.glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, text in enumerate(lines):
            m = RULE_HEADING.match(text)
            if not m:
                continue
            variants: tuple[str, ...] = ()
            for after in lines[i + 1 :]:
                if after.startswith("## ") or after.startswith("# "):
                    break
                vm = VARIANTS_BULLET.match(after)
                if vm:
                    variants = tuple(v.strip() for v in vm["variants"].split(",") if v.strip())
                    break
            rules[m["id"]] = Rule(m["id"], m["title"], _rel(path), i + 1, variants)
    return rules


def parse_feature(path: Path) -> list[Scenario]:
    """Scenarios of a .feature file with their tags (the feature's tags included)."""
    scenarios: list[Scenario] = []
    feature_tags: list[str] = []
    pending: list[str] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.strip()
        if text.startswith("@"):
            pending.extend(t.lstrip("@") for t in text.split() if t.startswith("@"))
        elif text.startswith("Feature:"):
            feature_tags, pending = pending, []
        elif re.match(r"(Scenario|Scenario Outline|Scenario Template|Example):", text):
            name = text.split(":", 1)[1].strip()
            scenarios.append(Scenario(name, _rel(path), number, feature_tags + pending))
            pending = []
        elif text and not text.startswith("#"):
            pending = []  # tags of an Examples block or a Rule: not counted
    return scenarios


def feature_paths() -> list[Path]:
    """Every .feature file of the suite."""
    return sorted(FEATURES_DIR.glob("*.feature"))


def collect_evidence() -> list[Evidence]:
    """Every (rule, variant) a table case or a tagged scenario tests."""
    known = set(variant_ids())
    out = [
        Evidence("table", c.id, c.file, c.line, rule, c.variant, c.negative)
        for c in load_cases()
        for rule in c.rules
    ]
    for path in feature_paths():
        for sc in parse_feature(path):
            rules = [t for t in sc.tags if RULE_TAG.fullmatch(t)]
            variants = [t for t in sc.tags if t in known]
            negative = "negative" in sc.tags
            out.extend(
                Evidence("scenario", sc.name, sc.file, sc.line, r, v, negative)
                for r in rules
                for v in variants
            )
    return out


def matrix(
    rules: dict[str, Rule], evidence: Sequence[Evidence]
) -> dict[tuple[str, str], tuple[int, int]]:
    """(rule, variant) -> (positive, negative) counts, for every rule in every variant it has."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for ev in evidence:
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
        missing = [w for w, n in (("positive", pos), ("negative", neg)) if n == 0]
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


def render_variants_table() -> str:
    """Every rules parameter of the variants side by side, then each variant's options."""
    variants = {}
    for vid in variant_ids():
        with (VARIANTS_DIR / f"{vid}.yaml").open(encoding="utf-8") as f:
            variants[vid] = yaml.safe_load(f)
    flat = {vid: _flatten(v.get("rules", {})) for vid, v in variants.items()}
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
    for vid, data in variants.items():
        for name, opt in (data.get("options") or {}).items():
            choices = [str(c) for c in opt.get("choices", {}) if str(c) != str(opt.get("default"))]
            desc = " ".join(str(opt.get("description", "")).split())
            out.append(
                f"- {vid} `{name}`: **{opt.get('default')}**"
                + (f" or {', '.join(choices)}" if choices else "")
                + (f" — {desc}" if desc else "")
            )
    return "\n".join(out)


def fill_variants_block(text: str) -> str:
    """README text with the variants-table block filled in (ValueError if it has no block)."""
    m = VARIANTS_BLOCK.search(text)
    if m is None:
        raise ValueError(
            "no <!-- BEGIN variants-table --> ... <!-- END variants-table --> block found"
        )
    body = "\n" + render_variants_table() + "\n"
    return text[: m.start("body")] + body + text[m.end("body") :]


# --- command line -------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``pinochle spec coverage [--check|--write]`` and ``pinochle spec variants [--write]``."""
    parser = argparse.ArgumentParser(prog="pinochle spec", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    cov = sub.add_parser("coverage", help="the rule x variant matrix of positive/negative cases")
    group = cov.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 listing every gap")
    group.add_argument("--write", action="store_true", help=f"write {_rel(COVERAGE_MD)}")
    var = sub.add_parser("variants", help="the side-by-side table of the variants")
    var.add_argument("--write", action="store_true", help=f"fill the block in {_rel(README_MD)}")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))

    if args.command == "variants":
        if not args.write:
            print(render_variants_table())
            return 0
        try:
            text = fill_variants_block(README_MD.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(f"{_rel(README_MD)}: {e}", file=sys.stderr)
            return 1
        README_MD.write_text(text, encoding="utf-8")
        print(f"wrote the variants table into {_rel(README_MD)}")
        return 0

    try:
        rules = load_rules()
        evidence = collect_evidence()
    except CaseError as e:
        print(e, file=sys.stderr)
        return 1
    if args.write:
        COVERAGE_MD.write_text(render_coverage_md(rules, evidence), encoding="utf-8")
        print(f"wrote {_rel(COVERAGE_MD)}")
        return 0
    if args.check:
        problems = gaps(rules, evidence)
        for line in problems:
            print(line)
        print(f"{len(problems)} problems" if problems else "every rule is covered in every variant")
        return 1 if problems else 0
    print(render_matrix(rules, evidence))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
