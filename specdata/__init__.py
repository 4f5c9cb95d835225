"""The only code that knows where the spec's data lives, and the vocabulary every layer shares.

Finds ``spec/`` (and the suite's ``features/``) as package resources in an installed wheel or
beside the package in a checkout; loads YAML with file:line errors; names the card grammar, the
variant list, option text and the rule-ID pattern once.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
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


AUCTION_PRECEDENCE = (
    "AUCTION-END",
    "AUCTION-PASS-FINAL",
    "AUCTION-TURN",
    "AUCTION-DEALER-FORCED",
    "AUCTION-DEALER-OPENS",
    "AUCTION-OPENING-MIN",
    "AUCTION-HIGHER",
    "AUCTION-STEP",
)
"""The rule a refused call names when it breaks several, first first (spec/rules/auction.md,
"Which rule a refused call names"); the two forced rules never apply to the same call."""


class DataFileError(ValueError):
    """A data file is not valid YAML or fails its schema; the message names the file and line."""


MAX_DATA_FILE_BYTES = 8 * 1024 * 1024
"""The largest YAML file read (the suite's largest table is about 60 KB)."""
MAX_DATA_DEPTH = 64
"""The deepest nesting of lists and mappings in a YAML file (the suite's tables nest 6 deep).
libyaml's composer recurses in C: about 100,000 nested lists crash the process."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: messages never echo a whole 10 MB input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@cache
def rule_ids() -> frozenset[str]:
    """Every rule ID the spec defines: the ``## RULE-ID: title`` headings of spec/rules/*.md."""
    heading = re.compile(rf"^## ({RULE_ID.pattern}):", re.MULTILINE)
    return frozenset(
        m.group(1)
        for path in sorted(RULES_DIR.glob("*.md"))
        for m in heading.finditer(path.read_text(encoding="utf-8"))
    )


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
    return shown(value, limit)


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
    return list(_variant_ids_in(VARIANTS_DIR))


@cache
def _variant_ids_in(directory: Path) -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in directory.glob("*.yaml")))


def option_text(value: object) -> str:
    """An option value as the variants spell it (``True`` -> ``on``, ``15`` -> ``15``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


VARIANT_SCHEMA = "variant.schema.json"


def variant_path(variant: object) -> Path | None:
    """``spec/variants/<variant>.yaml``, or None when no variant has that id."""
    return VARIANTS_DIR / f"{variant}.yaml" if variant in variant_ids() else None


def load_variant(variant: str) -> dict[str, Any]:
    """A variant's data, checked (``load_variant_file``); KeyError if no variant has that id."""
    path = variant_path(variant)
    if path is None:
        raise KeyError(variant)
    return load_variant_file(path)


def option_choices(variant: str) -> dict[str, list[str]]:
    """The named options of a variant and the values each may take (default first)."""
    options = load_variant(variant)["options"]
    return {
        name: [opt["default"], *(c for c in opt["choices"] if c != opt["default"])]
        for name, opt in options.items()
    }


def check_variants() -> None:
    """Check every variant file (``load_variant_file``); DataFileError names the first fault."""
    for variant in variant_ids():
        load_variant(variant)


@cache
def load_variant_file(path: Path) -> dict[str, Any]:
    """A variant file's data, checked beyond its schema; DataFileError names file and line.

    The id matches the file name; each option's default is one of its choices; each choice's
    patch names paths that exist in ``rules`` (``meld.table.run``) and, applied, leaves rules
    that still pass the schema; the deck deals four equal hands, with every choice applied.
    """
    loaded, node = load_yaml_node(path, VARIANT_SCHEMA)
    data: dict[str, Any] = loaded

    def fault(trail: list[str | int], message: str) -> DataFileError:
        line = _line_of(node, trail) if node is not None else None
        return DataFileError(f"{path}:{line}: {message}")

    if data["id"] != path.stem:
        raise fault(["id"], f"id {shown(data['id'])} does not match the file name {path.name}")
    _check_deal(data["rules"], [], fault)
    for name, opt in data["options"].items():
        if opt["default"] not in opt["choices"]:
            raise fault(
                ["options", name, "default"],
                f"option {name}: default {shown(opt['default'])} is not one of its choices",
            )
        for choice, patch in opt["choices"].items():
            rules = copy.deepcopy(data["rules"])
            for dotted, value in patch.items():
                trail: list[str | int] = ["options", name, "choices", choice, dotted]
                where = f"option {name}, choice {shown(choice)}"
                keys = dotted.split(".")
                target = rules
                for i, key in enumerate(keys):
                    if not isinstance(target, dict) or key not in target:
                        place = ".".join(["rules", *keys[:i]])
                        known = ", ".join(target) if isinstance(target, dict) else "no fields"
                        raise fault(
                            trail,
                            f"{where}: unknown rule path {shown(dotted)}: {place} has {known}",
                        )
                    if i < len(keys) - 1:
                        target = target[key]
                target[keys[-1]] = copy.deepcopy(value)
            error = jsonschema.exceptions.best_match(
                _validator(VARIANT_SCHEMA).iter_errors({**data, "rules": rules})
            )
            if error is not None:
                at = "/".join(map(str, error.path))
                raise fault(
                    ["options", name, "choices", choice],
                    f"{where}: the patched rules fail {VARIANT_SCHEMA} at {at}: "
                    f"{error.message[:160]}",
                )
            _check_deal(rules, ["options", name, "choices", choice], fault)
    return data


