"""The conformance site built from real reports: the whole suite run against the reference engine
and against an engine with one planted bug (the last trick earns no bonus).

The HTML is checked for what it must say, then loaded in a real headless browser (Debian's
``chromium``): no console errors, the matrix is in the DOM, and a screenshot of the index shows
the passing engine's column green where the buggy engine's column is red.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pinochle_judge.wording import suspect_lines
from pinochle_tools.site import ReportError, build_site, load_run
from pinochle_tools.site.reports import shown as shown_path
from specdata import RULES_DIR, variant_ids
from specdata.rules import load_catalogue
from tests.report_runs import BUGGY, document_of, report_of
from tests.report_runs import prefetch as prefetch  # its runs start early: conftest.py

pytestmark = pytest.mark.slow  # the site is built from whole-suite runs in child processes

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_BROWSER = "chromium is not installed (apt-get install -y chromium; .ci/run installs it)"
PASS_GREEN = (0x2E, 0x7D, 0x32)
FAIL_RED = (0xC6, 0x28, 0x28)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_site([report_of(None)[0], report_of(BUGGY)[0]], out)
    return out


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


class Cells(HTMLParser):
    """The matrix cells of a page: (section id, row's rule, cell class, cell text) in order."""

    def __init__(self) -> None:
        super().__init__()
        self.section = ""
        self.rule = ""
        self.cells: list[tuple[str, str, str, str]] = []
        self._cell: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "section" and a.get("id"):
            self.section = str(a["id"])
        elif tag == "a" and (a.get("href") or "").startswith("rules/") and self._cell is None:
            self.rule = str(a["href"]).removeprefix("rules/").split(".html")[0]
        elif tag == "td" and "cell" in (a.get("class") or "").split():
            self._cell, self._text = str(a["class"]).split()[1], ""

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.cells.append((self.section, self.rule, self._cell, self._text.strip()))
            self._cell = None


def matrix(site: Path) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(variant, rule) -> the (class, text) of each engine's cell, engines in report order."""
    parser = Cells()
    parser.feed(read(site / "index.html"))
    out: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for section, rule, kind, text in parser.cells:
        out.setdefault((section.removeprefix("variant-"), rule), []).append((kind, text))
    return out


# --- the HTML -----------------------------------------------------------------------------------


def test_the_index_has_a_matrix_per_variant_with_every_rule_of_it(site: Path) -> None:
    cells = matrix(site)
    catalogue = load_catalogue()
    for variant in variant_ids():
        rules = {rule for (v, rule) in cells if v == variant}
        assert rules == {r for r, rule in catalogue.items() if variant in rule.variants}
    assert all(len(row) == 2 for row in cells.values()), "one cell per engine"


def test_the_planted_bug_is_red_where_it_bites_only(site: Path) -> None:
    """The bug drops the last-trick bonus, so POINTS-LAST-TRICK fails in every variant for the
    buggy engine; rules that never count card points (who wins a trick, what may be played, the
    order of ranks) stay green; the reference passes everything."""
    cells = matrix(site)
    for variant in variant_ids():
        reference, buggy = cells[(variant, "POINTS-LAST-TRICK")]
        assert (reference[0], buggy[0]) == ("passed", "failed"), variant
        for rule in ("TRICK-WINNER", "PLAY-CRAWL", "DECK-RANK"):
            assert [kind for kind, _ in cells[(variant, rule)]] == ["passed", "passed"]
    assert all(row[0][0] == "passed" for row in cells.values())


def test_a_cell_counts_the_rules_items_of_its_variant(site: Path) -> None:
    """dd-pts-last-trick and its siblings: the cell's total is the number of double-deck items
    testing POINTS-LAST-TRICK, its passes those the report marks passed."""
    report = document_of(BUGGY)
    ours = [
        c
        for node, c in report["cases"].items()
        if c["rule"] == "POINTS-LAST-TRICK" and "double-deck.yaml::" in node
    ]
    passed = sum(c["outcome"] == "passed" for c in ours)
    cell = matrix(site)[("double-deck", "POINTS-LAST-TRICK")][1]
    # Scenarios may add items beyond the table's; the table's alone bound the count.
    got_passed, total = map(int, cell[1].split("/"))
    assert got_passed >= passed and total >= len(ours) > 0


def test_a_rule_page_states_the_rule_and_draws_the_cards(site: Path) -> None:
    page = read(site / "rules" / "POINTS-LAST-TRICK.html")
    chapter = read(RULES_DIR / "trick-play.md")
    section = chapter.split("## POINTS-LAST-TRICK:", 1)[1].split("\n## ", 1)[0]
    first_bullet = next(line for line in section.splitlines() if line.startswith("- **Variants"))
    assert "Variants:</strong> " + first_bullet.split("** ", 1)[1] in page
    # dd-pts-last-trick asks for the points of As Ts Ks Qs as the last trick: spades are black.
    case = page.split('id="dd-pts-last-trick"', 1)[1].split("</article>", 1)[0]
    for code, shown in (("As", "A♠"), ("Ts", "10♠"), ("Ks", "K♠"), ("Qs", "Q♠")):
        assert f'<span class="card black" title="{code}">{shown}</span>' in case
    # Worked by hand: A, T and K count 1 each in double-deck (POINTS-COUNTERS), the queen
    # nothing, and the last trick adds 2 (POINTS-LAST-TRICK): 5; the buggy engine says 3.
    assert "expected answer</th>" in case
    assert re.search(r"<tr class=\"expected\"><th>points</th><td><code>5</code>", case)
    assert "points: expected 5, got 3" in case
    assert 'class="verdict failed"' in case and 'class="verdict passed"' in case


def test_red_suits_are_drawn_red(site: Path) -> None:
    page = read(site / "rules" / "TRICK-WINNER.html")
    assert re.search(r'<span class="card red" title="[ATKQJ9][hd]">', page)
    assert not re.search(r'<span class="card black" title="[ATKQJ9][hd]">', page)
    assert not re.search(r'<span class="card red" title="[ATKQJ9][sc]">', page)


def test_an_engine_page_shows_its_diagnosis_and_failures(site: Path) -> None:
    report = document_of(BUGGY)
    first = report["diagnosis"][0]
    pages = list((site / "engines").glob("*.html"))
    buggy = next(p for p in pages if "no-last-trick" in p.name)
    page = read(buggy)
    diagnosis = page.split('id="diagnosis"', 1)[1].split('id="failures"', 1)[0]
    assert f'href="../rules/{first["rule"]}.html">{first["rule"]}</a>' in diagnosis
    bad = report["totals"]["failed"] + report["totals"]["errored"]
    assert f"Failed and errored cases ({bad})" in page
    reference = read(next(p for p in pages if "reference" in p.name))
    assert "No rule is suspected" in reference


def test_each_engine_has_a_badge_coloured_by_its_result(site: Path) -> None:
    colours = {}
    for engine in (None, BUGGY):
        report = document_of(engine)
        slug = load_run(report_of(engine)[0]).slug
        svg = ET.parse(site / "badges" / f"{slug}.svg").getroot()
        totals = report["totals"]
        assert f"{totals['passed']}/{sum(totals.values())} passed" in svg.attrib["aria-label"]
        colours[engine] = [r.attrib["fill"] for r in svg.iter("{http://www.w3.org/2000/svg}rect")]
    assert colours[None][1] == "#2e7d32" and colours[BUGGY][1] == "#c62828"


def test_every_link_and_image_of_the_site_exists(site: Path) -> None:
    pages = list(site.rglob("*.html"))
    assert len(pages) > len(load_catalogue())  # an index, a page per rule, a page per engine
    for page in pages:
        for target in re.findall(r'(?:href|src)="([^"#:]+)(?:#[^"]*)?"', read(page)):
            assert (page.parent / target).resolve().exists(), f"{page.name} links to {target}"


ID = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


def ids_of(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]*)"', page))


