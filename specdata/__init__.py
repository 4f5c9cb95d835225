"""The only code that knows where the spec's data lives, and the vocabulary every layer shares.

Finds ``spec/`` (and the suite's ``features/``) as package resources in an installed wheel or
beside the package in a checkout; loads YAML with file:line errors; names the card grammar, the
variant list, option text and the rule-ID pattern once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

_HERE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    """``name`` shipped inside this package (a wheel) or beside it (a checkout)."""
    inside = _HERE / name
    return inside if inside.is_dir() else _HERE.parent / name


SPEC_DIR = _data_dir("spec")
"""The spec's data and prose: rules/, variants/, schema/, protocol.md."""
SCHEMA_DIR = SPEC_DIR / "schema"
VARIANTS_DIR = SPEC_DIR / "variants"
RULES_DIR = SPEC_DIR / "rules"
FEATURES_DIR = _data_dir("features")
"""The conformance suite's content: *.feature, tables/, steps/."""

RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")
"""A rule ID: ``AREA-NAME``, upper case with dashes (``PLAY-CRAWL``); ERRATA-* are decisions."""


class DataFileError(ValueError):
    """A data file is not valid YAML or fails its schema; the message names the file and line."""


# --- cards: the one grammar -------------------------------------------------------------------

RANKS = "ATKQJ9"
"""Rank letters, highest first (DECK-RANK): Ace, Ten, King, Queen, Jack, Nine."""
SUITS = "shdc"
"""Suit letters: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
RANK_SYMBOLS = {"A": "A", "T": "10", "K": "K", "Q": "Q", "J": "J", "9": "9"}
CARD_TOKEN = re.compile(r"(10|[ATKQJ9])([shdc♠♥♦♣])")
"""One card as people write it: rank ``A T K Q J 9`` (or ``10``), suit ``s h d c`` or a symbol.
Case matters: ``ah`` and ``jc`` are not cards. On the wire only the two-letter code is allowed."""
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
CARD_HELP = "a card is a rank from A T K Q J 9 then a suit from s h d c (e.g. 'Ah', 'Ts', '9c')"


def _short(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def card_code(token: str) -> str:
    """The canonical code of one card token (``10h`` -> ``Th``, ``A♥`` -> ``Ah``).

    Raises ValueError naming the token when it is not a card.
    """
    m = CARD_TOKEN.fullmatch(token) if isinstance(token, str) else None
    if m is None:
        raise ValueError(f"bad card code {_short(token)}: {CARD_HELP}")
    rank = "T" if m.group(1) == "10" else m.group(1)
    return rank + _SYMBOL_TO_SUIT.get(m.group(2), m.group(2))


def card_codes(value: str | Iterable[object]) -> list[str]:
    """Canonical codes from one string (codes separated by spaces or commas, or run together as
    the sources write them: ``AhThKh``) or from a list of such strings.

    Raises ValueError naming the first bad token.
    """
    if isinstance(value, str):
        chunks = [c for c in re.split(r"[\s,]+", value.strip()) if c]
    elif isinstance(value, Iterable) and not isinstance(value, bytes | dict):
        chunks = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError(f"bad card code {_short(item)}: {CARD_HELP}")
            chunks.extend(c for c in re.split(r"[\s,]+", item.strip()) if c)
    else:
        raise ValueError(f"expected a list of cards, got {_short(value)}")
    cards: list[str] = []
    for chunk in chunks:
        pos = 0
        while pos < len(chunk):
            m = CARD_TOKEN.match(chunk, pos)
            if m is None:
                raise ValueError(
                    f"bad card code {_short(chunk[pos : pos + 2])} in {_short(chunk)}: {CARD_HELP}"
                )
            cards.append(card_code(m.group(0)))
            pos = m.end()
    return cards


def is_card(value: object) -> bool:
    """Whether ``value`` is one canonical card code (``Ah``, ``Ts``, ``9c``)."""
    return isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS


# --- variants and options ---------------------------------------------------------------------


def variant_ids() -> list[str]:
    """The ids of every variant in spec/variants, sorted."""
    return sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def option_text(value: object) -> str:
    """An option value as the variants spell it (``True`` -> ``on``, ``15`` -> ``15``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# --- YAML and JSON Schema ---------------------------------------------------------------------


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A JSON Schema from ``spec/schema/`` by file name (``variant.schema.json``)."""
    path = SCHEMA_DIR / name
    with path.open(encoding="utf-8") as f:
        schema: dict[str, Any] = json.load(f)
    return schema


def _line_of(node: yaml.Node, path: list[str | int]) -> int:
    """1-based line of the YAML node at a JSON path (the deepest node found on the way)."""
    for key in path:
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == str(key):
                    node = v
                    break
            else:
                break
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            break
    return int(node.start_mark.line) + 1


# libyaml's safe loader where it is installed (several times faster), else the pure-Python one.
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml_node(path: Path, schema_name: str | None = None) -> tuple[Any, yaml.Node | None]:
    """Read a YAML file with safe loading: its data and its node tree (for line numbers).

    The file is parsed once; the data is constructed from the node tree. If a schema is named
    the data is checked against it. Errors name the file and the line of the fault, never a
    traceback from inside the parser.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise DataFileError(f"{path}: cannot read: {e.strerror}") from None
    loader = _SAFE_LOADER(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        raise DataFileError(f"{where}: not valid YAML: {getattr(e, 'problem', e)}") from None
    finally:
        loader.dispose()
    if schema_name is not None:
        check(data, schema_name, path, node)
    return data, node


def load_yaml(path: Path, schema_name: str | None = None) -> Any:
    """Read a YAML file with safe loading, checked against a schema if one is named."""
    return load_yaml_node(path, schema_name)[0]


@cache
def _validator(schema_name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema(schema_name))


def check(data: Any, schema_name: str, path: Path | str, node: yaml.Node | None = None) -> None:
    """Validate ``data`` against a named schema; raise DataFileError with file:line on failure."""
    validator = _validator(schema_name)
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    lines = []
    for err in errors[:5]:
        loc = "/".join(map(str, err.path)) or "(top)"
        line = _line_of(node, list(err.path)) if node is not None else None
        where = f"{path}:{line}" if line is not None else str(path)
        lines.append(f"{where}: at {loc}: {err.message}")
    more = f"\n(and {len(errors) - 5} more)" if len(errors) > 5 else ""
    raise DataFileError(f"{path} fails {schema_name}:\n" + "\n".join(lines) + more)
