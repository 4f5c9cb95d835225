"""The spec as a rulebook site (``pinochle spec site -o DIR``), built from spec/ and features/
alone: the chapters in the order a hand is played, each opening with its overview and then its
rules; a page per rule with every table case (the smallest first) and every Gherkin scenario
testing it; the errata, the protocol, the options, the sources; an offline search. Every rule
ID, errata ID, option and source in any text is a link.

A table's own rulebook (``--variant V --option NAME=VALUE ...``): only the rules of that variant,
each option's chosen reading marked in the text, and the cases whose answers the options change
shown with the reference engine's answer under them, labelled derived, beside the hand-worked
answer of the default rules.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from pinochle_judge.cases import Case, load_cases
from pinochle_judge.house_rules import DERIVED, SKIP, Ask, HouseRules
from specdata import RULE_ID, RULES_DIR, SPEC_DIR, load_variant, variant_ids
from specdata.rules import Rule, load_catalogue
from specdata.variants import Variant
from specdata.vocabulary import RULE_METHODS

from ..catalogue import Examples, Scenario, feature_paths, feature_scenarios
from .folder import write_site
from .html import TEMPLATES, Links, environment, markdown_html, markdown_inline, render
from .reports import Item

README = SPEC_DIR / "README.md"
ERRATA = SPEC_DIR / "errata.md"
PAGES = (
    ("errata", "errata.md", "Errata"),
    ("protocol", "protocol.md", "The protocol"),
    ("conventions", "conventions.md", "Conventions (not rules)"),
)
"""spec/ files the site renders whole: page name, file, title."""
PLAY_ORDER = re.compile(r"^\d+\. \[rules/([\w-]+)\.md\]", re.MULTILINE)
"""A chapter in spec/README.md's "How to read it" list: the order a hand is played."""
ERRATA_ID = re.compile(r"^## (ERRATA-[A-Z0-9-]+):", re.MULTILINE)
SOURCE_ROW = re.compile(
    r"^\| `(\d{3})` \| `([^`]+)` \| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|$", re.MULTILINE
)
"""A row of spec/README.md's sources table: cite, file, title, what it is, variant."""


class TableError(ValueError):
    """A table's rulebook asked for a variant or an option the spec does not have."""


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


# --- chapters -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chapter:
    """One chapter of spec/rules: its title, its overview, and its rules' sections."""

    stem: str
    title: str
    overview: str
    sections: tuple[tuple[str, str], ...]
    """(rule ID, its section of the chapter from its heading on), in the chapter's order."""

    def text(self, rules: Sequence[str]) -> str:
        """The chapter as Markdown without its title, with only the sections of ``rules``."""
        kept = [text for rule, text in self.sections if rule in rules]
        return "\n\n".join([self.overview, *kept])


def play_order() -> list[str]:
    """The chapters' stems in the order a hand is played (spec/README.md, "How to read it"),
    then any chapter the list leaves out, by name."""
    listed = PLAY_ORDER.findall(README.read_text(encoding="utf-8"))
    rest = sorted(p.stem for p in RULES_DIR.glob("*.md") if p.stem not in listed)
    return [stem for stem in listed if (RULES_DIR / f"{stem}.md").is_file()] + rest


def load_chapter(stem: str, catalogue: Mapping[str, Rule]) -> Chapter:
    lines = (RULES_DIR / f"{stem}.md").read_text(encoding="utf-8").splitlines()
    title = lines[0].lstrip("#").strip() if lines and lines[0].startswith("# ") else stem
    body = lines[1:] if lines and lines[0].startswith("# ") else lines
    cuts = [
        (n, m[0])
        for n, line in enumerate(body)
        if line.startswith("## ") and (m := RULE_ID.match(line[3:])) and m[0] in catalogue
    ]
    overview = "\n".join(body[: cuts[0][0]] if cuts else body).strip()
    sections = tuple(
        (rule, "\n".join(body[n : cuts[k + 1][0] if k + 1 < len(cuts) else None]).strip())
        for k, (n, rule) in enumerate(cuts)
    )
    return Chapter(stem, title, overview, sections)


# --- scenarios ------------------------------------------------------------------------------------


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
    def title(self) -> str:
        """The scenario's name; an outline's placeholders filled with their one value in the
        rows shown, or an ellipsis where the rows below differ."""

        def value(m: re.Match[str]) -> str:
            found = {
                row[block.header.index(m[1])]
                for block in self.blocks
                if m[1] in block.header
                for row in block.rows
            }
            return found.pop() if len(found) == 1 else "…"

        return re.sub(r"<([^<>]+)>", value, self.scenario.name)

    @property
    def text(self) -> str:
        """Everything it says, for the offline search."""
        steps = [f"{s.keyword} {s.text}" for s in self.scenario.steps]
        return " ".join([self.scenario.name, *self.scenario.tags, *steps])


