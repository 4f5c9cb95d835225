"""What the sites' pages are made of: cards drawn, a request's or answer's values, the spec's
Markdown (through markdown-it-py), and the templates that put them together.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from pinochle_judge import notation
from pinochle_judge.tally import STATUSES
from specdata import SUIT_NAMES, SUIT_SYMBOLS, card_codes

from .reports import shown

TEMPLATES = Path(__file__).resolve().parent / "templates"
SUIT_COLOUR = {"s": "black", "c": "black", "h": "red", "d": "red"}


# --- cards and values -----------------------------------------------------------------------------


def card_html(code: str) -> str:
    """One card drawn: rank and suit symbol, red for hearts and diamonds, black otherwise."""
    colour = SUIT_COLOUR.get(code[-1:], "black")
    return (
        f'<span class="card {colour}" title="{html.escape(code)}">'
        f"{html.escape(notation.card(code))}</span>"
    )


def cards_html(codes: Sequence[Any]) -> str:
    if not codes:
        return '<span class="none">no cards</span>'
    return '<span class="cards">' + "".join(card_html(str(c)) for c in codes) + "</span>"


def value_html(method: str, kind: str, key: str, data: Any, links: Links | None = None) -> Markup:
    """A field of a request (``params``) or answer (``result``), its cards drawn (and, with
    ``links``, the rules it names linked)."""
    paths = notation.card_paths(method, kind)
    if key == "trump" and isinstance(data, str):
        return Markup(f"{card_suit(data)} {html.escape(SUIT_NAMES.get(data, data))}")
    if key in paths and isinstance(data, list):
        return Markup(cards_html(data))
    if f"{key}[]" in paths and isinstance(data, list):
        return Markup(
            "<ol class='hands' start='0'>"
            + "".join(
                f"<li>{cards_html(h) if isinstance(h, list) else html.escape(str(h))}</li>"
                for h in data
            )
            + "</ol>"
        )
    if key == "melds" and isinstance(data, list):
        shown = [html.escape(notation.meld(m)) for m in data if isinstance(m, dict)]
        return Markup(", ".join(shown) or "none")
    text = json.dumps(data, ensure_ascii=False) if not isinstance(data, str) else data
    return Markup(f"<code>{links.linked(text) if links else html.escape(text)}</code>")


QUOTED = re.compile(r'"([^"]*)"')
"""A quoted argument of a step (``seat 1 holds "Ah Ks Qd Jc"``)."""


def _cards_in(text: str) -> list[str]:
    """The cards ``text`` is made of (``Ah Ks``, ``AdAdAdAd``), or [] when it is anything else."""
    try:
        return card_codes(text) if text.strip() else []
    except ValueError:
        return []


def drawn_html(text: str, links: Links | None = None) -> Markup:
    """Text of a step or a cell, its cards drawn: a quoted argument or a whole text made of
    cards only; everything else escaped as written (with ``links``, the names in it linked)."""
    whole = _cards_in(text)
    if whole:
        return Markup(cards_html(whole))
    escape = links.linked if links else html.escape
    out, at = [], 0
    for m in QUOTED.finditer(text):
        cards = _cards_in(m.group(1))
        out += [escape(text[at : m.start()]), cards_html(cards) if cards else html.escape(m[0])]
        at = m.end()
    return Markup("".join([*out, escape(text[at:])]))


def card_suit(letter: str) -> str:
    symbol = SUIT_SYMBOLS.get(letter, letter)
    return f'<span class="suit {SUIT_COLOUR.get(letter, "black")}">{html.escape(symbol)}</span>'


# --- links ----------------------------------------------------------------------------------------


OPTION_WORD = re.compile(r"\b([a-z][a-z0-9_]*)=(-?[A-Za-z0-9][A-Za-z0-9.+-]*)")
"""An option's reading as the spec writes it: ``run=15``, ``trick_rules=post-1945``."""
NAME_WORD = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")
"""A rule or errata ID in running text (specdata's RULE_ID, at word bounds)."""
SPEC_PAGES = {
    "errata.md": "errata.html",
    "protocol.md": "protocol.html",
    "conventions.md": "conventions.html",
    "README.md": "index.html",
}
"""spec/ files the spec site renders whole, and their page."""