def test_the_index_opens_with_what_fails_linked_to_the_cases(site: Path) -> None:
    index = read(site / "index.html")
    head, _, rest = index.partition('id="what-fails"')
    assert rest and 'class="matrix"' not in head, "what fails comes before the matrices"
    listing = rest.split("</section>", 1)[0]
    assert "pinochle-reference" not in listing, "the reference fails nothing"
    row = next(r for r in listing.split("<tr>") if 'rules/POINTS-LAST-TRICK.html"' in r)
    page = read(site / "rules" / "POINTS-LAST-TRICK.html")
    for variant in variant_ids():
        target = re.search(rf'href="rules/POINTS-LAST-TRICK\.html#([^"]+)"[^>]*>{variant} ', row)
        assert target, row
        case = page.split(f'id="{target[1]}"', 1)[1].split("</article>", 1)[0]
        assert 'class="verdict failed"' in case


def test_a_rule_page_lists_failing_cases_first_with_the_request_once(site: Path) -> None:
    page = read(site / "rules" / "POINTS-LAST-TRICK.html")
    for section in page.split('<section class="variant"')[1:]:
        kinds = re.findall(r'<article class="case( failing)?"', section)
        assert kinds == sorted(kinds, reverse=True), "failing cases first"
        assert kinds[0] == " failing"
        # The red cell of the buggy engine links to its first failing case on this page.
        red = re.search(r'<td class="cell failed"[^>]*><a href="#([^"]+)">', section)
        assert red and f'<article class="case failing" id="{red[1]}">' in section
    case = page.split('id="dd-pts-last-trick"', 1)[1].split("</article>", 1)[0]
    assert case.count('class="request"') == 1, "both engines were asked the same"
    # The expected answer and each engine's verdict side by side, in one row.
    row = case.split('<table class="replies">', 1)[1]
    assert row.index("<th>points</th>") < row.index('class="verdict passed"')
    assert row.index('class="verdict passed"') < row.index('class="verdict failed"')


