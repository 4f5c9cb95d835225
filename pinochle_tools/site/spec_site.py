"""The spec as a site (``pinochle spec site -o DIR``): static HTML pages built from spec/ and
features/ alone, with an offline search.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from pinochle_judge.cases import load_cases
from specdata import RULE_ID, RULES_DIR, SPEC_DIR, variant_ids
from specdata.files import write_atomic
from specdata.rules import Rule, load_catalogue

from ..catalogue import Examples, Scenario, feature_paths, feature_scenarios
from .html import TEMPLATES, environment, markdown_html, render
from .reports import Item


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
    env = environment()
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
        render(
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
        render(
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
    render(
        env,
        "spec_index.html.j2",
        out / "index.html",
        root="",
        rules=entries[: len(catalogue)],
        pages=SPEC_PAGES,
        **common,
    )
    render(
        env, "search.html.j2", out / "search.html", root="", index_json=Markup(index_json), **common
    )
