"""The variants as one checked value: ``load_variant`` reads ``spec/variants/<id>.yaml`` once,
checks it against its schema and beyond (``load_variant_file``), and gives a frozen ``Variant``:
its rules, and its named options with their default, choices (patches of the rules) and the
protocol methods whose answers each can change. Every reader of a variant file goes through it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from . import paths
from .schemas import checker
from .text import shorten, shown
from .yaml_files import DataFileError, line_of, load_yaml_node

__all__ = [
    "VARIANT_SCHEMA",
    "Option",
    "Variant",
    "check_variants",
    "load_variant",
    "load_variant_file",
    "option_choices",
    "option_defaults",
    "option_methods",
    "option_text",
    "variant_ids",
    "variant_path",
]

VARIANT_SCHEMA = "variant.schema.json"
PATCH_MESSAGE_LIMIT = 160
"""Longest schema message quoted for a choice whose patched rules fail the schema."""


def variant_ids() -> list[str]:
    """The ids of every variant in spec/variants, sorted."""
    return list(_variant_ids_in(paths.VARIANTS_DIR))


@cache
def _variant_ids_in(directory: Path) -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in directory.glob("*.yaml")))


def option_text(value: object) -> str:
    """An option value as the variants spell it (``True`` -> ``on``, ``15`` -> ``15``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def variant_path(variant: object) -> Path | None:
    """``spec/variants/<variant>.yaml``, or None when no variant has that id."""
    return _path_in(paths.VARIANTS_DIR, variant) if isinstance(variant, str) else None


@lru_cache(maxsize=64)  # the ids asked are the few variants: a Path built once, not once a case
def _path_in(directory: Path, variant: str) -> Path | None:
    return directory / f"{variant}.yaml" if variant in _variant_ids_in(directory) else None


def _frozen(value: Any) -> Any:
    """A read-only copy of YAML data: mappings as MappingProxyType, lists as tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""Types ``_thawed`` hands back as they are without asking (most of a variant's values)."""


def _thawed(value: Any) -> Any:
    """Plain data again (dicts and lists) from a ``_frozen`` copy, to patch or to print."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


@dataclass(frozen=True)
class Option:
    """One named option of a variant (a house rule): its values and what each changes."""

    name: str
    description: str
    default: str
    choices: Mapping[str, Mapping[str, Any]]
    """Value -> patch of the rules: dotted path (``meld.table.run``) -> new value."""
    methods: tuple[str, ...]
    """The protocol methods whose answers this option can change (the file's ``methods``)."""

    @property
    def values(self) -> tuple[str, ...]:
        """Every value the option may take, the default first."""
        return (self.default, *(c for c in self.choices if c != self.default))


@dataclass(frozen=True)
class Variant:
    """One variant of ``spec/variants``, checked: everything a reader of the file needs."""

    id: str
    title: str
    sources: tuple[str, ...]
    rules: Mapping[str, Any]
    """The rules with every option at its default, read-only (mappings and tuples)."""
    options: Mapping[str, Option]
    path: Path

    @property
    def defaults(self) -> dict[str, str]:
        """Option name -> its default value."""
        return {name: opt.default for name, opt in self.options.items()}

    @property
    def option_methods(self) -> dict[str, tuple[str, ...]]:
        """Option name -> the methods whose answers it can change."""
        return {name: opt.methods for name, opt in self.options.items()}

    def rules_under(self, options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The rules as plain data (a fresh copy) under ``options`` (name -> value; the others
        at their default): each chosen value's patch applied. KeyError names an option or value
        the variant does not have."""
        chosen = {**self.defaults, **(options or {})}
        rules: dict[str, Any] = _thawed(self.rules)
        for name, value in chosen.items():
            for dotted, new in self.options[name].choices[value].items():
                keys = dotted.split(".")
                node = rules
                for key in keys[:-1]:
                    node = node[key]
                node[keys[-1]] = _thawed(new)
        return rules


def load_variant(variant: str) -> Variant:
    """A variant, checked (``load_variant_file``); KeyError if no variant has that id."""
    path = variant_path(variant)
    if path is None:
        raise KeyError(variant)
    return load_variant_file(path)


def rules_read(variant: str, options: Mapping[str, str] | None = None) -> Mapping[str, Any]:
    """``Variant.rules_under`` read-only (mappings and tuples), made once per variant file and
    options: for readers that ask it for every case or question. KeyError as ``load_variant``."""
    path = variant_path(variant)
    if path is None:
        raise KeyError(variant)
    return _rules_read(path, tuple(sorted((options or {}).items())))


@lru_cache(maxsize=512)
def _rules_read(path: Path, chosen: tuple[tuple[str, str], ...]) -> Mapping[str, Any]:
    rules: Mapping[str, Any] = _frozen(load_variant_file(path).rules_under(dict(chosen)))
    return rules


def option_choices(variant: str) -> dict[str, list[str]]:
    """The named options of a variant and the values each may take (default first)."""
    return {name: list(opt.values) for name, opt in load_variant(variant).options.items()}


def option_defaults(variant: str) -> dict[str, str]:
    """Option name -> default value of a variant (empty for a variant the spec does not have)."""
    return load_variant(variant).defaults if variant_path(variant) else {}


def option_methods(variant: str) -> dict[str, tuple[str, ...]]:
    """Option name -> the methods whose answers it can change (the file's ``methods``); empty
    for a variant the spec does not have."""
    return load_variant(variant).option_methods if variant_path(variant) else {}


def check_variants() -> None:
    """Check every variant file (``load_variant_file``); DataFileError names the first fault."""
    for variant in variant_ids():
        load_variant(variant)


Fault = Callable[[list[str | int], str], DataFileError]


@cache
def load_variant_file(path: Path) -> Variant:
    """A variant file, checked beyond its schema, once; DataFileError names file and line.

    The id matches the file name; each option's default is one of its choices; each choice's
    patch names paths that exist in ``rules`` (``meld.table.run``) and, applied, leaves rules
    that still pass the schema; the deck deals four equal hands, with every choice applied.
    """
    loaded, node = load_yaml_node(path, VARIANT_SCHEMA)
    data: dict[str, Any] = loaded

    def fault(trail: list[str | int], message: str) -> DataFileError:
        line = line_of(node, trail) if node is not None else None
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
            _check_choice(data, name, choice, patch, fault)
    return Variant(
        id=data["id"],
        title=data["title"],
        sources=tuple(data["sources"]),
        rules=_frozen(data["rules"]),
        options=MappingProxyType(
            {
                name: Option(
                    name=name,
                    description=opt["description"],
                    default=opt["default"],
                    choices=_frozen(opt["choices"]),
                    methods=tuple(opt["methods"]),
                )
                for name, opt in data["options"].items()
            }
        ),
        path=path,
    )


def _check_choice(
    data: dict[str, Any], name: str, choice: str, patch: dict[str, Any], fault: Fault
) -> None:
    """One choice's patch names existing rule paths and leaves rules that pass the schema."""
    rules = copy.deepcopy(data["rules"])
    where = f"option {name}, choice {shown(choice)}"
    for dotted, value in patch.items():
        keys = dotted.split(".")
        target = rules
        for i, key in enumerate(keys):
            if not isinstance(target, dict) or key not in target:
                place = ".".join(["rules", *keys[:i]])
                known = ", ".join(target) if isinstance(target, dict) else "no fields"
                raise fault(
                    ["options", name, "choices", choice, dotted],
                    f"{where}: unknown rule path {shown(dotted)}: {place} has {known}",
                )
            if i < len(keys) - 1:
                target = target[key]
        target[keys[-1]] = copy.deepcopy(value)
    schema = checker(VARIANT_SCHEMA)
    patched = {**data, "rules": rules}
    error = None if schema.is_valid(patched) else schema.best_error(patched)
    if error is not None:
        at = "/".join(map(str, error.path))
        raise fault(
            ["options", name, "choices", choice],
            f"{where}: the patched rules fail {VARIANT_SCHEMA} at {at}: "
            f"{shorten(error.message, PATCH_MESSAGE_LIMIT, count=False)}",
        )
    _check_deal(rules, ["options", name, "choices", choice], fault)


def _check_deal(rules: dict[str, Any], trail: list[str | int], fault: Fault) -> None:
    """DEAL-HANDS: the whole deck deals into four hands of ``hand_size``."""
    deck = 4 * len(rules["deck"]["ranks"]) * rules["deck"]["copies"]
    if deck != 4 * rules["hand_size"]:
        raise fault(
            trail or ["rules", "hand_size"],
            f"a deck of {deck} cards cannot give four hands of {rules['hand_size']}",
        )
