"""Scenario tables as cases: load features/tables/*.yaml into ``Case`` values and compare answers.

One ``Case`` per table row, its card lists normalised to lists of codes; ``compare`` applies the
comparison rules of CONTRIBUTING.md ("Scenario tables") and returns readable mismatches.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from specdata import DataFileError, load_yaml_node

ROOT = Path(__file__).resolve().parent.parent
TABLES_DIR = ROOT / "features" / "tables"
TABLE_SCHEMA = "table.schema.json"

CARD_LIST_FIELDS = ("hand", "trick", "cards", "deck")
"""Input fields that are one list of cards; ``hands`` is a list of such lists."""
NOT_CARDS = {("score_hand", "hand"), ("play_hand", "hand")}
"""(method, field) pairs where a card-list name means something else: ``hand`` is a hand number."""

RANKS = "ATKQJ9"
SUITS = "shdc"
_SYMBOL_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_TOKEN = re.compile(r"(10|[ATKQJ9])([shdc♠♥♦♣])")


class CaseError(ValueError):
    """A table cannot be turned into cases; the message names the file, the line and the fault."""


@dataclass(frozen=True)
class Case:
    """One row of a scenario table: a protocol call and the answer the rules require."""

    id: str
    file: str
    """Path of the table, relative to the project root when inside it."""
    line: int
    """1-based line of the case in its YAML file."""
    area: str
    method: str
    variant: str
    options: dict[str, str]
    """Table options with the case's merged over them; every value a string."""
    params: dict[str, Any]
    """The method's params except variant and options; card lists as lists of codes."""
    expect: dict[str, Any]
    rules: tuple[str, ...]
    negative: bool = False
    why: str = ""
    description: str = field(default="", compare=False)
    """The table's description, if any."""

    @property
    def where(self) -> str:
        """``file:line`` of the case."""
        return f"{self.file}:{self.line}"

    @property
    def request(self) -> dict[str, Any]:
        """The full params of the protocol call: variant, options, then the input."""
        return {"variant": self.variant, "options": dict(self.options), **self.params}


# --- cards ------------------------------------------------------------------------------------


def parse_card_list(value: str | Iterable[str], where: str = "") -> list[str]:
    """Card codes from a string (space/comma separated or run together) or a list of codes.

    ``10h`` and suit symbols (``A♥``) are accepted and normalised (``Th``, ``Ah``). A bad token
    raises CaseError naming ``where`` and the token.
    """
    prefix = f"{where}: " if where else ""
    chunks: list[str]
    if isinstance(value, str):
        chunks = [c for c in re.split(r"[\s,]+", value.strip()) if c]
    elif isinstance(value, Iterable):
        chunks = []
        for item in value:
            if not isinstance(item, str):
                raise CaseError(f"{prefix}bad card {item!r}: a card is a code such as 'Ah' or 'Ts'")
            chunks.extend(c for c in re.split(r"[\s,]+", item.strip()) if c)
    else:
        raise CaseError(f"{prefix}expected a list of cards, got {value!r}")
    cards: list[str] = []
    for chunk in chunks:
        pos = 0
        while pos < len(chunk):
            m = _TOKEN.match(chunk, pos)
            if m is None:
                bad = chunk[pos : pos + 2]
                raise CaseError(
                    f"{prefix}bad card {bad!r} in {chunk!r}: a card is a rank from A T K Q J 9 "
                    "then a suit from s h d c (e.g. 'Ah', 'Ts', '9c')"
                )
            rank = "T" if m.group(1) == "10" else m.group(1)
            cards.append(rank + _SYMBOL_SUITS.get(m.group(2), m.group(2)))
            pos = m.end()
    return cards


def is_card(value: object) -> bool:
    """Whether ``value`` is one canonical card code (``Ah``, ``Ts``, ``9c``)."""
    return isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS


# --- loading ----------------------------------------------------------------------------------


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if k.value == key:
                child: yaml.Node = v
                return child
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        item: yaml.Node = node.value[key]
        return item
    return None


def _line(node: yaml.Node | None, default: int) -> int:
    return int(node.start_mark.line) + 1 if node is not None else default


