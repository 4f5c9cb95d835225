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
from pinochle_tools.site.html import NAME_WORD, OPTION_WORD, Links, drawn_html, markdown_html
from pinochle_tools.site.spec_site import (
    case_size,
    errata_ids,
    load_chapter,
    page_titles,
    play_order,
    source_rows,
)
from specdata import FEATURES_DIR, load_variant, variant_ids
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


def broken_links(site: Path) -> list[str]:
    """Every link of a site to a page or an id that is not there."""
    pages = list(site.rglob("*.html"))
    ids = {p: set(re.findall(r"\bid=['\"]([^'\"]+)['\"]", p.read_text("utf-8"))) for p in pages}
    broken = []
    for page in pages:
        for target, fragment in re.findall(
            r'href="([^"#:?]*)(?:#([^"]*))?"', page.read_text("utf-8")
        ):
            linked = (page.parent / target).resolve() if target else page
            if not linked.exists():
                broken.append(f"{page.name} links to {target}")
            elif fragment and linked.suffix == ".html" and fragment not in ids[linked]:
                broken.append(f"{page.name} links to {target}#{fragment}")
    return broken


def test_every_link_and_fragment_of_the_spec_site_exists(spec_site: Path) -> None:
    assert broken_links(spec_site) == []


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


# --- the rulebook -------------------------------------------------------------------------------


def _text(html: str) -> str:
    """A page's words: tags dropped, entities undone, spaces left out (a link's tags or a
    drawn card's leave no trace)."""
    words = re.sub(r"<[^>]+>", "", html)
    for entity, char in (("&lt;", "<"), ("&gt;", ">"), ("&quot;", '"'), ("&#39;", "'")):
        words = words.replace(entity, char)
    return "".join(words.replace("&amp;", "&").split())


def test_the_chapters_come_in_play_order_each_opening_with_its_overview(spec_site: Path) -> None:
    order = play_order()
    assert order[:3] == ["deck-and-deal", "auction", "trump-and-passing"]
    index = (spec_site / "index.html").read_text("utf-8")
    links = re.findall(r'href="chapters/([\w-]+)\.html"', index)
    assert list(dict.fromkeys(links)) == order
    catalogue = load_catalogue()
    chapters = [load_chapter(stem, catalogue) for stem in order]
    # Links to the other chapters read their titles, as on the site.
    titled = Links(chapters=frozenset(order), spec_pages=True, titles=page_titles(chapters))
    for stem, chapter in zip(order, chapters, strict=True):
        page = (spec_site / "chapters" / f"{stem}.html").read_text("utf-8")
        overview = _text(str(markdown_html(chapter.overview, titled, shift=0)))
        assert overview and overview in _text(page), stem
        rules = [rule for rule, _ in chapter.sections]
        at = [page.index(f'id="{rule}"') for rule in rules]
        assert at == sorted(at), f"{stem}: rules out of order"
    # The passages engine authors need, each in its chapter's overview.
    for stem, passage in (
        ("meld", "The meld tables"),
        ("trick-play", "Which cards may be played"),
        ("auction", "Which rule a refused call names"),
        ("auction", "Smallest next bid"),
    ):
        assert passage.replace(" ", "") in _text(
            (spec_site / "chapters" / f"{stem}.html").read_text("utf-8")
        )
    intro = _text((spec_site / "introduction.html").read_text("utf-8"))
    assert "Thehand,stepbystep" in intro and "Options(defaultfirst" in intro
    assert '<h2 id="the-hand-step-by-step">' in index  # the front page opens with it


def bare_names(site: Path) -> list[str]:
    """Rule IDs, errata IDs and option readings a site's pages show as text, not as links, of
    those the site has a page or an anchor for (search.html's index aside)."""
    names = {p.stem for p in (site / "rules").glob("*.html")} | set(errata_ids())
    options = set(re.findall(r'id="option-(\w+)"', (site / "options.html").read_text("utf-8")))
    bare = []
    for page in site.rglob("*.html"):
        if page.name == "search.html":
            continue
        html = page.read_text("utf-8")
        html = re.sub(r"<(title|h1|script)\b.*?</\1>", " ", html, flags=re.S)
        words = re.sub(r"<[^>]+>", " ", re.sub(r"<a\b[^>]*>.*?</a>", " ", html, flags=re.S))
        bare += [f"{page.name}: {m[0]}" for m in NAME_WORD.finditer(words) if m[0] in names]
        bare += [f"{page.name}: {m[0]}" for m in OPTION_WORD.finditer(words) if m[1] in options]
    return bare


def test_every_rule_errata_and_option_named_in_any_text_is_a_link(spec_site: Path) -> None:
    options = {name for v in variant_ids() for name in load_variant(v).options}
    assert options <= set(
        re.findall(r'id="option-(\w+)"', (spec_site / "options.html").read_text("utf-8"))
    )
    assert len(list((spec_site / "rules").glob("*.html"))) == len(load_catalogue())
    assert bare_names(spec_site) == []
    crawl = (spec_site / "rules" / "PLAY-CRAWL.html").read_text("utf-8")
    assert '<a href="../rules/TRICK-IDENTICAL.html">TRICK-IDENTICAL</a>' in crawl
    assert 'href="../options.html#option-trick_rules"' in crawl


