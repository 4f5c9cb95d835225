"""Tags and marks: a scenario's rule-ID tag (its one tested rule), ``@uses:ID``, variant and option
tags become the marks table cases carry (``rule``, ``uses``, ``variant``); ``-m`` selects alike.

A Scenario Outline whose rows test different rules tags each Examples block with its rule ID
instead of the scenario, so one row's rule never spreads to its siblings.
"""

from __future__ import annotations

import difflib
import re
import warnings
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

import pytest

from specdata import FEATURES_DIR, RULE_ID, variant_ids
from specdata.rules import load_catalogue

from .tables import CaseItem, marked

MARKERS = (
    "rule(id): the one rule ID a case tests (generated from tags)",
    "uses(id): a rule ID the case's expected answer also relies on (from @uses:ID tags)",
    "variant(id): the variant a case applies to (generated from tags)",
    "negative: the case shows a rule refusing or denying something",
    "option(name, value): an option the scenario sets (from @option:name=value tags)",
)
KNOWN_ENTRY_ATTR = "pinochle_known_entry"
"""Report attribute of an item that failed as listed in ``--known-failures``: the entry's reason
and link (the report's ``known_failure``). Here, not in ``known_failures`` (a plugin module of
its own, which must not be imported before pytest registers it)."""
FIXED_ATTR = "pinochle_fixed"
"""Report attribute of a listed case that passed: it fails the run, but the case passed."""
RULE_PROPERTY = "rule"
"""User property of a suite item's reports: the rule ID it tests (it crosses xdist workers)."""
USES_PROPERTY = "uses"
"""User property of a suite item's reports: the rule IDs its expected answer also relies on,
separated by spaces."""
VARIANT_PROPERTY = "variant"
"""User property of a suite item's reports: the variant it runs in (empty when several)."""
USES_PREFIX = "uses:"
MARK_ID = re.compile(r"""\b(rule|uses)\s*\(\s*id\s*=\s*(['"])(.*?)\2\s*\)""")
"""A ``rule(id='...')`` or ``uses(id="...")`` term of a ``-m`` expression."""


class UnknownRuleWarning(pytest.PytestWarning):
    """``-m`` names a rule ID that no rule has: it selects nothing, most likely a typo."""


@cache
def known_variants() -> frozenset[str]:
    """The variant ids of the spec."""
    return frozenset(variant_ids())


def check_variant_option(chosen: list[str]) -> None:
    """``--variant`` names only known variants, or a usage error says which are known."""
    unknown = set(chosen) - known_variants()
    if unknown:
        raise pytest.UsageError(
            f"--variant {', '.join(sorted(unknown))}: known variants are "
            + ", ".join(sorted(known_variants()))
        )


def apply_tag(tag: str, function: Callable[..., object]) -> bool | None:
    """Mark a scenario for a rule-ID, ``uses:ID``, variant or ``option:name=value`` tag (None: not
    ours)."""
    if RULE_ID.fullmatch(tag):
        marked("rule", id=tag)(function)
        return True
    if tag.startswith(USES_PREFIX) and RULE_ID.fullmatch(tag.removeprefix(USES_PREFIX)):
        marked("uses", id=tag.removeprefix(USES_PREFIX))(function)
        return True
    if tag in known_variants():
        marked("variant", id=tag)(function)
        return True
    if tag.startswith("option:"):
        name, _, value = tag.removeprefix("option:").partition("=")
        marked("option", name=name, value=value)(function)
        return True
    return None


@cache
def _suite_dir() -> Path:
    return FEATURES_DIR.resolve()


@cache
def _in_suite(path: Path) -> bool:
    return path.resolve().is_relative_to(_suite_dir())


def is_suite_item(item: pytest.Item) -> bool:
    """Whether ``item`` is a case or scenario of the suite (the plugin ignores every other test)."""
    return isinstance(item, CaseItem) or _in_suite(item.path)


def example_marker_lines(rule_ids: Iterable[str]) -> list[str]:
    """Marker lines for rule IDs used as Examples tags (pytest-bdd makes each a bare mark)."""
    return [f"{rule}: rows of a Scenario Outline that test {rule}" for rule in rule_ids]


def rule_of(item: pytest.Item) -> str | None:
    """The one rule an item tests: a table case's, else its Examples block's rule tag, else its
    ``rule`` mark."""
    if isinstance(item, CaseItem):
        return item.case.rule  # the case's marks are made from it (``CaseItem``)
    for mark in item.iter_markers():
        if RULE_ID.fullmatch(mark.name):
            return mark.name
    tested = [m.kwargs["id"] for m in item.iter_markers("rule") if "id" in m.kwargs]
    return tested[0] if tested else None