@dataclass(frozen=True)
class Links:
    """Where each name the spec's text uses is on the site, seen from a page ``root`` deep
    (``""`` or ``"../"``): rule IDs, errata IDs, options, sources, and spec/'s own Markdown
    links. A name the site has no page for stays text."""

    root: str = ""
    rules: frozenset[str] = frozenset()
    errata: frozenset[str] = frozenset()
    options: frozenset[str] = frozenset()
    sources: frozenset[str] = frozenset()
    chapters: frozenset[str] = frozenset()
    """The chapter files' stems (``trick-play``): rules/trick-play.md is on
    chapters/trick-play.html."""
    variants: frozenset[str] = frozenset()
    """The variants the options page has a section for (spec/variants/NAME.yaml links there)."""
    spec_pages: bool = False
    """Whether the site has the spec's other pages (chapters, errata, options, sources): the
    report site has rule pages only."""
    chosen: Mapping[str, str] = field(default_factory=dict)
    """A table's own options (name -> value): their readings in the text are marked chosen or
    not."""
    titles: Mapping[str, str] = field(default_factory=dict)
    """The title of each spec/ file the site shows as a page (``errata.md``,
    ``rules/meld.md``; ``README.md#sources``, a part with its own page): a link whose words are
    the file's name reads the title instead."""

    def of_name(self, name: str) -> str | None:
        """The page (and anchor) of a rule or errata ID."""
        if name in self.rules:
            return f"{self.root}rules/{name}.html"
        if name in self.errata and self.spec_pages:
            return f"{self.root}errata.html#{name}"
        return None

    def option(self, name: str, value: str | None = None) -> str | None:
        """A link to an option (``run`` or ``run=15``), marked at a table that chose a value."""
        if name not in self.options or not self.spec_pages:
            return None
        words = html.escape(name if value is None else f"{name}={value}")
        mark = ""
        if value is not None and name in self.chosen:
            played = self.chosen[name] == value
            mark = ' class="chosen"' if played else ' class="not-chosen"'
            title = (
                "played at this table" if played else f"not played here: {name}={self.chosen[name]}"
            )
            mark += f' title="{html.escape(title)}"'
        return f'<a href="{self.root}options.html#option-{name}"{mark}>{words}</a>'

    def text(self, text: str) -> Markup:
        """Plain text escaped, with every rule ID, errata ID and option reading a link."""
        return Markup(self.linked(text))

    def linked(self, text: str) -> str:
        """``text`` (plain) as HTML: escaped, names linked."""
        out, at = [], 0
        pattern = re.compile(f"{NAME_WORD.pattern}|{OPTION_WORD.pattern}")
        for m in pattern.finditer(text):
            link = None
            if m.group(1) is not None:
                link = self.option(m.group(1), m.group(2))
            else:
                href = self.of_name(m[0])
                link = f'<a href="{href}">{m[0]}</a>' if href else None
            if link is not None:
                out += [html.escape(text[at : m.start()], quote=False), link]
                at = m.end()
        return "".join([*out, html.escape(text[at:], quote=False)])

    def tag(self, tag: str) -> Markup:
        """A Gherkin tag as code (``@PLAY-LEAD``), a link when it names a rule, an errata entry
        (``@uses:MELD-RUN`` too) or an option (``@option:run=15``)."""
        code = f"<code>@{html.escape(tag)}</code>"
        kind, _, rest = tag.rpartition(":")
        option = OPTION_WORD.fullmatch(rest) if kind == "option" else None
        if option is not None:
            linked = self.option(option[1], option[2])
            if linked is not None:
                return Markup(linked.replace(">" + html.escape(rest) + "<", f">{code}<", 1))
        href = self.of_name(rest)
        return Markup(f'<a href="{href}">{code}</a>' if href else code)

    def code(self, content: str) -> str | None:
        """A code span that names something: a rule, an errata entry, an option or a source."""
        href = self.of_name(content)
        if href is not None:
            return f'<a href="{href}"><code>{content}</code></a>'
        m = OPTION_WORD.fullmatch(content)
        linked = self.option(m[1], m[2]) if m else self.option(content)
        if linked is not None:
            return linked.replace(">", "><code>", 1).replace("</a>", "</code></a>")
        if content in self.sources and self.spec_pages:
            return f'<a href="{self.root}sources.html#source-{content}"><code>{content}</code></a>'
        inner = self.linked(content)
        return f"<code>{inner}</code>" if "<a " in inner else None

    def target(self, href: str, base: str) -> str | None:
        """Where a Markdown link of a spec/ file in ``base`` (``rules/``, ``""``) points on the
        site; None for a file the site does not show (its words are kept)."""
        if re.match(r"[a-z]+:", href):
            return href
        found = self._target(href, base)
        if found is None or self.spec_pages or found.startswith(f"{self.root}rules/"):
            return found
        return None

    def title_of(self, href: str, base: str, words: str) -> str | None:
        """The title a link reads instead of ``words`` when they only name its spec/ file
        (``errata.md``, ``rules/meld.md``): a page's reader never sees the file."""
        path, _, fragment = href.partition("#")
        spec_path = _spec_path(path, base)
        if spec_path is None or not FILE_NAME.fullmatch(words.strip()):
            return None
        return self.titles.get(f"{spec_path}#{fragment}") or self.titles.get(spec_path)

    def _target(self, href: str, base: str) -> str | None:
        path, _, fragment = href.partition("#")
        spec_path = _spec_path(path, base)
        if spec_path is None:
            return None  # outside spec/
        anchor = f"#{fragment}" if fragment else ""
        if not path:
            return anchor or None
        if spec_path == "coverage.md" and fragment.upper() in self.rules:
            return f"{self.root}rules/{fragment.upper()}.html"
        if spec_path == "README.md" and fragment == "sources":
            return f"{self.root}sources.html"
        if spec_path in SPEC_PAGES:
            return f"{self.root}{SPEC_PAGES[spec_path]}{anchor}"
        if spec_path.startswith("variants/") and Path(spec_path).stem in self.variants:
            return f"{self.root}options.html#variant-{Path(spec_path).stem}"
        if spec_path.startswith("rules/") and Path(spec_path).stem in self.chapters:
            if fragment.upper() in self.rules:
                return f"{self.root}rules/{fragment.upper()}.html"
            return f"{self.root}chapters/{Path(spec_path).stem}.html{anchor}"
        return None