def test_every_id_is_a_valid_html_id_and_every_fragment_exists(site: Path) -> None:
    rules = {page.name: ids_of(read(page)) for page in (site / "rules").glob("*.html")}
    for ids in rules.values():
        assert all(ID.fullmatch(i) for i in ids), [i for i in ids if not ID.fullmatch(i)][:3]
    for page in [site / "index.html", *(site / "engines").glob("*.html")]:
        for name, fragment in re.findall(r'href="(?:\.\./)?rules/([^"#]+)#([^"]+)"', read(page)):
            assert fragment in rules[name], f"{page.name} links to {name}#{fragment}"


def test_install_paths_are_never_shown() -> None:
    shown_text = shown_path(
        "SKIPPED ../venv/lib/python3.11/site-packages/pytest_pinochle/tables.py:393: no method "
        "auction; ../venv/lib/python3.11/site-packages/specdata/features/tables/meld.yaml:3"
    )
    assert shown_text == (
        "SKIPPED pytest_pinochle/tables.py:393: no method auction; features/tables/meld.yaml:3"
    )
    assert shown_path("features/tables/meld.yaml:3") == "features/tables/meld.yaml:3"


def test_a_file_that_is_not_a_report_is_refused_by_name(tmp_path: Path) -> None:
    bad = tmp_path / "junit.json"
    bad.write_text('{"tests": 3}', encoding="utf-8")
    with pytest.raises(ReportError, match=r"junit\.json: not a conformance report"):
        build_site([bad], tmp_path / "out")
    with pytest.raises(ReportError, match="no report given"):
        build_site([], tmp_path / "out")


# --- in a real browser -------------------------------------------------------------------------


def chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [CHROMIUM, "--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr"]
    return subprocess.run(
        [*command, "--v=0", *args], capture_output=True, text=True, timeout=120, check=False
    )


