"""Loading the spec's YAML files safely: one strict loader, and every fault one DataFileError
naming the file and the line (not UTF-8, too big, bad syntax, a duplicate key, an alias, nesting
too deep, a schema fault), never a traceback from inside the parser."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from .files import read_at_most, size_over, unreadable
from .schemas import checker
from .text import shown

__all__ = [
    "MAX_DATA_DEPTH",
    "MAX_DATA_FILE_BYTES",
    "DataFileError",
    "check",
    "line_of",
    "load_yaml",
    "load_yaml_node",
]


class DataFileError(ValueError):
    """A data file is not valid YAML or fails its schema; the message names the file and line."""


MAX_DATA_FILE_BYTES = 8 * 1024 * 1024
"""The largest YAML file read (the suite's largest table is about 60 KB)."""
MAX_DATA_DEPTH = 64
"""The deepest nesting of lists and mappings in a YAML file (the suite's tables nest 6 deep).
libyaml's composer recurses in C: about 100,000 nested lists crash the process."""


def line_of(node: yaml.Node, path: list[str | int]) -> int:
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


def _limit_place(path: Path, text: str) -> str:
    """``path:line`` of the first integer too long for Python to convert (``path`` alone when
    there is none): where a library's limit was met."""
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    if digits:
        found = re.search(rf"[-+]?[0-9_]{{{digits + 1},}}", text)
        if found:
            return f"{path}:{text.count(chr(10), 0, found.start()) + 1}"
    return str(path)


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
        raw = read_at_most(path, MAX_DATA_FILE_BYTES)
    except OSError as e:
        raise DataFileError(f"{path}: {unreadable(path, e)}") from None
    if raw is None:
        size = size_over(path, MAX_DATA_FILE_BYTES)
        raise DataFileError(
            f"{path}: {size}: a data file may hold at most {MAX_DATA_FILE_BYTES} bytes"
        )
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
    except ValueError as e:
        # The loader's own limits (an integer of more digits than Python converts): one line
        # naming the file and the line of the value.
        raise DataFileError(f"{_limit_place(path, text)}: {e}") from None
    if schema_name is not None:
        check(data, schema_name, path, node)
    return data, node


def load_yaml(path: Path, schema_name: str | None = None) -> Any:
    """Read a YAML file with safe loading, checked against a schema if one is named."""
    return load_yaml_node(path, schema_name)[0]


def check(data: Any, schema_name: str, path: Path | str, node: yaml.Node | None = None) -> None:
    """Validate ``data`` against a named schema; raise DataFileError with file:line on failure."""
    schema = checker(schema_name)
    if schema.is_valid(data):
        return
    errors = sorted(schema.errors(data), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    lines = []
    for err in errors[:5]:
        loc = "/".join(map(str, err.path)) or "(top)"
        line = line_of(node, list(err.path)) if node is not None else None
        where = f"{path}:{line}" if line is not None else str(path)
        lines.append(f"{where}: at {loc}: {err.message}")
    more = f"\n(and {len(errors) - 5} more)" if len(errors) > 5 else ""
    raise DataFileError(f"{path} fails {schema_name}:\n" + "\n".join(lines) + more)
