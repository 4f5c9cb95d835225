"""The one JSON Schema checker: jsonschema-rs decides whether a value is valid, and only a
failure pays for jsonschema, whose messages are the clearer ones (``Checker``).

Data files (``yaml_files.check``), protocol messages (``pinochle_adapters.protocol``), table cases'
expectations, reports and exports are all checked through it; ``checker`` gives the one for a
schema of ``spec/schema/`` by file name.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from typing import Any

import jsonschema
import jsonschema_rs
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from . import paths

__all__ = ["Checker", "ValidationError", "checker", "load_schema", "where"]


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A JSON Schema from ``spec/schema/`` by file name (``variant.schema.json``)."""
    path = paths.SCHEMA_DIR / name
    with path.open(encoding="utf-8") as f:
        schema: dict[str, Any] = json.load(f)
    return schema


def where(root: str, path: Any) -> str:
    """A JSON path as messages write it: ``params.hand[2]`` from root ``params``."""
    out = root
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else f".{key}"
    return out


class Checker:
    """One schema, checked two ways: jsonschema-rs decides validity (a meld result in ~3 us,
    against ~480 us with jsonschema); jsonschema words a failure.

    Their verdicts can differ: jsonschema-rs reads regexes as ECMA 262, as JSON Schema says (``$``
    is the very end of the string), where Python's ``re`` also lets ``$`` match before a final
    newline, so ``"Ah\\n"`` is refused here although jsonschema alone would let it through.
    """

    def __init__(
        self, schema: dict[str, Any], referenced: Iterable[Mapping[str, Any]] = ()
    ) -> None:
        """``referenced``: other schemas ``schema`` names in a ``$ref`` by their ``$id`` (the
        combined report's items are single reports), resolved here and never fetched."""
        self.schema = schema
        self._resources = [(str(s["$id"]), dict(s)) for s in referenced]
        registry = jsonschema_rs.Registry(self._resources) if self._resources else None
        self._fast = jsonschema_rs.Draft202012Validator(schema, registry=registry)
        self._wording: jsonschema.Draft202012Validator | None = None

    def is_valid(self, instance: Any) -> bool:
        """Whether ``instance`` is valid (fast; no message)."""
        try:
            return bool(self._fast.is_valid(instance))
        except Exception:  # e.g. a lone surrogate cannot cross into Rust: it is not valid text
            return False

    def _words(self) -> jsonschema.Draft202012Validator:
        if self._wording is None and not self._resources:
            self._wording = jsonschema.Draft202012Validator(self.schema)
        elif self._wording is None:
            registry: Registry[Any] = Registry().with_resources(
                (uri, Resource.from_contents(s)) for uri, s in self._resources
            )
            self._wording = jsonschema.Draft202012Validator(self.schema, registry=registry)
        return self._wording

    def errors(self, instance: Any) -> Iterator[ValidationError]:
        """jsonschema's errors for ``instance``, lazily (none when it finds the value valid)."""
        return self._words().iter_errors(instance)

    def error(self, instance: Any) -> ValidationError | None:
        """The most relevant of all errors, or None when the value is valid: jsonschema-rs
        decides, jsonschema words (None too for the rare value only jsonschema-rs refuses, the
        class docstring: the verdict stays jsonschema's)."""
        if self.is_valid(instance):
            return None
        return self.best_error(instance)

    def best_error(self, instance: Any, ranked: int | None = None) -> ValidationError | None:
        """The most relevant of the first ``ranked`` errors (all: None), or None when jsonschema
        finds none. Ranking a few bounds the cost: a line of 150,000 bad cards must not rank
        150,000 errors. RecursionError for a value nested deeper than Python can recurse."""
        error: ValidationError | None = best_match(itertools.islice(self.errors(instance), ranked))
        return error

    def fast_message(self, instance: Any, root: str) -> str | None:
        """jsonschema-rs's own wording of the first error (None if it finds none): for a value
        jsonschema cannot word (it finds nothing, or the value is nested too deeply)."""
        try:
            for error in self._fast.iter_errors(instance):
                return f"{where(root, error.instance_path)}: {error.message}"
        except UnicodeError:
            return f"{root}: holds a lone surrogate, which is not Unicode text"
        except Exception as e:  # an instance the validator cannot even read
            if "recursion" in str(e).lower():
                return f"{root}: nested too deeply to check"
            return f"{root}: cannot be checked ({type(e).__name__})"
        return None


@cache
def checker(name: str) -> Checker:
    """The checker of schema ``name`` of ``spec/schema/`` (``variant.schema.json``)."""
    return Checker(load_schema(name))
