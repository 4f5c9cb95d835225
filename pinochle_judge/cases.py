"""The suite as data: ``tables/*.yaml`` loaded into checked ``Case`` values.

A table is checked when it loads (the table schema, card codes, each input against its method's
params schema), so a typo is a data error naming file and line, never charged to an engine.
Collecting the cases as pytest items is the plugin's (``pytest_pinochle.tables``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

import specdata
from pinochle_adapters import protocol
from specdata import (
    FEATURES_DIR,
    MAX_DATA_FILE_BYTES,
    SPEC_DIR,
    Checker,
    DataFileError,
    load_schema,
    load_yaml_node,
    option_choices,
    option_text,
    rule_ids,
    shorten,
    shown,
)
from specdata.files import read_at_most, write_atomic

from . import notation

TABLES_DIR = FEATURES_DIR / "tables"
TABLE_SCHEMA = "table.schema.json"


class CaseError(ValueError):
    """A table cannot be turned into cases; the message names the file, the line and the fault."""


@dataclass(frozen=True)
class Case:
    """One row of a scenario table: a protocol call and the answer the rules require."""

    id: str
    file: str
    """Path of the table (``features/tables/meld-double-deck.yaml`` for the suite's own)."""
    line: int
    """1-based line of the case in its YAML file."""
    area: str
    method: str
    variant: str
    options: dict[str, str]
    """Table options with the case's merged over them; every value a string."""
    params: dict[str, object]
    """The method's params except variant and options; card lists as lists of codes."""
    expect: dict[str, object]
    """The answer's fields the rules require; card lists as lists of codes."""
    rule: str
    """The one rule the case tests: its failure is charged to this rule."""
    uses: tuple[str, ...] = ()
    """Other rules the expected answer relies on (not charged for a failure)."""
    negative: bool = False
    why: str = ""
    description: str = field(default="", compare=False)
    """The table's description, if any."""

    @property
    def rules(self) -> tuple[str, ...]:
        """The tested rule, then the rules it uses."""
        return (self.rule, *self.uses)

    @property
    def where(self) -> str:
        """``file:line`` of the case."""
        return f"{self.file}:{self.line}"

    @property
    def request(self) -> dict[str, object]:
        """The full params of the protocol call: variant, options, then the input."""
        return {"variant": self.variant, "options": dict(self.options), **self.params}


# --- loading ----------------------------------------------------------------------------------


def shown_path(path: Path) -> str:
    """A table's path as reports show it: ``features/tables/...`` for the suite's own tables."""
    return _shown(path.resolve(), path)


@cache
def _repository() -> Path:
    return FEATURES_DIR.resolve().parent


def _shown(resolved: Path, path: Path) -> str:
    """``shown_path`` of ``path``, whose resolved form is ``resolved``."""
    for base in (_repository(), Path.cwd()):
        if resolved.is_relative_to(base):
            return str(resolved.relative_to(base))
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


def _line_at(node: yaml.Node | None, trail: Sequence[str | int], default: int) -> int:
    """Line of the deepest node found along ``trail`` (1-based)."""
    line = default
    for key in trail:
        node = _child(node, key)
        if node is None:
            break
        line = int(node.start_mark.line) + 1
    return line


_PATH_STEP = re.compile(r"\.([^.\[:]+)|\[(\d+)\]")


def _schema_trail(message: str) -> list[str | int]:
    """The key path of a protocol schema message (``params.hands[1]: ...`` -> hands, 1)."""
    head = message.split(":", 1)[0].removeprefix("params")
    return [int(i) if i else k for k, i in _PATH_STEP.findall(head)]


def _case(
    data: Mapping[str, Any], raw: Mapping[str, Any], node: yaml.Node | None, rel: str
) -> Case:
    line = int(node.start_mark.line) + 1 if node is not None else 1
    method = data["method"]
    takes = input_fields(method)
    for key in raw["input"]:
        if key not in takes:
            at = _line_at(node, ["input", key], line)
            raise CaseError(
                f"{rel}:{at}: input of {raw['id']}: unknown field {key!r}; "
                f"{method} takes {', '.join(takes)}"
            )
    options = {k: option_text(v) for k, v in (data.get("options") or {}).items()}
    options.update({k: option_text(v) for k, v in (raw.get("options") or {}).items()})
    try:
        params = notation.with_card_codes(method, "params", raw["input"])
    except notation.CardFieldError as e:
        at = _line_at(node, ["input", *e.trail], line)
        raise CaseError(f"{rel}:{at}: input {_dotted(e.trail)}: {e}") from None
    try:
        expect = notation.with_card_codes(method, "result", raw["expect"])
    except notation.CardFieldError as e:
        at = _line_at(node, ["expect", *e.trail], line)
        raise CaseError(f"{rel}:{at}: expect {_dotted(e.trail)}: {e}") from None
    # ``rule`` + ``uses``; a table written with ``rules: [...]`` lists the tested rule first.
    tested, *others = raw["rules"] if "rules" in raw else [raw["rule"], *raw.get("uses", [])]
    uses = tuple(r for r in dict.fromkeys(others) if r != tested)
    case = Case(
        id=raw["id"],
        file=rel,
        line=line,
        area=data["area"],
        method=method,
        variant=raw.get("variant", data["variant"]),
        options=options,
        params=params,
        expect=expect,
        rule=tested,
        uses=uses,
        negative=bool(raw.get("negative", False)),
        why=str(raw.get("why", "")).strip(),
        description=str(data.get("description", "")).strip(),
    )
    _check_rules(raw, node, rel, line)
    _check_options(case.variant, raw.get("options") or {}, ["options"], node, rel, line)
    if case.variant != data["variant"]:  # the table's options must fit this case's variant too
        _check_options(case.variant, data.get("options") or {}, [], node, rel, line)
    _check_expect(case, node, rel, line)
    try:
        problem = protocol.check_params(method, case.request)
    except protocol.ProtocolError as e:
        raise CaseError(f"{rel}:{line}: {case.id}: {e}") from None
    if problem is not None:
        at = _line_at(node, ["input", *_schema_trail(problem)], line)
        raise CaseError(f"{rel}:{at}: input of {case.id} is not valid {method} params: {problem}")
    return case


def _check_rules(raw: Mapping[str, Any], node: yaml.Node | None, rel: str, line: int) -> None:
    """Every rule ID a case names is one the spec defines (a ``## ID:`` heading of spec/rules)."""
    known = rule_ids()
    for key in ("rule", "uses", "rules"):
        named = raw.get(key)
        for i, rule in enumerate([named] if isinstance(named, str) else named or []):
            if rule not in known:
                at = _line_at(node, [key] if key == "rule" else [key, i], line)
                raise CaseError(
                    f"{rel}:{at}: {raw['id']}: unknown rule ID {shown(rule)}: rule IDs are the "
                    "'## RULE-ID: title' headings of spec/rules/*.md"
                )


def _check_options(
    variant: str,
    options: Mapping[str, Any],
    trail: list[str | int],
    node: yaml.Node | None,
    rel: str,
    line: int,
) -> None:
    """Each option a table or case sets is one its variant declares, with a declared value."""
    try:
        declared = option_choices(variant)
    except DataFileError as e:  # a broken variant file: its own file and line
        raise CaseError(str(e)) from None
    for name, value in options.items():
        at = _line_at(node, [*trail, name], line)
        if name not in declared:
            raise CaseError(
                f"{rel}:{at}: {variant} has no option {shown(name)}; "
                f"its options are: {', '.join(declared) or 'none'}"
            )
        if option_text(value) not in declared[name]:
            raise CaseError(
                f"{rel}:{at}: option {name}={shown(option_text(value))} is not valid for "
                f"{variant}; choose one of: {', '.join(declared[name])}"
            )


def _check_expect(case: Case, node: yaml.Node | None, rel: str, line: int) -> None:
    """``expect`` names fields of the method's answer, each of the answer's type (every field
    optional): a typo or a wrong type is a data error, not a failure charged to the engine."""
    fields = load_schema(f"protocol/{case.method}.result.json").get("properties", {})
    for key in case.expect:
        if key not in fields:
            at = _line_at(node, ["expect", key], line)
            raise CaseError(
                f"{rel}:{at}: expect of {case.id}: unknown field {shown(key)}; "
                f"{case.method} answers {', '.join(fields)}"
            )
    error = _expect_checker(case.method).error(case.expect)
    if error is not None:
        trail = list(error.absolute_path)
        at = _line_at(node, ["expect", *trail], line)
        message = shorten(error.message, 200, count=False)
        raise CaseError(f"{rel}:{at}: expect of {case.id}: {_dotted(trail)}: {message}")


def _optional(node: Any) -> Any:
    """A copy of an inlined protocol schema with every field optional and ``oneOf`` read as
    ``anyOf`` (without ``required`` two branches can both match a partial answer)."""
    if isinstance(node, list):
        return [_optional(item) for item in node]
    if not isinstance(node, dict):
        return node
    skipped = ("$defs", "$id", "$schema", "required")
    return {
        ("anyOf" if k == "oneOf" else k): _optional(v) for k, v in node.items() if k not in skipped
    }


@cache
def _expect_checker(method: str) -> Checker:
    """The method's result schema with every field optional, in the one schema checker."""
    return Checker(_optional(protocol.inlined_schema(f"{method}.result.json")))


@cache
def input_fields(method: str) -> tuple[str, ...]:
    """The fields a case's input may give: the method's params except variant and options."""
    names = load_schema(f"protocol/{method}.params.json").get("properties", {})
    return tuple(n for n in names if n not in ("variant", "options"))


def _dotted(trail: Sequence[str | int]) -> str:
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in trail).lstrip(".")