FILE_NAME = re.compile(r"[\w./-]+\.md")
"""Link words that are only a spec/ file's name."""


def _spec_path(path: str, base: str) -> str | None:
    """``path``, written in spec/'s folder ``base``, as a path inside spec/ (None: outside)."""
    parts: list[str] = []
    for part in (base + path).split("/") if path else base.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part and part != ".":
            parts.append(part)
    return "/".join(parts)


# --- Markdown -----------------------------------------------------------------------------------


CARD_WORD = re.compile(r"[ATKQJ9][shdc]")
ANCHOR_LINE = re.compile(r'<a id="([A-Za-z][A-Za-z0-9_-]*)"></a>')
"""An anchor the spec's text sets by hand before a heading (errata.md): kept as an anchor."""


@cache
def _markdown() -> MarkdownIt:
    # CommonMark and tables; raw HTML in the text stays text (but for ANCHOR_LINE).
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_html(
    text: str,
    links: Links | None = None,
    *,
    base: str = "rules/",
    shift: int = 1,
    after_heading: Callable[[str], str] | None = None,
) -> Markup:
    """The spec's Markdown as HTML: headings ``shift`` levels down (a page under its own title),
    each with an id (an ``ID: title`` heading's is the ID, with its lower-case form as an anchor
    too); cards quoted as code (``Ah Ks``) drawn; rule IDs, errata IDs, options and sources links
    (``links``), and the text's own links pointed at the site's pages (``base``: the file's
    folder in spec/), or kept as words where the site has no such page. ``after_heading(ID)``
    adds HTML after an ID's heading."""
    links = links or Links()
    parser = _markdown()
    tokens: list[Token] = []
    source = parser.parse(text)
    for at, token in enumerate(source):
        inline = source[at + 1] if at + 1 < len(source) else None
        if token.type == "paragraph_open" and inline and ANCHOR_LINE.fullmatch(inline.content):
            anchor = ANCHOR_LINE.fullmatch(inline.content)
            assert anchor is not None
            inline.type, inline.children = "skip", None
            token.type, token.content = "html_block", f'<a id="{anchor[1]}"></a>\n'
            source[at + 2].type = "skip"
            tokens.append(token)
            continue
        if token.type == "skip":
            continue
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(max(int(token.tag[1:]) + shift, 1), 6)}"
        if token.type == "heading_open" and inline is not None:
            named = NAME_WORD.match(inline.content)
            own = named[0] if named and inline.content[named.end() :].startswith(":") else None
            if own is not None:
                token.attrSet("id", own)
                tokens.append(Token("html_block", "", 0, content=f'<a id="{own.lower()}"></a>\n'))
            else:
                token.attrSet("id", heading_id(inline.content))
            token.meta = {"own": own}
        elif token.type == "table_open":
            token.attrSet("class", "statement")
        elif token.type in ("fence", "code_block"):  # code as written, the names in it linked
            token = Token(
                "html_block", "", 0, content=f"<pre>{links.linked(token.content)}</pre>\n"
            )
        elif token.type == "inline" and token.children:
            token.children = _inline(token.children, links, base)
        tokens.append(token)
        if token.type == "heading_close" and after_heading is not None:
            opened = next(t for t in reversed(tokens) if t.type == "heading_open")
            own = (opened.meta or {}).get("own")
            if own:
                tokens.append(Token("html_block", "", 0, content=after_heading(own)))
    return Markup(parser.renderer.render(tokens, parser.options, {}))


