"""What the sites' pages are made of: cards drawn, a request's or answer's values, the spec's
Markdown (through markdown-it-py), and the templates that put them together.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from pinochle_judge import notation
from specdata import SUIT_NAMES, SUIT_SYMBOLS, card_codes
from specdata.files import write_atomic

from .reports import STATUSES, shown

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


def value_html(method: str, kind: str, key: str, data: Any) -> Markup:
    """A field of a request (``params``) or answer (``result``), its cards drawn."""
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
    return Markup(f"<code>{html.escape(text)}</code>")


QUOTED = re.compile(r'"([^"]*)"')
"""A quoted argument of a step (``seat 1 holds "Ah Ks Qd Jc"``)."""


def _cards_in(text: str) -> list[str]:
    """The cards ``text`` is made of (``Ah Ks``, ``AdAdAdAd``), or [] when it is anything else."""
    try:
        return card_codes(text) if text.strip() else []
    except ValueError:
        return []


def drawn_html(text: str) -> Markup:
    """Text of a step or a cell, its cards drawn: a quoted argument or a whole text made of
    cards only; everything else escaped as written."""
    whole = _cards_in(text)
    if whole:
        return Markup(cards_html(whole))
    out, at = [], 0
    for m in QUOTED.finditer(text):
        cards = _cards_in(m.group(1))
        out += [
            html.escape(text[at : m.start()]),
            cards_html(cards) if cards else html.escape(m[0]),
        ]
        at = m.end()
    return Markup("".join([*out, html.escape(text[at:])]))


def card_suit(letter: str) -> str:
    symbol = SUIT_SYMBOLS.get(letter, letter)
    return f'<span class="suit {SUIT_COLOUR.get(letter, "black")}">{html.escape(symbol)}</span>'


# --- Markdown -----------------------------------------------------------------------------------


CARD_WORD = re.compile(r"[ATKQJ9][shdc]")


@cache
def _markdown() -> MarkdownIt:
    # CommonMark and tables; raw HTML in the text stays text.
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_html(text: str) -> Markup:
    """The spec's Markdown as HTML: headings one level down (the page has its own title), each
    with an id; cards quoted as code (``Ah Ks``) drawn; a link's words kept, its target (a file of
    the repository, not of the site) left out."""
    parser = _markdown()
    tokens = parser.parse(text)
    for at, token in enumerate(tokens):
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1:]) + 1, 6)}"
            if token.type == "heading_open":
                token.attrSet("id", heading_id(tokens[at + 1].content))
        elif token.type == "table_open":
            token.attrSet("class", "statement")
        elif token.type == "inline" and token.children:
            token.children = [
                _inline(child) for child in token.children if "link_" not in child.type
            ]
    return Markup(parser.renderer.render(tokens, parser.options, {}))


def _inline(token: Token) -> Token:
    """Cards quoted as code are drawn (an HTML token the renderer writes as it is)."""
    words = token.content.split()
    if token.type == "code_inline" and words and all(CARD_WORD.fullmatch(w) for w in words):
        return Token("html_inline", "", 0, content=cards_html(words))
    return token


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


def render(env: jinja2.Environment, template: str, path: Path, **context: Any) -> None:
    write_atomic(path, env.get_template(template).render(**context))