_LOADED: dict[tuple[str, str, bytes], list[Case]] = {}
"""Tables already read and checked in this process, by path, shown path and content digest: a
process that runs the suite more than once (``pytest.main`` again, a batch of engines) parses
an unchanged table once. Cases are frozen; a table whose bytes changed is read again."""


CHECKED_BY = (
    *(Path(__file__).parent.glob("*.py")),
    *(Path(specdata.__file__).parent.glob("*.py")),
    Path(protocol.__file__),
)
"""The code that reads and checks a table: a change to it checks every table again."""


@cache
def _checks_digest() -> str:
    """A digest of everything a table's check reads besides the table: the spec (rules, variants,
    schemas) and the code that checks (``CHECKED_BY``). Equal digests, equal verdicts."""
    spec = sorted(p for p in SPEC_DIR.rglob("*") if p.suffix in (".md", ".yaml", ".json"))
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(CHECKED_BY) + spec:
        digest.update(str(path.relative_to(path.parents[1])).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _sum(body: bytes) -> str:
    return hashlib.blake2b(body, digest_size=16).hexdigest()


def _stored(entry: Path, digest: str) -> list[Case] | None:
    """The cases kept in ``entry`` for this digest, or None (none kept, another digest, or an
    entry not as it was written). An entry is one line ``DIGEST SUM`` (``SUM`` of the rest),
    then a JSON object: ``shared``, the fields every case of the table has alike (its file and
    description, say), and ``rows``, each case's other fields."""
    try:
        head, _, body = entry.read_bytes().partition(b"\n")
        if head != f"{digest} {_sum(body)}".encode():
            return None
        kept = json.loads(body)
        shared = kept["shared"]
        return [Case(**shared, **{**row, "uses": tuple(row["uses"])}) for row in kept["rows"]]
    except (OSError, KeyError, TypeError, ValueError):
        return None


_TABLE_WIDE = ("file", "area", "method", "variant", "description")
"""Text fields a table's cases mostly share: kept once when all its cases have them alike."""


def _store(entry: Path, digest: str, cases: list[Case]) -> None:
    """Keep ``cases`` in ``entry`` for the next process, if JSON gives them back exactly (JSON
    keeps a mapping's key order: a request's fields go in the order the table gave them).
    Written whole or not at all (``write_atomic``): two processes may store the same table at
    once. A store that fails leaves the table to be checked again."""
    rows = [{**vars(c), "uses": list(c.uses)} for c in cases]
    alike = {
        name: rows[0][name]
        for name in _TABLE_WIDE
        if rows and all(row[name] == rows[0][name] for row in rows)
    }
    kept = {"shared": alike, "rows": [{k: row[k] for k in row if k not in alike} for row in rows]}
    text = json.dumps(kept, ensure_ascii=False)
    if json.loads(text) != kept:
        return
    body = text.encode()
    with contextlib.suppress(OSError):
        write_atomic(entry, f"{digest} {_sum(body)}\n".encode() + body)


def load_table(path: Path | str, store: Path | None = None) -> list[Case]:
    """The cases of one table file, checked; errors name the file and line.

    With a ``store`` (a folder of pytest's cache, ``config.cache.mkdir``), a table checked by an
    earlier process is taken as checked then, as long as its bytes, the spec and the checking
    code are all unchanged (``_checks_digest``): the check is at the entry, once per change, not
    at every run.
    """
    path = Path(path)
    try:
        # At most the cap (a device or a pipe has no size): over it, the reader words the fault.
        content = read_at_most(path, MAX_DATA_FILE_BYTES)
    except OSError:
        content = None
    if content is None:
        return _load_table(path)  # the reader words the fault
    digest = hashlib.blake2b(content, digest_size=16).digest()
    resolved = path.resolve()
    key = (str(resolved), _shown(resolved, path), digest)
    if key not in _LOADED:
        if store is None:
            _LOADED[key] = _load_table(path)
        else:
            entry = store / hashlib.blake2b("\0".join(key[:2]).encode(), digest_size=8).hexdigest()
            full = f"{digest.hex()}-{_checks_digest()}"
            found = _stored(entry, full)
            if found is None:
                found = _load_table(path)
                _store(entry, full, found)
            _LOADED[key] = found
    return list(_LOADED[key])


def _load_table(path: Path) -> list[Case]:
    try:
        data, node = load_yaml_node(path, TABLE_SCHEMA)
    except DataFileError as e:
        raise CaseError(str(e)) from None
    rel = shown_path(path)
    _check_options(data["variant"], data.get("options") or {}, ["options"], node, rel, 1)
    cases_node = _child(node, "cases")
    return [_case(data, raw, _child(cases_node, i), rel) for i, raw in enumerate(data["cases"])]


def table_paths(directory: Path = TABLES_DIR) -> list[Path]:
    """Every table file of a directory (default: the suite's), sorted by name."""
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
    """Every case of the given tables (default: the suite's tables), IDs unique."""
    chosen = table_paths() if paths is None else [Path(p) for p in paths]
    cases = [case for path in chosen for case in load_table(path)]
    check_unique(cases)
    return cases


def request_line(method: str, params: Mapping[str, object], request_id: int = 1) -> str:
    """A request as one JSON line, replayable into an engine as it is (the line a case sent is
    shown as sent, its id included: ``CaseItem.sent_line``; this one is for a case not sent)."""
    return protocol.encode(protocol.request(request_id, method, dict(params)))