def _option_value(value: object) -> str:
    # YAML 1.1 reads a bare off/on as a boolean; option values are strings ("off", "on").
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _normalise_input(
    method: str, data: Mapping[str, Any], node: yaml.Node | None, where: str, line: int
) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for key, value in data.items():
        at = f"{where}:{_line(_child(node, key), line)}"
        if (method, key) in NOT_CARDS:
            params[key] = value
        elif key in CARD_LIST_FIELDS:
            params[key] = parse_card_list(value, f"{at}: input {key}")
        elif key == "hands":
            if not isinstance(value, list):
                raise CaseError(f"{at}: input hands: expected a list of 4 hands, got {value!r}")
            hands_node = _child(node, key)
            params[key] = [
                parse_card_list(
                    hand, f"{where}:{_line(_child(hands_node, i), line)}: input hands[{i}]"
                )
                for i, hand in enumerate(value)
            ]
        else:
            params[key] = value
    return params


def load_table(path: Path | str) -> list[Case]:
    """The cases of one table file, schema-checked; errors name the file and line."""
    path = Path(path)
    try:
        data, node = load_yaml_node(path, TABLE_SCHEMA)
    except DataFileError as e:
        raise CaseError(str(e)) from None
    rel = _relative(path)
    cases_node = _child(node, "cases")
    defaults = {k: _option_value(v) for k, v in (data.get("options") or {}).items()}
    out: list[Case] = []
    for i, raw in enumerate(data["cases"]):
        case_node = _child(cases_node, i)
        line = _line(case_node, 1)
        options = dict(defaults)
        options.update({k: _option_value(v) for k, v in (raw.get("options") or {}).items()})
        out.append(
            Case(
                id=raw["id"],
                file=rel,
                line=line,
                area=data["area"],
                method=data["method"],
                variant=raw.get("variant", data["variant"]),
                options=options,
                params=_normalise_input(
                    data["method"], raw["input"], _child(case_node, "input"), rel, line
                ),
                expect=dict(raw["expect"]),
                rules=tuple(raw["rules"]),
                negative=bool(raw.get("negative", False)),
                why=str(raw.get("why", "")).strip(),
                description=str(data.get("description", "")).strip(),
            )
        )
    return out


def table_paths(directory: Path = TABLES_DIR) -> list[Path]:
    """Every table file of the suite, sorted by name."""
    return sorted([*directory.glob("*.yaml"), *directory.glob("*.yml")])


def check_unique(cases: Sequence[Case]) -> None:
    """Raise CaseError naming both places when two cases share an ID."""
    seen: dict[str, Case] = {}
    clashes: list[str] = []
    for case in cases:
        first = seen.setdefault(case.id, case)
        if first is not case:
            clashes.append(f"duplicate case id {case.id!r}: {first.where} and {case.where}")
    if clashes:
        raise CaseError("\n".join(clashes))


def load_cases(paths: Iterable[Path | str] | None = None) -> list[Case]:
    """Every case of the given tables (default: every features/tables/*.yaml), IDs unique."""
    chosen = table_paths() if paths is None else [Path(p) for p in paths]
    cases = [case for path in chosen for case in load_table(path)]
    check_unique(cases)
    return cases


# --- comparison -------------------------------------------------------------------------------


def _show(value: object) -> str:
    if isinstance(value, list) and value and all(is_card(v) for v in value):
        return " ".join(value)
    return repr(value)


def _multiset_diff(label: str, expected: list[str], actual: list[str]) -> list[str]:
    want, got = Counter(expected), Counter(actual)
    if want == got:
        return []
    missing = sorted((want - got).elements())
    extra = sorted((got - want).elements())
    parts = []
    if missing:
        parts.append(f"missing {' '.join(missing)}")
    if extra:
        parts.append(f"unexpected {' '.join(extra)}")
    return [f"{label}: {'; '.join(parts)} (expected {_show(expected)}, got {_show(actual)})"]


def _as_cards(value: object) -> list[str] | None:
    """``value`` as a card list if it is one (a card string or a list of codes), else None."""
    if isinstance(value, str):
        try:
            cards = parse_card_list(value)
        except CaseError:
            return None
        return cards if cards else None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        try:
            cards = parse_card_list(value)
        except CaseError:
            return None
        return cards if len(cards) == len(value) else None
    return None