def page_titles(chapters: Sequence[Chapter]) -> dict[str, str]:
    """The title of each spec/ file (or part) the site shows as a page, for the links to it."""
    return {
        **{file: title for _, file, title in PAGES},
        **{f"rules/{ch.stem}.md": ch.title for ch in chapters},
        "README.md#sources": "the sources",
    }


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


def case_size(case: Case) -> tuple[int, int]:
    """How big a case is to read: the cards and actions it is given, then its request's length.
    A rule's examples start with the smallest (a three-card question before a whole hand)."""

    def count(value: Any) -> int:
        if isinstance(value, list):
            return sum(count(v) for v in value) if value else 0
        if isinstance(value, dict):
            return sum(count(v) for v in value.values())
        return 1

    return count(case.params), len(json.dumps(case.params))


# --- a table's own rules --------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """The variant and options a table plays; its reference answers, asked once per case."""

    variant: Variant
    options: dict[str, str]
    """The options set on the command line (name -> value), each checked."""
    ask: Ask | None = None
    changed: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Case ID -> how its answer reads at this table: ``derived`` (the answer), ``why``, or
    ``refused`` (the reference engine refuses the question under these options)."""

    @property
    def label(self) -> str:
        chosen = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.variant.id}" + (f", {chosen}" if chosen else ", default options")

    def played(self) -> dict[str, str]:
        """Every option of the variant at the value this table plays."""
        return {**self.variant.defaults, **self.options}

    def judge(self, cases: Sequence[Case]) -> None:
        """Ask the reference engine each case under the table's options, once; record the
        cases whose hand-worked answer does not hold here."""
        if self.ask is None or not self.options:
            return
        info = {
            "methods": list(RULE_METHODS),
            "variants": [
                {
                    "id": self.variant.id,
                    # The table's choices replace a case's; other options stay as the case has them.
                    "options": {
                        name: [self.options[name]] if name in self.options else list(opt.values)
                        for name, opt in self.variant.options.items()
                    },
                }
            ],
        }
        house = HouseRules(info, self.ask, derived=True)
        for case in cases:
            plan = house.plan_case(
                case.method, case.variant, case.options, case.params, case.expect
            )
            if plan.kind == DERIVED and plan.expect is not None:
                why = f"with {plan.house_text} in place of the case's {plan.needed_text}"
                self.changed[case.id] = {"derived": plan.expect, "why": why}
            elif plan.kind == SKIP:
                self.changed[case.id] = {"refused": plan.reason}

    def readings(self, text: str) -> list[dict[str, str]]:
        """The table's options a rule's text speaks of (``name=value`` or the option's name in
        code), each with its chosen value, default and description."""
        named = set(re.findall(r"`([a-z][a-z0-9_]*)(?:=[^`]*)?`", text))
        return [
            {
                "name": name,
                "value": value,
                "default": self.variant.options[name].default,
                "description": self.variant.options[name].description,
            }
            for name, value in self.options.items()
            if name in named
        ]


def table_of(variant: str | None, options: Mapping[str, str], ask: Ask | None) -> Table | None:
    """The table a rulebook is for (None: the whole spec); TableError naming an unknown variant,
    option or value, or options without a variant."""
    if variant is None:
        if options:
            raise TableError("--option needs --variant: options belong to a variant")
        return None
    if variant not in variant_ids():
        raise TableError(
            f"--variant {variant}: no such variant (one of {', '.join(variant_ids())})"
        )
    found = load_variant(variant)
    for name, value in options.items():
        if name not in found.options:
            raise TableError(
                f"--option {name}={value}: {variant} has no option {name!r} "
                f"(it has {', '.join(found.options) or 'none'})"
            )
        if value not in found.options[name].values:
            raise TableError(
                f"--option {name}={value}: {variant} {name} is one of "
                f"{', '.join(found.options[name].values)}"
            )
    return Table(found, dict(options), ask)


# --- the site -------------------------------------------------------------------------------------


def errata_ids() -> list[str]:
    return ERRATA_ID.findall(ERRATA.read_text(encoding="utf-8"))


def source_rows() -> list[dict[str, str]]:
    """spec/README.md's sources: cite, file, title, what it is, which variant it is for."""
    keys = ("cite", "file", "title", "what", "variant")
    return [
        dict(zip(keys, row, strict=True)) for row in SOURCE_ROW.findall(README.read_text("utf-8"))
    ]


def readme_part(heading: str | None) -> str:
    """spec/README.md's ``## heading`` section (None: everything before the first ``## ``), and
    the README without its Sources section when ``heading`` is ``"*"``."""
    text = README.read_text(encoding="utf-8")
    parts = re.split(r"^(?=## )", text, flags=re.MULTILINE)
    if heading == "*":
        return "".join(p for p in parts if not p.startswith("## Sources"))
    if heading is None:
        return parts[0]
    return next((p.split("\n", 1)[1] for p in parts if p.startswith(f"## {heading}\n")), "")


