"""Where the spec's data lives: ``spec/`` and the suite's ``features/``, as package resources in
an installed wheel or beside the package in a checkout. The only code that knows it."""

from __future__ import annotations

from pathlib import Path

__all__ = ["FEATURES_DIR", "RULES_DIR", "SCHEMA_DIR", "SPEC_DIR", "VARIANTS_DIR"]

_HERE = Path(__file__).resolve().parent


def _data_dir(name: str) -> Path:
    """``name`` shipped inside this package (a wheel) or beside it (a checkout)."""
    inside = _HERE / name
    return inside if inside.is_dir() else _HERE.parent / name


SPEC_DIR = _data_dir("spec")
"""The spec's data and prose: rules/, variants/, schema/, protocol.md."""
SCHEMA_DIR = SPEC_DIR / "schema"
VARIANTS_DIR = SPEC_DIR / "variants"
"""Read at each call by ``specdata.variants`` (a test may point it at a copy)."""
RULES_DIR = SPEC_DIR / "rules"
FEATURES_DIR = _data_dir("features")
"""The conformance suite's content: *.feature, tables/, steps/."""
