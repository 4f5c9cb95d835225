"""``pinochle spec site -o DIR``: the spec as a site built from spec/ and features/ alone: every
rule with every table case drawn, the errata and the protocol, and a search that works offline."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pinochle_cli import main
from pytest_pinochle.tables import load_cases
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
