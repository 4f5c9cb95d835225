"""Loading the project's YAML data safely and checking it against JSON Schemas.

Errors name the file and the line of the fault.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import PinochleError

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = ROOT / "spec"
SCHEMA_DIR = SPEC_DIR / "schema"


class DataFileError(PinochleError):
    """A data file is not valid YAML or fails its schema; the message names the file and line."""


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
