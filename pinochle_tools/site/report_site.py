"""The conformance site (``pinochle report REPORT.json ... -o DIR``): static HTML pages built from
conformance reports, one engine or several side by side.

Per variant a matrix of rules x engines; a page per rule (its statement from spec/rules, its cases
with the cards drawn and, for failures, expected against actual); a page and an SVG badge per
engine with its diagnosis. The pages hold no script and load nothing from the network.
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from pinochle_judge.counts import JUDGED, LEGEND
from pinochle_judge.tally import STATUSES
from specdata import variant_ids
from specdata.rules import Rule, load_catalogue

from .changes import KINDS, SAYS, compare, same_engine
from .folder import write_site
from .html import TEMPLATES, Links, environment, markdown_html, render
from .reports import (
    UNSPECIFIED,
    EngineRun,
    Item,
    ReportError,
    collect_items,
    failing_first,
    load_runs,
    unique_slugs,
)
from .spec_site import rule_statement

BADGE_COLOURS = {"passed": "#2e7d32", "partial": "#9e9d24", "failed": "#c62828", "none": "#757575"}


# --- cells of the matrix ----------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """The outcomes of one rule's items in one variant for one engine."""

    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def judged(self) -> int:
        """Passed, failed or errored, hand-worked or derived: the count's judged cases."""
        return sum(self.counts[s] for s in JUDGED)

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
        """``passed/judged``, the skipped apart (in the tooltip), as every count is."""
        if not self.total:
            return "·"
        if not self.judged:
            return "skipped"
        return f"{self.counts['passed']}/{self.judged}"

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


# --- badges -------------------------------------------------------------------------------------


def badge_svg(run: EngineRun) -> str:
    """A shields-style badge: ``pinochle | 1141/1370 passed``, passed of judged (the run's one
    count): green when nothing failed or errored, whatever was skipped; a run that did not
    complete is never green (``partial run``)."""
    count = run.count
    status = (
        "none"
        if not count.judged
        else "failed"
        if count.failed or count.errored
        else "partial"
        if not run.complete
        else "passed"
    )
    left, right = "pinochle", f"{count.passed}/{count.judged} passed"
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


def build_site(reports: list[Path], out: Path) -> None:
    """Write the conformance site of ``reports`` (single reports, one per engine, or combined
    reports of several) into ``out``: index.html (per variant a matrix of rules x engines),
    rules/ID.html, engines/SLUG.html, badges/SLUG.svg, style.css (and changes.html for two runs
    of one engine); the files an earlier site wrote there (its manifest's) and this one does not
    are removed, nothing else (``folder.write_site``). Raises ReportError naming a file that is
    not a conformance report, SiteFolderError naming a file of ``out`` the site would replace
    without having written it."""
    if not reports:
        raise ReportError("no report given: pass one or more --conformance-report files")
    runs = [run for p in reports for run in load_runs(Path(p))]
    unique_slugs(runs)
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
    env = environment()
    pages: dict[str, str | bytes] = {"style.css": (TEMPLATES / "style.css").read_text("utf-8")}
    common = {"runs": runs, "catalogue": catalogue, "legend": LEGEND, "table": None}
    links = Links(root="../", rules=frozenset(rule_ids))
    failures = what_fails(runs, by_rule_variant, rule_ids, variants, catalogue)
    # Two runs of one engine: what changed from the first to the second (pinochle diff).
    changes = compare(runs[0], runs[1]) if len(runs) == 2 and same_engine(*runs) else None
    if changes is not None:
        anchors = {item.node: item.anchor for item in items}
        render(
            env,
            "changes.html.j2",
            pages,
            "changes.html",
            root="",
            diff=changes,
            anchors=anchors,
            kinds=KINDS,
            says=SAYS,
            **common,
        )
    render(
        env,
        "index.html.j2",
        pages,
        "index.html",
        root="",
        matrices=matrices,
        failures=failures,
        changes=changes,
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
        render(
            env,
            "rule.html.j2",
            pages,
            f"rules/{rule}.html",
            root="../",
            rule_id=rule,
            rule=known,
            statement=markdown_html(rule_statement(known), links) if known else Markup(""),
            links=links,
            sections=sections,
            **common,
        )
    for run in runs:
        bad = [
            item
            for item in items
            if str(item.verdicts.get(run.slug, {}).get("outcome")) in ("failed", "errored")
        ]
        render(
            env,
            "engine.html.j2",
            pages,
            f"engines/{run.slug}.html",
            root="../",
            run=run,
            bad=bad,
            per_variant=[
                (v, cell([i for i in items if i.variant == v], run.slug)) for v in variants
            ],
            **common,
        )
        pages[f"badges/{run.slug}.svg"] = badge_svg(run)
    write_site(out, pages)


def what_fails(
    runs: Sequence[EngineRun],
    by_rule_variant: Mapping[tuple[str, str], Sequence[Item]],
    rule_ids: Sequence[str],
    variants: Sequence[str],
    catalogue: Mapping[str, Rule],
) -> list[dict[str, Any]]:
    """What the index opens with: a row per engine and rule it failed or errored on (the rules
    its diagnosis names, likeliest first, then most such cases first, then the spec's order),
    each variant where it did with its counts and its first such case."""
    rows: list[dict[str, Any]] = []
    for run in runs:
        # A rule that fails most cases is often not the one to fix: a run's own K-Q scored as a
        # royal marriage fails three times as many MELD-RUN cases as MELD-ROYAL-MARRIAGE ones.
        suspects = {str(s.get("rule")): n for n, s in enumerate(run.diagnosis)}
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
                            "cell": cell(items, run.slug),
                            "first": bad[0].anchor,
                        }
                    )
            if where:
                title = catalogue[rule].title if rule in catalogue else ""
                found.append(
                    {"run": run, "rule": rule, "title": title, "where": where, "bad": bad_count}
                )
        found.sort(key=lambda row: (suspects.get(row["rule"], len(suspects)), -int(row["bad"])))
        rows.extend(found)
    return rows
