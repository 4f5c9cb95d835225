"""``pinochle spec site -o DIR``: the spec as a site built from spec/ and features/ alone: every
rule with every table case and every Gherkin scenario drawn, the errata and the protocol, and a
search that works offline."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pinochle_cli import main
from pinochle_judge.cases import load_cases
from pinochle_tools.catalogue import collect_evidence
from pinochle_tools.site.html import drawn_html
from specdata import FEATURES_DIR
from specdata.rules import load_catalogue

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def spec_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("spec")
    assert main(["spec", "site", "-o", str(out)]) == 0
    return out


def test_every_rule_has_a_page_with_every_case_drawn(spec_site: Path) -> None:
    catalogue = load_catalogue()
    assert {p.stem for p in (spec_site / "rules").glob("*.html")} == set(catalogue)
    page = (spec_site / "rules" / "PLAY-TRUMP-VOID.html").read_text("utf-8")
    assert 'class="card ' in page  # cards drawn
    for case in load_cases():
        if case.rule == "PLAY-TRUMP-VOID":
            article = page.split(f'id="{case.id}"', 1)[1].split("</article>", 1)[0]
            assert "expected " in article
            if case.why:
                assert '<p class="why">' in article


def test_the_errata_and_the_protocol_are_rendered(spec_site: Path) -> None:
    errata = (spec_site / "errata.html").read_text("utf-8")
    assert "<h2 id=" in errata and "Errata" in errata
    protocol = (spec_site / "protocol.html").read_text("utf-8")
    assert "<pre>" in protocol  # its fenced examples stay code


def test_every_link_and_fragment_of_the_spec_site_exists(spec_site: Path) -> None:
    pages = list(spec_site.rglob("*.html"))
    ids = {p: set(re.findall(r"\bid=['\"]([^'\"]+)['\"]", p.read_text("utf-8"))) for p in pages}
    for page in pages:
        for target, fragment in re.findall(
            r'href="([^"#:?]*)(?:#([^"]*))?"', page.read_text("utf-8")
        ):
            linked = (page.parent / target).resolve() if target else page
            assert linked.exists(), f"{page.name} links to {target}"
            if fragment and linked.suffix == ".html":
                assert fragment in ids[linked], f"{page.name} links to {target}#{fragment}"


def _line_of(feature: str, text: str) -> int:
    lines = (FEATURES_DIR / feature).read_text("utf-8").splitlines()
    return next(n for n, line in enumerate(lines, start=1) if line.strip() == text)


def _article(page: str, anchor: str) -> str:
    return page.split(f'id="{anchor}"', 1)[1].split("</article>", 1)[0]


def test_a_scenario_is_drawn_under_its_rule_with_its_steps_tags_and_place(spec_site: Path) -> None:
    line = _line_of("trick-obligations.feature", "Scenario: Any card may lead a trick")
    page = (spec_site / "rules" / "PLAY-LEAD.html").read_text("utf-8")
    article = _article(page, f"scenario-trick-obligations-{line}")
    assert "Any card may lead a trick" in article
    assert f"features/trick-obligations.feature:{line}" in article
    assert "<code>@PLAY-LEAD</code>" in article and "<code>@double-deck</code>" in article
    assert "spades are trump" in article  # the feature's background
    step = article.split("seat 1 holds", 1)[1].split("</li>", 1)[0]
    assert [f'title="{c}"' in step for c in ("Ah", "Ks", "Qd", "Jc")] == [True] * 4
    assert '"Ah Ks Qd Jc"' not in article  # drawn, not quoted


def test_an_outline_shows_under_each_rule_only_the_examples_testing_it(spec_site: Path) -> None:
    line = _line_of(
        "trick-obligations.feature", "Scenario Outline: Pre-1945 obligations: <situation>"
    )
    anchor = f"scenario-trick-obligations-{line}"
    crawl = _article((spec_site / "rules" / "PLAY-CRAWL.html").read_text("utf-8"), anchor)
    void = _article((spec_site / "rules" / "PLAY-TRUMP-VOID.html").read_text("utf-8"), anchor)
    assert "crawl: beat the king of hearts" in crawl and "void in hearts: trump" not in crawl
    assert "void in hearts: trump" in void and "crawl: beat the king of hearts" not in void
    assert "&lt;hand&gt;" in crawl  # the outline's placeholders stay as written


def test_every_scenario_is_on_the_page_of_every_rule_it_tests(spec_site: Path) -> None:
    """As the coverage counts them (pinochle spec coverage): each tested (rule, scenario)."""
    missing = []
    for found in collect_evidence():
        if found.kind == "scenario" and found.tested:
            anchor = f"scenario-{Path(found.file).stem}-{found.line}"
            page = (spec_site / "rules" / f"{found.rule}.html").read_text("utf-8")
            if f'id="{anchor}"' not in page:
                missing.append(f"{found.rule}: {found.file}:{found.line}")
    assert missing == []
    search = (spec_site / "search.html").read_text("utf-8")
    assert "rules/PLAY-LEAD.html#scenario-trick-obligations-" in search


def test_step_text_draws_quoted_cards_and_escapes_the_rest() -> None:
    assert str(drawn_html('seat 1 holds "Ah Ks"')).count('class="card ') == 2
    text = str(drawn_html('the actions "bid 50, pass" and <b>'))
    assert "&quot;bid 50, pass&quot;" in text and "&lt;b&gt;" in text and "card" not in text
    assert str(drawn_html("AdAdAdAd")).count('title="Ad"') == 4


@pytest.mark.slow  # a browser, in a child process
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_the_search_works_offline_in_a_browser(spec_site: Path) -> None:
    assert CHROMIUM is not None
    url = (spec_site / "search.html").as_uri() + "?q=trump+void"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert 'href="rules/PLAY-TRUMP-VOID.html"' in done.stdout, done.stderr[-2000:]
