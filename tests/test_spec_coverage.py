"""The spec's coverage: every case tests one rule, every rule has a positive and a negative case
(counting the tested rule only) per variant, every name used is known, the documents are fresh."""

from __future__ import annotations

import pytest

from pinochle_judge.cases import load_cases
from pinochle_tools import catalogue as coverage
from specdata import RULE_ID, variant_ids

RULES = coverage.load_catalogue()
EVIDENCE = coverage.collect_evidence()


def test_the_catalogue_has_rules() -> None:
    assert RULES, "spec/rules/*.md declares no '## ID: title' heading"
    for rule in RULES.values():
        assert rule.variants, f"{rule.file}:{rule.line}: {rule.id} has no '- **Variants:**' bullet"
        unknown = set(rule.variants) - set(variant_ids())
        assert not unknown, f"{rule.file}:{rule.line}: {rule.id} names unknown variants {unknown}"


def test_every_name_used_is_known() -> None:
    problems = [
        g for g in coverage.gaps(RULES, EVIDENCE) if "unknown" in g or "does not apply" in g
    ]
    assert not problems, "\n".join(problems)


def test_every_feature_tag_is_a_rule_variant_or_known_flag() -> None:
    variants = set(variant_ids())
    bad = []
    for path in coverage.feature_paths():
        for sc in coverage.feature_scenarios(path):
            for tag in {t for row in sc.rows for t in row}:
                rule = tag.removeprefix("uses:")
                if RULE_ID.fullmatch(rule):
                    if rule not in RULES:
                        bad.append(f"{sc.file}:{sc.line}: unknown rule @{tag}")
                elif tag not in variants and tag != "negative" and not tag.startswith("option:"):
                    bad.append(f"{sc.file}:{sc.line}: unknown tag @{tag}")
            if not variants & set(sc.tags):
                bad.append(f"{sc.file}:{sc.line}: scenario {sc.name!r} has no variant tag")
    assert not bad, "\n".join(bad)


def test_every_scenario_row_tests_one_rule() -> None:
    """One tested rule per item: a scenario's rule tag, or its Examples block's (never both), so
    a failure is charged to one rule and an outline's tags never spread to sibling rows."""
    bad = []
    for path in coverage.feature_paths():
        for sc in coverage.feature_scenarios(path):
            for row in sc.rows:
                tested = [t for t in row if RULE_ID.fullmatch(t)]
                if len(tested) != 1:
                    bad.append(f"{sc.file}:{sc.line}: {sc.name!r} tests {tested or 'no rule'}")
    assert not bad, "\n".join(bad)


def test_every_table_case_tests_one_rule_it_does_not_also_use() -> None:
    for case in load_cases():
        assert RULE_ID.fullmatch(case.rule) and case.rule not in case.uses, case.where


@pytest.mark.parametrize("variant", variant_ids())
def test_every_rule_has_a_positive_and_a_negative_case(variant: str) -> None:
    gaps = [
        g for g in coverage.gaps(RULES, EVIDENCE) if g.endswith(" case") and f" in {variant}: " in g
    ]
    assert not gaps, "\n".join(gaps)


def test_scenarios_are_read_with_their_feature_tags() -> None:
    scenarios = [sc for path in coverage.feature_paths() for sc in coverage.feature_scenarios(path)]
    assert len(scenarios) > 50
    assert all(sc.file.startswith("features/") and sc.line > 1 for sc in scenarios)
    assert all(set(sc.tags) & set(variant_ids()) for sc in scenarios)


def test_coverage_md_is_up_to_date() -> None:
    want = coverage.render_coverage_md(RULES, EVIDENCE)
    assert coverage.COVERAGE_MD.exists(), "run: pinochle spec coverage --write"
    assert coverage.COVERAGE_MD.read_text(encoding="utf-8") == want, (
        "spec/coverage.md is stale: run pinochle spec coverage --write"
    )


def test_readme_variants_table_is_up_to_date() -> None:
    if not coverage.README_MD.exists():
        pytest.skip("spec/README.md is not written yet")
    text = coverage.README_MD.read_text(encoding="utf-8")
    if coverage.VARIANTS_BLOCK.search(text) is None:
        pytest.skip("spec/README.md has no variants-table block yet")
    assert coverage.variants_block(text) == text, (
        "the variants table in spec/README.md is stale: run pinochle spec variants --write"
    )