def markdown_inline(text: str, links: Links | None = None) -> Markup:
    """One line of the spec's Markdown (a table cell) as inline HTML, as ``markdown_html``."""
    parser = _markdown()
    tokens = parser.parseInline(text)
    for token in tokens:
        token.children = _inline(token.children or [], links or Links(), "")
    return Markup(parser.renderer.render(tokens, parser.options, {}))


def _inline(children: list[Token], links: Links, base: str) -> list[Token]:
    """A line's tokens with cards drawn, names linked and links pointed at the site."""
    out: list[Token] = []
    depth = 0  # inside a link the text stays text
    kept: list[bool] = []  # each open link: whether it is kept
    written = ""  # the open link's href as the spec writes it
    for token in children:
        if token.type == "link_open":
            written = str(token.attrGet("href") or "")
            href = links.target(written, base)
            kept.append(href is not None)
            depth += 1
            if href is None:
                continue
            token.attrSet("href", href)
        elif token.type == "text" and depth and kept[-1]:
            title = links.title_of(written, base, token.content)
            if title is not None:
                token = Token("html_inline", "", 0, content=html.escape(title))
        elif token.type == "link_close":
            depth -= 1
            if not kept.pop():
                continue
        elif token.type == "code_inline":
            words = token.content.split()
            named = None if depth else links.code(token.content)
            if words and all(CARD_WORD.fullmatch(w) for w in words):
                token = Token("html_inline", "", 0, content=cards_html(words))
            elif named is not None:
                token = Token("html_inline", "", 0, content=named)
        elif token.type == "text" and not depth:
            token = Token("html_inline", "", 0, content=links.linked(token.content))
        out.append(token)
    return out


def heading_id(title: str) -> str:
    """A heading's id, as a forge would make it: lower case, words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


# --- pages ----------------------------------------------------------------------------------------


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["cards"] = lambda codes: Markup(cards_html(codes))
    env.filters["shown"] = shown
    env.filters["drawn"] = drawn_html
    env.globals["value_html"] = value_html
    env.globals["statuses"] = STATUSES
    return env


def render(
    env: jinja2.Environment,
    template: str,
    site: dict[str, str | bytes],
    name: str,
    /,
    **context: Any,
) -> None:
    """Render ``template`` as the page ``name`` of the site being made (``folder.write_site``)."""
    site[name] = env.get_template(template).render(**context)