def uses_of(item: pytest.Item, rule: str | None) -> tuple[str, ...]:
    """The rules an item's expected answer also relies on (its ``uses`` marks), sorted."""
    if isinstance(item, CaseItem):
        return tuple(sorted(set(item.case.uses) - {rule}))
    found = {m.kwargs["id"] for m in item.iter_markers("uses") if "id" in m.kwargs}
    return tuple(sorted(found - {rule}))


def unknown_rule_ids(markexpr: str, known: Iterable[str]) -> list[str]:
    """One line per ``rule(id=...)`` / ``uses(id=...)`` of a ``-m`` expression that names no
    known rule, with the close matches (a lowercase ID names its upper-case rule)."""
    catalogue = sorted(set(known))
    by_upper = {rule.upper(): rule for rule in catalogue}
    out = []
    for mark, _, name in MARK_ID.findall(markexpr):
        if name in by_upper.values():
            continue
        close = difflib.get_close_matches(name.upper(), catalogue, n=3, cutoff=0.6)
        if name.upper() in by_upper:  # the exact rule, in the wrong case: that one first
            close = [by_upper[name.upper()], *(c for c in close if c != by_upper[name.upper()])]
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        out.append(
            f"-m {mark}(id={name!r}): no rule has the ID {name!r}, so it selects nothing{hint} "
            "(rule IDs are the '## RULE-ID: title' headings of spec/rules/*.md)"
        )
    return out


def warn_unknown_rule_ids(config: pytest.Config, items: Iterable[pytest.Item]) -> list[str]:
    """Warn for each rule ID in ``-m`` that neither the catalogue nor any collected item has."""
    markexpr = str(config.getoption("markexpr", "") or "")
    if not MARK_ID.search(markexpr):
        return []
    known = set(load_catalogue())
    for item in items:
        known.update(m.kwargs["id"] for m in item.iter_markers() if "id" in m.kwargs)
    found = unknown_rule_ids(markexpr, known)
    for line in found:
        # Placed at "-m" (not at this line of the plugin): the fault is in the command line.
        warnings.warn_explicit(UnknownRuleWarning(line), UnknownRuleWarning, "-m", 0)
    return found


@pytest.hookimpl(tryfirst=True)
def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each suite item its rule and uses (marks and properties); drop the variants
    ``--variant`` left out. Runs before ``-m`` so Examples-level rules are selectable."""
    chosen = set(config.getoption("variant") or [])
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        if isinstance(item, CaseItem):  # a table case: all of it is in its ``Case``
            case = item.case
            item.user_properties.extend(_properties(case.rule, case.uses, case.variant))
            (drop if chosen and case.variant not in chosen else keep).append(item)
            continue
        if not is_suite_item(item):
            keep.append(item)
            continue
        rule = rule_of(item)
        if rule is not None:
            if rule not in {m.kwargs.get("id") for m in item.iter_markers("rule")}:
                item.add_marker(marked("rule", id=rule))
            item.user_properties.extend(_properties(rule, uses_of(item, rule), variant_of(item)))
        variants = {m.kwargs.get("id") for m in item.iter_markers("variant")}
        if chosen and variants and not variants & chosen:
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
    if any(map(is_suite_item, items)):
        warn_unknown_rule_ids(config, items)


@cache  # one value for every item that tests alike
def _properties(
    rule: str, uses: tuple[str, ...], variant: str | None
) -> tuple[tuple[str, str], ...]:
    """A suite item's rule, uses (``uses_of``) and variant as user properties: plain strings,
    so a JUnit XML report reads them as they are (no Python reprs)."""
    return (
        (RULE_PROPERTY, rule),
        (USES_PROPERTY, " ".join(sorted(set(uses) - {rule}))),
        (VARIANT_PROPERTY, variant or ""),
    )


def variant_of(item: pytest.Item) -> str | None:
    """The variant a suite item runs in: a table case's, a Scenario Outline row's ``variant``
    column, else the scenario's one variant tag (None when it has several or none)."""
    if isinstance(item, CaseItem):
        return item.case.variant
    for key, value in item.user_properties:
        if key == VARIANT_PROPERTY:  # ``select`` read it so once the item was collected
            return str(value) or None
    callspec = getattr(item, "callspec", None)
    example = callspec.params.get("_pytest_bdd_example", {}) if callspec is not None else {}
    if isinstance(example, dict) and isinstance(example.get("variant"), str):
        return str(example["variant"])
    marked = {m.kwargs.get("id") for m in item.iter_markers("variant")}
    return str(marked.pop()) if len(marked) == 1 else None


def options_of(item: pytest.Item) -> dict[str, str]:
    """The options a suite item sets: a table case's, else its scenario's ``@option`` tags."""
    if isinstance(item, CaseItem):
        return dict(item.case.options)
    return {str(m.kwargs["name"]): str(m.kwargs["value"]) for m in item.iter_markers("option")}
