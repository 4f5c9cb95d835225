"""Where the spec's data lives: ``spec/`` and the suite's ``features/``, as package resources in
an installed wheel or beside the package in a checkout. The only code that knows it."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

__all__ = [
    "CI_DIR",
    "DISTRIBUTION",
    "FEATURES_DIR",
    "RULES_DIR",
    "SCHEMA_DIR",
    "SPEC_DIR",
    "VARIANTS_DIR",
    "suite_version",
]

DISTRIBUTION = "pinochle-spec"
"""The package the suite is installed as (pip's name)."""

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
CI_DIR = _HERE / "ci" if (_HERE / "ci").is_dir() else _HERE.parent / "docs" / "ci"
"""The CI recipes (a GitHub Actions workflow, a shell script): docs/ci in a checkout."""


def suite_version() -> str:
    """The installed suite's version; "unknown" in a checkout that was never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