def console_messages(stderr: str) -> list[str]:
    """What the pages wrote to the browser's console (Chromium logs it as INFO:CONSOLE)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


@pytest.mark.skipif(CHROMIUM is None, reason=NO_BROWSER)
def test_the_console_check_sees_a_broken_page(tmp_path: Path) -> None:
    """The check below can fail: a page with a script error is caught."""
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><script>undefinedFunction();</script>", encoding="utf-8")
    done = chromium("--dump-dom", page.as_uri())
    assert any("undefinedFunction" in line for line in console_messages(done.stderr))


@pytest.mark.skipif(CHROMIUM is None, reason=NO_BROWSER)
@pytest.mark.parametrize("page", ["index.html", "rules/POINTS-LAST-TRICK.html", "engines"])
def test_pages_load_in_a_browser_without_console_errors(site: Path, page: str) -> None:
    path = site / page
    if path.is_dir():
        path = sorted(path.glob("*.html"))[0]
    done = chromium("--dump-dom", path.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    assert console_messages(done.stderr) == []
    assert '<table class="matrix">' in done.stdout
    assert "</html>" in done.stdout


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB pixels of an 8-bit, non-interlaced PNG (what Chromium
    writes): enough of the format to check colours without an imaging library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "an unexpected PNG layout"
    size = 3 if colour == 2 else 4
    raw = zlib.decompress(chunks)
    stride = width * size
    rows: list[bytes] = []
    previous = bytes(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]
        previous = _unfiltered(kind, line, previous, size)
        if size == 3:
            rows.append(previous)
        else:  # RGBA: the alpha bytes left out
            rgb = bytearray(width * 3)
            for channel in range(3):
                rgb[channel::3] = previous[channel::4]
            rows.append(bytes(rgb))
    return width, height, rows


def _added(x: bytes, y: bytes) -> bytes:
    """Byte by byte ``(x + y) % 256``, as the PNG filters add, on whole rows at once (the low
    seven bits of each byte added without reaching the next byte, the top bit by xor)."""
    low, high = _masks(len(x))
    a, b = int.from_bytes(x, "big"), int.from_bytes(y, "big")
    return (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(len(x), "big")


@functools.cache
def _masks(n: int) -> tuple[int, int]:
    return int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big")


def _unfiltered(kind: int, line: bytes, previous: bytes, size: int) -> bytes:
    """A row of a PNG with its filter (``kind``) undone, given the row above, unfiltered."""
    if kind == 0:
        return line
    if kind == 2:  # up
        return _added(line, previous)
    if kind == 1:  # sub
        return _running(line, size)
    done = bytearray(line)
    if kind == 3:  # average
        for x in range(len(done)):
            left = done[x - size] if x >= size else 0
            done[x] = (done[x] + (left + previous[x]) // 2) & 0xFF
        return bytes(done)
    # Paeth. Where the row above repeats the pixel before (up == corner), Paeth picks the left
    # byte: those stretches are running sums as the sub filter's, the rest byte by byte.
    above = int.from_bytes(previous, "big") ^ int.from_bytes(bytes(size) + previous[:-size], "big")
    same = above.to_bytes(len(previous), "big")
    x = 0
    for run in re.finditer(rb"\x00{8,}", same):
        start, end = max(run.start(), size), run.end()
        _paeth(done, previous, size, x, start)
        if start < end:
            seeded = bytearray(done[start:end])
            for j in range(min(size, end - start)):
                seeded[j] = (seeded[j] + done[start - size + j]) & 0xFF
            done[start:end] = _running(bytes(seeded), size)
        x = max(x, end)
    _paeth(done, previous, size, x, len(done))
    return bytes(done)


def _running(line: bytes, size: int) -> bytes:
    """Each byte plus the one ``size`` before it, once that one has been summed (the sub
    filter undone), in doubling steps."""
    out, step = line, size
    while step < len(out):
        out = _added(out, bytes(step) + out[:-step])
        step *= 2
    return out


def _paeth(done: bytearray, previous: bytes, size: int, start: int, end: int) -> None:
    """The Paeth filter undone byte by byte over ``done[start:end]``."""
    for x in range(start, end):
        left = done[x - size] if x >= size else 0
        up = previous[x]
        corner = previous[x - size] if x >= size else 0
        if up == corner:
            done[x] = (done[x] + left) & 0xFF
        elif left == corner:
            done[x] = (done[x] + up) & 0xFF
        else:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            done[x] = (done[x] + pred) & 0xFF


_IS = [bytes(int(i == value) for i in range(256)) for value in range(256)]
"""Per byte value, the translation table marking that value 1 and every other 0."""


def hits(row: bytes, colour: tuple[int, int, int]) -> tuple[int, int]:
    """How many pixels of an RGB row are exactly ``colour``, and the x of the first (-1)."""
    masks = [int.from_bytes(row[i::3].translate(_IS[v]), "big") for i, v in enumerate(colour)]
    found = (masks[0] & masks[1] & masks[2]).to_bytes(len(row) // 3, "big")
    return found.count(1), found.find(1)


@pytest.mark.skipif(CHROMIUM is None, reason=NO_BROWSER)
def test_a_screenshot_of_the_index_shows_the_matrix_coloured(site: Path, tmp_path: Path) -> None:
    """The index opens with what fails (red within the first screen); below, rows of the matrix
    where the buggy engine fails: its cell (right) is red where the reference's (left) is green,
    and no pixel row has red left of green."""
    shot = tmp_path / "index.png"
    done = chromium(
        "--window-size=1280,4000", f"--screenshot={shot}", (site / "index.html").as_uri()
    )
    assert shot.exists(), done.stderr[-2000:]
    width, height, rows = png_pixels(shot)
    assert (width, height) == (1280, 4000)
    first_red = next(y for y, row in enumerate(rows) if hits(row, FAIL_RED)[0] > 20)
    assert first_red < 700, f"the first failure is drawn at pixel row {first_red}"
    both = 0
    for row in rows:
        (greens, green_at), (reds, red_at) = hits(row, PASS_GREEN), hits(row, FAIL_RED)
        if greens > 20 and reds > 20:
            both += 1
            assert red_at > green_at, "a failing cell left of a passing one"
    # At 4000 pixels the double-deck matrix shows its failing rules: many rows of pixels each.
    assert both > 50, f"only {both} pixel rows show a passing and a failing cell side by side"


def test_an_engine_page_shows_its_unsupported_rules_and_derived_cases(tmp_path: Path) -> None:
    """Declared gaps per rule and derived verdicts are on the engine's
    page, apart from the hand-worked counts."""
    import json

    document = dict(document_of(None))
    document["unsupported"] = {"TRICK-WINNER": 3}
    document["derived"] = {"passed": 4, "failed": 1, "errored": 0, "skipped": 0}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    build_site([path], tmp_path / "out")
    page = read(next((tmp_path / "out" / "engines").glob("*.html")))
    assert 'href="../rules/TRICK-WINNER.html">TRICK-WINNER</a> (3)' in page
    assert "Derived, not hand-worked" in page and "4 passed, 1 failed" in page


def test_an_engine_page_shows_the_reach_under_its_options(tmp_path: Path) -> None:
    """How many whole hands reach their end, the rules partly reached, none reached and switched
    off: from the report's ``reach``."""
    import json

    document = dict(document_of(None))
    document["reach"] = {
        "rules": {
            "PLAY-CRAWL": {"judged": 5, "reached": 3},
            "PASS-CARDS": {"judged": 4, "reached": 0},
            "AUCTION-DEALER-OPENS": {"judged": 2, "reached": 0},
        },
        "whole_hands": {"judged": 40, "reached": 37},
        "other_values": {"judged": 6, "reached": 2},
        "off": ["AUCTION-DEALER-OPENS"],
        "unreached": ["PASS-CARDS"],
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    build_site([path], tmp_path / "out")
    page = read(next((tmp_path / "out" / "engines").glob("*.html")))
    assert "37 of 40 whole-hand cases play to where their hand-worked versions end" in page
    assert 'PLAY-CRAWL.html">PLAY-CRAWL</a> 3/5' in page
    assert 'no judged case reaches: <a href="../rules/PASS-CARDS.html">PASS-CARDS</a>' in page
    assert "AUCTION-DEALER-OPENS</a> 0/2" not in page  # switched off: owed no case
    assert "(owed no case): AUCTION-DEALER-OPENS" in page


def run_plus_royal_report() -> dict[str, Any]:
    """A small report of an engine that scores a run's K-Q as a royal marriage too: MELD-RUN
    fails three cases and MELD-ROYAL-MARRIAGE one, but the diagnosis names the royal marriage
    first (two of MELD-RUN's failures are charged to it)."""
    table = "features/tables/meld-double-deck.yaml::"
    outcomes = {"r1": "MELD-RUN", "r2": "MELD-RUN", "r3": "MELD-RUN", "m1": "MELD-ROYAL-MARRIAGE"}
    cases = {
        table + name: {"outcome": "failed", "rule": rule, "uses": [], "rules": [rule]}
        for name, rule in outcomes.items()
    }
    suspect = {"score": 1.0, "direct": True, "own_cases": {"failed": 1, "passed": 0}}
    counts = {"passed": 0, "failed": 4, "errored": 0, "skipped": 0}
    return {
        "format": 4,
        "engine": {"command": "eng", "name": "eng", "version": "1"},
        "variants": "all",
        "totals": counts,
        "rules": {},
        "diagnosis": [
            {"rule": "MELD-ROYAL-MARRIAGE", **suspect, "evidence": []},
            {"rule": "MELD-RUN", **suspect, "evidence": []},
        ],
        "cases": cases,
    }


def test_what_fails_lists_the_diagnosis_likeliest_rule_first(tmp_path: Path) -> None:
    """The rule to fix first heads the list, not the one failing most cases."""
    document = run_plus_royal_report()
    report = tmp_path / "r.json"
    report.write_text(json.dumps(document), encoding="utf-8")
    build_site([report], tmp_path / "site")
    listing = read(tmp_path / "site" / "index.html").split('id="what-fails"', 1)[1]
    first = listing.index('href="rules/MELD-ROYAL-MARRIAGE.html"')
    assert first < listing.index('href="rules/MELD-RUN.html"')
    # Without a diagnosis, the rule with the most failures comes first.
    document["diagnosis"] = []
    report.write_text(json.dumps(document), encoding="utf-8")
    build_site([report], tmp_path / "site")
    listing = read(tmp_path / "site" / "index.html").split('id="what-fails"', 1)[1]
    first = listing.index('href="rules/MELD-RUN.html"')
    assert first < listing.index('href="rules/MELD-ROYAL-MARRIAGE.html"')


def test_a_suspect_reads_the_same_on_the_engine_page_and_in_the_terminal(tmp_path: Path) -> None:
    """Its own cases counted as the terminal counts them: those charged to it (MELD-RUN's
    other failures, charged to the royal marriage, are not), said so in both places."""
    document = run_plus_royal_report()
    report = tmp_path / "r.json"
    report.write_text(json.dumps(document), encoding="utf-8")
    build_site([report], tmp_path / "site")
    page = read(tmp_path / "site" / "engines" / "eng-1.html")
    shown = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    for line in suspect_lines(document["diagnosis"]):
        said = line[line.index("(") :]
        assert "failed charged to it" in said
        assert said in shown, said


def test_a_rule_explained_by_a_suspect_is_listed_after_the_ranked_ones(tmp_path: Path) -> None:
    """A cascade of the first suspect is shown apart, as explained by it, not in the ranking."""
    import json

    document = dict(document_of(BUGGY))
    first = document["diagnosis"][0]
    named = {entry["rule"] for entry in document["diagnosis"]}
    other = next(rule for rule in sorted(load_catalogue()) if rule not in named)
    cascade = {**first, "rule": other, "explained_by": [first["rule"]]}
    document["diagnosis"] = [*document["diagnosis"], cascade]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    build_site([path], tmp_path / "out")
    page = read(next((tmp_path / "out" / "engines").glob("*.html")))
    ranking, _, rest = page.partition("</ol>")
    assert f'href="../rules/{other}.html"' not in ranking.partition('<ol class="diagnosis">')[2]
    assert (
        f'href="../rules/{other}.html">{other}</a>, explained by '
        f'<a href="../rules/{first["rule"]}.html">' in rest
    )