def hand_steps() -> str:
    """spec/README.md's "The hand, step by step": the variants side by side, step by step."""
    found = re.search(
        r"^### The hand, step by step\n.*?(?=^#)", README.read_text("utf-8"), re.M | re.S
    )
    return found[0] if found else ""


def build_spec_site(
    out: Path,
    variant: str | None = None,
    options: Mapping[str, str] | None = None,
    ask: Ask | None = None,
) -> None:
    """Write the spec as a rulebook site into ``out``: index.html (the contents in play order),
    introduction.html, chapters/NAME.html (overview, then the rules), rules/ID.html (the rule,
    every table case drawn with its expected answer and why, smallest first, and every Gherkin
    scenario testing it), errata, protocol, conventions, options and sources pages, search.html
    (a search that works offline: its index is in the page). With ``variant`` (and ``options``,
    with ``ask`` putting questions to the reference engine) the table's own rulebook."""
    table = table_of(variant, options or {}, ask)
    catalogue = load_catalogue()
    variants = [table.variant.id] if table else variant_ids()
    rules = {r: rule for r, rule in catalogue.items() if set(rule.variants) & set(variants)}
    chapters = [load_chapter(stem, catalogue) for stem in play_order()]
    order = [r for ch in chapters for r, _ in ch.sections if r in rules]
    order += [r for r in rules if r not in order]
    chapter_of = {r: ch for ch in chapters for r, _ in ch.sections}
    by_rule_variant: dict[tuple[str, str], list[Item]] = defaultdict(list)
    cases = [case for case in load_cases() if case.variant in variants and case.rule in rules]
    for case in sorted(cases, key=case_size):
        item = Item(f"{case.file}::{case.id}", case.rule, case.variant, case, {})
        by_rule_variant[(case.rule, case.variant)].append(item)
    if table:
        table.judge(cases)
    scenarios = scenarios_by_rule()
    if table:
        scenarios = {
            r: [v for v in views if _scenario_in(v, table.variant.id)]
            for r, views in scenarios.items()
        }
    every_option = {name for v in variants for name in load_variant(v).options}
    sources = source_rows()

    def links(root: str) -> Links:
        return Links(
            root=root,
            rules=frozenset(rules),
            errata=frozenset(errata_ids()),
            options=frozenset(every_option),
            sources=frozenset(s["cite"] for s in sources),
            chapters=frozenset(ch.stem for ch in chapters),
            variants=frozenset(variants),
            spec_pages=True,
            chosen=table.played() if table else {},
            titles=page_titles(chapters),
        )

    env = environment()
    site: dict[str, str | bytes] = {"style.css": (TEMPLATES / "style.css").read_text("utf-8")}
    common: dict[str, Any] = {"runs": [], "catalogue": catalogue, "spec_site": True, "table": table}
    entries = []
    counts = {
        r: (
            sum(len(by_rule_variant.get((r, v), [])) for v in variants),
            len(scenarios.get(r, [])),
        )
        for r in rules
    }
    for at, rule_id in enumerate(order):
        rule = rules[rule_id]
        sections = [
            {"variant": v, "cells": [], "items": by_rule_variant[(rule_id, v)], "first_bad": []}
            for v in variants
            if by_rule_variant.get((rule_id, v))
        ]
        statement = rule_statement(rule)
        chapter = chapter_of.get(rule_id)
        render(
            env,
            "rule.html.j2",
            site,
            f"rules/{rule_id}.html",
            root="../",
            links=links("../"),
            rule_id=rule_id,
            rule=rule,
            statement=markdown_html(statement, links("../")),
            readings=table.readings(statement) if table else [],
            chapter=chapter,
            previous=order[at - 1] if at else None,
            next=order[at + 1] if at + 1 < len(order) else None,
            sections=sections,
            scenarios=scenarios.get(rule_id, []),
            **common,
        )
        entries.append(
            {
                "id": rule_id,
                "title": rule.title,
                "cases": counts[rule_id][0],
                "scenarios": counts[rule_id][1],
                "text": statement,
            }
        )
    contents = []
    shown_chapters = [ch for ch in chapters if any(r in rules for r, _ in ch.sections)]
    for at, ch in enumerate(shown_chapters):
        kept = [r for r, _ in ch.sections if r in rules]

        body = markdown_html(
            ch.text(kept),
            links("../"),
            base="rules/",
            shift=0,
            after_heading=lambda rule_id: _rule_foot(rule_id, counts, table, links("../")),
        )
        render(
            env,
            "chapter.html.j2",
            site,
            f"chapters/{ch.stem}.html",
            root="../",
            title=ch.title,
            body=body,
            previous=shown_chapters[at - 1] if at else None,
            next=shown_chapters[at + 1] if at + 1 < len(shown_chapters) else None,
            **common,
        )
        contents.append({"chapter": ch, "rules": [e for e in entries if e["id"] in kept]})
        entries.append(
            {
                "id": ch.title,
                "title": f"chapter {at + 1}",
                "cases": 0,
                "scenarios": 0,
                "text": ch.overview,
                "url": f"chapters/{ch.stem}.html",
            }
        )
    page_texts = [
        ("introduction", readme_part("*"), "", ""),
        *(
            (name, (SPEC_DIR / file).read_text(encoding="utf-8"), title, "")
            for name, file, title in PAGES
        ),
    ]
    for name, text, title, base in page_texts:
        heading = re.match(r"# (.+)\n", text)
        if heading:  # the page's own title
            title, text = heading[1], text[heading.end() :]
        render(
            env,
            "chapter.html.j2",
            site,
            f"{name}.html",
            root="",
            title=title,
            body=markdown_html(text, links(""), base=base, shift=0),
            previous=None,
            next=None,
            **common,
        )
        entries.append(
            {"id": title, "title": f"{name}.html", "cases": 0, "scenarios": 0, "text": text}
            | {"url": f"{name}.html"}
        )
    render(
        env,
        "sources.html.j2",
        site,
        "sources.html",
        root="",
        sources=[
            {**row, **{k: markdown_inline(row[k], links("")) for k in ("title", "what", "variant")}}
            for row in sources
        ],
        notes=markdown_html(
            readme_part("Sources").split("Citation notes:", 1)[-1], links(""), base=""
        ),
        **common,
    )
    anchored: set[str] = set()
    option_rows = [
        {
            "variant": v,
            "options": [
                {
                    "name": opt.name,
                    "anchor": _first(anchored, opt.name, f"{v}-{opt.name}"),
                    "values": opt.values,
                    "default": opt.default,
                    "description": links("").text(opt.description),
                    "played": table.played()[opt.name] if table else None,
                }
                for opt in load_variant(v).options.values()
            ],
        }
        for v in variants
    ]
    render(
        env,
        "options.html.j2",
        site,
        "options.html",
        root="",
        variants=option_rows,
        **common,
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
            "id": view.title,
            "title": f"{rule_id} scenario, {view.where}",
            "url": f"rules/{rule_id}.html#{view.anchor}",
            "text": " ".join(view.text.split()).lower(),
        }
        for rule_id in order
        for view in scenarios.get(rule_id, [])
    ]
    index_json = json.dumps(search, ensure_ascii=True).replace("</", "<\\/")
    changed = [
        {"case": item.case, "rule": item.rule, "anchor": item.anchor, **table.changed[item.case.id]}
        for items in by_rule_variant.values()
        for item in items
        if table and item.case is not None and item.case.id in table.changed
    ]
    render(
        env,
        "spec_index.html.j2",
        site,
        "index.html",
        root="",
        contents=contents,
        links=links(""),
        opening=markdown_html(readme_part(None).split("\n", 1)[-1], links(""), base="", shift=0),
        steps=markdown_html(hand_steps(), links(""), base="", shift=-1),
        pages=[("introduction", "", "The specification"), *PAGES],
        changed=sorted(changed, key=lambda c: order.index(c["rule"])),
        **common,
    )
    render(
        env, "search.html.j2", site, "search.html", root="", index_json=Markup(index_json), **common
    )
    write_site(out, site)