def _check_deal(rules: dict[str, Any], trail: list[str | int], fault: Any) -> None:
    """DEAL-HANDS: the whole deck deals into four hands of ``hand_size``."""
    deck = 4 * len(rules["deck"]["ranks"]) * rules["deck"]["copies"]
    if deck != 4 * rules["hand_size"]:
        raise fault(
            trail or ["rules", "hand_size"],
            f"a deck of {deck} cards cannot give four hands of {rules['hand_size']}",
        )


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
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _StrictLoader(_SAFE_LOADER):  # type: ignore[misc]
    """Safe loading that refuses a key given twice in one mapping (YAML keeps the last, silently:
    a duplicated option name once removed a choice without a word)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        first: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                earlier = first.setdefault(key, key_node)
            except TypeError:  # an unhashable key: the base class words that fault
                continue
            if earlier is not key_node:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"duplicate key {shown(key)} (first at line {earlier.start_mark.line + 1})",
                    key_node.start_mark,
                )
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping


def _check_shape(text: str, where: Path) -> None:
    """Refuse what would make loading crash or explode: aliases (an alias bomb builds billions
    of items from a kilobyte; the spec's files never need one) and nesting deeper than
    MAX_DATA_DEPTH. One pass over libyaml's events, before anything is built."""
    parser = _SAFE_LOADER(text)
    depth = 0
    try:
        while (event := parser.get_event()) is not None:
            line = event.start_mark.line + 1
            if isinstance(event, yaml.AliasEvent):
                raise DataFileError(
                    f"{where}:{line}: alias *{shown(event.anchor, 30)[1:-1]}: YAML aliases are "
                    "not allowed in the spec's data files (write the value out)"
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DATA_DEPTH:
                    raise DataFileError(
                        f"{where}:{line}: nested deeper than {MAX_DATA_DEPTH} lists or mappings"
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        parser.dispose()


def _yaml_fault(path: Path, error: yaml.YAMLError) -> DataFileError:
    mark = getattr(error, "problem_mark", None)
    where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
    problem = getattr(error, "problem", None) or str(error)
    if isinstance(error, yaml.constructor.ConstructorError) and "duplicate key" in problem:
        return DataFileError(f"{where}: {problem}")
    return DataFileError(f"{where}: not valid YAML: {problem}")


def _read_text(path: Path) -> str:
    """The file's text; DataFileError naming the file (and the line of a byte not UTF-8)."""
    try:
        size = path.stat().st_size
        if size > MAX_DATA_FILE_BYTES:
            raise DataFileError(
                f"{path}: {size} bytes: a data file may hold at most {MAX_DATA_FILE_BYTES} bytes"
            )
        raw = path.read_bytes()
    except OSError as e:
        raise DataFileError(f"{path}: cannot read: {e.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise DataFileError(
            f"{path}:{line}: not UTF-8: byte {raw[e.start : e.start + 1]!r} at offset {e.start}"
        ) from None


def load_yaml_node(path: Path, schema_name: str | None = None) -> tuple[Any, yaml.Node | None]:
    """Read a YAML file with safe loading: its data and its node tree (for line numbers).

    The file is parsed once; the data is constructed from the node tree. If a schema is named
    the data is checked against it. Errors name the file and the line of the fault, never a
    traceback from inside the parser: text that is not UTF-8, a file over MAX_DATA_FILE_BYTES,
    YAML syntax, a duplicate key, an alias, nesting deeper than MAX_DATA_DEPTH, a schema fault.
    """
    text = _read_text(path)
    try:
        _check_shape(text, path)
        loader = _StrictLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        raise _yaml_fault(path, e) from None
    if schema_name is not None:
        check(data, schema_name, path, node)
    return data, node


def load_yaml(path: Path, schema_name: str | None = None) -> Any:
    """Read a YAML file with safe loading, checked against a schema if one is named."""
    return load_yaml_node(path, schema_name)[0]


@cache
def _validator(schema_name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(load_schema(schema_name))


@cache
def _compiled(schema_name: str) -> jsonschema_rs.Draft202012Validator:
    return jsonschema_rs.Draft202012Validator(load_schema(schema_name))


def check(data: Any, schema_name: str, path: Path | str, node: yaml.Node | None = None) -> None:
    """Validate ``data`` against a named schema; raise DataFileError with file:line on failure."""
    if _compiled(schema_name).is_valid(data):  # jsonschema-rs decides ~50x faster; words nothing
        return
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
