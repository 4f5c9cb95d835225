"""Tags and marks: rule-ID, variant and option tags of the features become the marks the table
cases carry (``rule(id=...)``, ``variant(id=...)``); ``-m`` and ``--variant`` select both alike."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from specdata import FEATURES_DIR, RULE_ID, variant_ids

from .tables import CaseItem

MARKERS = (
    "rule(id): the rule ID a case tests (generated from tags)",
    "variant(id): the variant a case applies to (generated from tags)",
    "negative: the case shows a rule refusing or denying something",
    "option(name, value): an option the scenario sets (from @option:name=value tags)",
)
RULES_PROPERTY = "rules"
"""User property of a suite item's reports: the rule IDs it tests (it crosses xdist workers)."""


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


def apply_tag(tag: str, function: Callable[..., Any]) -> bool | None:
    """Mark a scenario for a rule-ID, variant or ``option:name=value`` tag (None: not ours)."""
    if RULE_ID.fullmatch(tag):
        pytest.mark.rule(id=tag)(function)
        return True
    if tag in known_variants():
        pytest.mark.variant(id=tag)(function)
        return True
    if tag.startswith("option:"):
        name, _, value = tag.removeprefix("option:").partition("=")
        pytest.mark.option(name=name, value=value)(function)
        return True
    return None


@cache
def _suite_dir() -> Path:
    return FEATURES_DIR.resolve()


def is_suite_item(item: pytest.Item) -> bool:
    """Whether ``item`` is a case or scenario of the suite (the plugin ignores every other test)."""
    return isinstance(item, CaseItem) or item.path.resolve().is_relative_to(_suite_dir())


def rules_of(item: pytest.Item) -> tuple[str, ...]:
    """The rule IDs an item's marks name, sorted."""
    return tuple(sorted({m.kwargs["id"] for m in item.iter_markers("rule") if "id" in m.kwargs}))


def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each suite item its rules property; drop those of variants ``--variant`` left out."""
    chosen = set(config.getoption("variant") or [])
    keep, drop = [], []
    for item in items:
        if not is_suite_item(item):
            keep.append(item)
            continue
        rules = rules_of(item)
        if rules:
            item.user_properties.append((RULES_PROPERTY, rules))
        variants = {m.kwargs.get("id") for m in item.iter_markers("variant")}
        if chosen and variants and not variants & chosen:
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