def _scenario_in(view: ScenarioView, variant: str) -> bool:
    """Whether a scenario (or one of its Examples blocks) is tagged with ``variant``."""
    tags = {*view.scenario.tags, *(t for block in view.blocks for t in block.tags)}
    return variant in tags or any(variant in row for row in view.scenario.rows)


def _first(seen: set[str], name: str, otherwise: str) -> str:
    """``option-NAME`` for an option's first row (where its links land), ``otherwise`` after."""
    if name in seen:
        return otherwise
    seen.add(name)
    return f"option-{name}"


def _rule_foot(
    rule_id: str, counts: Mapping[str, tuple[int, int]], table: Table | None, links: Links
) -> str:
    """What a chapter shows under a rule's heading: the table's readings of it, and a link to its
    page with how many cases and scenarios test it."""
    cases, views = counts.get(rule_id, (0, 0))
    box = ""
    if table is not None:
        rule = load_catalogue()[rule_id]
        box = "".join(
            f'<p class="reading">At this table: {links.option(r["name"], r["value"])}'
            f" (default {r['default']})</p>\n"
            for r in table.readings(rule_statement(rule))
        )
    return (
        f'{box}<p class="rule-link"><a href="../rules/{rule_id}.html">'
        f"{cases} case{'s' if cases != 1 else ''}, {views} "
        f"scenario{'s' if views != 1 else ''}</a></p>\n"
    )