def test_anchors_resolve_as_written_and_no_raw_markup_shows(spec_site: Path) -> None:
    errata = (spec_site / "errata.html").read_text("utf-8")
    for anchor in ("ERRATA-RUN-MARRIAGE-48", "errata-run-marriage-48"):
        assert f'id="{anchor}"' in errata
    assert "&lt;a id" not in errata and "<hr" in errata
    assert not re.search(r">\s*---\s*<", errata)
    meld = (spec_site / "chapters" / "meld.html").read_text("utf-8")
    assert 'href="../errata.html#errata-online-meld"' in meld  # the text's own link, as written
    for page in spec_site.rglob("*.html"):
        text = page.read_text("utf-8")
        assert "/work/" not in text and not re.search(r"\bissue \d", text), page.name
        # A link to a page reads its title, not the spec/ file behind it ("errata.md").
        assert not re.findall(r"<a [^>]*>[\w./-]+\.md</a>", text), page.name
    assert '(<a href="scoring.html">Scoring a hand</a>)' in meld.replace("../chapters/", "")
    assert 'described in <a href="sources.html">the sources</a>' in errata


def test_examples_start_with_the_smallest_case_and_labels_read_plainly(spec_site: Path) -> None:
    crawl = (spec_site / "rules" / "PLAY-CRAWL.html").read_text("utf-8")
    first = re.search(r'<article class="case" id="([^"]+)"', crawl)
    cases = {case.id: case for case in load_cases() if case.rule == "PLAY-CRAWL"}
    assert first and cases[first[1]].method == "legal_plays"
    dd = [c for c in cases.values() if c.variant == "double-deck"]
    assert case_size(cases[first[1]]) == min(map(case_size, dd))
    for page in (spec_site / "rules").glob("*.html"):
        text = page.read_text("utf-8")
        assert "expected expected" not in text and "(negative)" not in text
        assert not re.search(r"<h3>[^<]*&lt;\w+&gt;", text), f"{page.name}: a placeholder"


def test_the_sources_page_says_what_each_source_is(spec_site: Path) -> None:
    page = (spec_site / "sources.html").read_text("utf-8")
    rows = source_rows()
    assert [r["cite"] for r in rows] == ["000", "001", "002", "003"]
    for row in rows:
        assert f'id="source-{row["cite"]}"' in page and row["file"] in page
        assert row["title"].split('"')[1] in page and len(row["what"]) > 20
    assert 'href="../sources.html#source-000"' in (
        spec_site / "rules" / "PLAY-CRAWL.html"
    ).read_text("utf-8")


@pytest.fixture(scope="module")
def table_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("table")
    argv = ["spec", "site", "-o", str(out), "--variant", "single-deck"]
    assert main([*argv, "--option", "run_royal=both"]) == 0
    return out


def test_a_tables_rulebook_shows_its_readings_and_derived_answers(table_site: Path) -> None:
    catalogue = load_catalogue()
    pages = {p.stem for p in (table_site / "rules").glob("*.html")}
    assert pages == {r for r, rule in catalogue.items() if "single-deck" in rule.variants}
    page = (table_site / "rules" / "MELD-ROYAL-MARRIAGE.html").read_text("utf-8")
    assert 'class="reading">At this table: <a href="../options.html#option-run_royal"' in page
    assert 'class="chosen"' in page and 'class="not-chosen"' in page
    # By hand: Ah Th Kh Qh Jh with hearts trump is a run, 150; a run's own K-Q scoring a royal
    # marriage as well (run_royal=both, ERRATA-RUN-MARRIAGE-48) adds 40: 190.
    article = page.split('id="sd-meld-run-royal-separate-single-run"', 1)[1].split("</article>")[0]
    cells = re.findall(r"<th>total</th><td><code>(\d+)</code>", article)
    assert cells == ["150", "190"]
    assert "derived" in article and "hand-worked" in article
    index = (table_site / "index.html").read_text("utf-8")
    assert (
        'single-deck, <a class="chosen" href="options.html#option-run_royal">run_royal=both</a>'
        in index
    )
    assert 'href="rules/MELD-ROYAL-MARRIAGE.html#sd-meld-run-royal-separate-single-run"' in index
    assert broken_links(table_site) == [] and bare_names(table_site) == []
    # A case the option does not touch is shown once, hand-worked.
    single = page.split('id="sd-meld-royal-single"', 1)[1].split("</article>")[0]
    assert "derived" not in single


@pytest.mark.parametrize(
    "argv",
    [
        ["--variant", "single-deck", "--option", "run_royal=bogus"],
        ["--variant", "single-deck", "--option", "nothing=1"],
        ["--variant", "no-such"],
        ["--option", "--variant"],  # an option without a variant: the message names --variant
    ],
)
def test_a_bad_table_is_one_line_and_exit_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = ["--option", "run_royal=both"] if argv[1] == "--variant" else argv
    assert main(["spec", "site", "-o", str(tmp_path / "out"), *given]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and argv[1].split("=")[0] in err


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
# The two pages most made of the spec's own text (a chapter, the errata); the rest are checked as
# files above, and the report site's tests load its index and rule pages in a browser.
@pytest.mark.parametrize("page", ["chapters/meld.html", "errata.html"])
def test_each_kind_of_page_in_a_browser_has_its_parts_and_its_links_resolve(
    spec_site: Path, page: str
) -> None:
    """What the browser builds from the page (the DOM, not the file): its links resolve to
    existing pages and ids, and a chapter shows its overview before its first rule."""
    assert CHROMIUM is not None
    path = spec_site / page
    done = subprocess.run(
        [CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--dump-dom", path.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    dom = done.stdout
    assert "</html>" in dom, done.stderr[-2000:]
    hrefs = re.findall(r'href="([^"#:?]*)(?:#([^"]*))?"', dom)
    assert len(hrefs) > 10
    for target, fragment in hrefs:
        linked = (path.parent / target).resolve() if target else path
        assert linked.exists(), target
        if fragment:
            assert re.search(f'id="{re.escape(fragment)}"', linked.read_text("utf-8"))
    if page.startswith("chapters/"):
        assert dom.index('id="the-meld-tables"') < dom.index('id="MELD-TYPES"')