def _exact(label: str, expected: object, actual: object) -> list[str]:
    """Exact comparison, except that lists of cards compare as multisets wherever they appear."""
    if isinstance(actual, list) and (actual == [] or all(is_card(a) for a in actual)):
        exp_cards = [] if expected == [] or expected == "" else _as_cards(expected)
        if exp_cards is not None:
            return _multiset_diff(label, exp_cards, list(actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        out = []
        for key in expected:
            if key not in actual:
                out.append(f"{label}.{key}: expected {expected[key]!r}, missing from the answer")
            else:
                out.extend(_exact(f"{label}.{key}", expected[key], actual[key]))
        out.extend(
            f"{label}.{key}: not expected, got {actual[key]!r}"
            for key in actual
            if key not in expected
        )
        return out
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [
                f"{label}: expected {len(expected)} items {expected!r}, "
                f"got {len(actual)} {actual!r}"
            ]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(_exact(f"{label}[{i}]", e, a))
        return out
    if type(expected) is not type(actual) and not (
        isinstance(expected, int | float)
        and isinstance(actual, int | float)
        and not isinstance(expected, bool)
        and not isinstance(actual, bool)
    ):
        return [f"{label}: expected {expected!r}, got {actual!r}"]
    return [] if expected == actual else [f"{label}: expected {expected!r}, got {actual!r}"]


def _given_keys(label: str, expected: object, actual: object) -> list[str]:
    """``violation``/``first_illegal``: null must be null; otherwise only the keys given count."""
    if expected is None or actual is None or not isinstance(expected, dict):
        return [] if expected == actual else [f"{label}: expected {expected!r}, got {actual!r}"]
    if not isinstance(actual, dict):
        return [f"{label}: expected {expected!r}, got {actual!r}"]
    out = []
    for key, value in expected.items():
        if key not in actual:
            out.append(f"{label}.{key}: expected {value!r}, missing from the answer")
        else:
            out.extend(_exact(f"{label}.{key}", value, actual[key]))
    return out


MELD_KEYS = ("id", "count", "points", "suit")


def describe_meld(entry: Mapping[str, Any]) -> str:
    """A meld entry in words: ``run x1 = 16 (h)``."""
    text = f"{entry.get('id', '?')} x{entry.get('count', '?')} = {entry.get('points', '?')}"
    return f"{text} ({entry['suit']})" if entry.get("suit") is not None else text


def _melds(label: str, expected: object, actual: object) -> list[str]:
    """Melds as a multiset of (id, count, points[, suit]); complete: nothing unexpected."""
    if not isinstance(expected, list) or not isinstance(actual, list):
        return [f"{label}: expected a list of melds {expected!r}, got {actual!r}"]
    unmatched = [a for a in actual if isinstance(a, dict)]
    missing: list[Mapping[str, Any]] = []
    # Entries that give a suit are the most specific: match them first so that an entry without
    # a suit never takes the one actual meld a suited entry needs.
    ordered = sorted(
        (e for e in expected if isinstance(e, dict)), key=lambda e: e.get("suit") is None
    )
    for want in ordered:
        keys = [k for k in MELD_KEYS if k in want]
        for got in unmatched:
            if all(got.get(k) == want[k] for k in keys):
                unmatched.remove(got)
                break
        else:
            missing.append(want)
    if not missing and not unmatched:
        return []
    parts = []
    if missing:
        parts.append("missing " + ", ".join(describe_meld(m) for m in missing))
    if unmatched:
        parts.append("unexpected " + ", ".join(describe_meld(m) for m in unmatched))
    return [f"{label}: {'; '.join(parts)}"]


def compare(method: str, expect: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """Mismatches between an expected answer and an engine's answer (empty when it conforms).

    Every key of ``expect`` must match. Lists of cards compare as multisets, ``legal_plays``'
    ``cards`` as sets; ``melds`` as the multiset of (id, count, points[, suit]) and complete;
    ``violation`` and ``first_illegal`` compare the keys given; anything else exactly.
    """
    out: list[str] = []
    for key, want in expect.items():
        if not isinstance(actual, Mapping) or key not in actual:
            out.append(f"{key}: expected {want!r}, missing from the answer")
            continue
        got = actual[key]
        if key == "melds":
            out.extend(_melds(key, want, got))
        elif key in ("violation", "first_illegal"):
            out.extend(_given_keys(key, want, got))
        elif method == "legal_plays" and key == "cards":
            want_cards = _as_cards(want) if want not in ([], "") else []
            if want_cards is None or not isinstance(got, list):
                out.append(f"{key}: expected {want!r}, got {got!r}")
            elif set(want_cards) != set(got):
                out.extend(
                    _multiset_diff(key, sorted(set(want_cards)), sorted({str(g) for g in got}))
                )
        else:
            out.extend(_exact(key, want, got))
    return out
