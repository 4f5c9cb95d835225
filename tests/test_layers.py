"""The import graph only points down (CONTRIBUTING.md, "Layout"): read from the source, statically.

specdata -> reference_engine (rules only) -> pinochle_adapters (protocol, client and SDK know no
engine; only the reference server sees the rules) -> pytest_pinochle (the runner, which talks to
engines through the client only) -> pinochle_tools (the CLI's offline back ends: sites, export,
one case, coverage; the plugin never imports them) and pinochle_fuzz (rules + client +
comparison), beside each other -> pinochle_cli (the face, imported by none).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "specdata",
    "reference_engine",
    "pinochle_adapters",
    "pytest_pinochle",
    "pinochle_tools",
    "pinochle_fuzz",
    "pinochle_cli",
)
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "specdata": (*PACKAGES[1:], "pytest", "pytest_bdd"),
    "reference_engine": (*PACKAGES[2:], "pytest", "pytest_bdd"),
    # The rules take trusted values: JSON shapes are checked at the entries (server, records, CLI).
    **{
        f"reference_engine.{rule}": ("json", "jsonschema")
        for rule in ("cards", "meld", "tricks", "auction", "scoring", "hand", "game", "actions")
    },
    **{
        f"pinochle_adapters.{part}": ("reference_engine", *PACKAGES[3:])
        for part in (
            "protocol",
            "errors",
            "inprocess",
            "transports",
            "processes",
            "client",
            "sdk",
        )
    },
    "pinochle_adapters.reference": PACKAGES[3:],
    # The plugin holds only what pytest loads: the offline tools sit above it.
    "pytest_pinochle": (
        "reference_engine",
        "pinochle_adapters.reference",
        "pinochle_tools",
        "pinochle_fuzz",
        "pinochle_cli",
    ),
    # The CLI's offline back ends: specdata, the client and the runner's parts, never the rules.
    "pinochle_tools": (
        "reference_engine",
        "pinochle_adapters.reference",
        "pinochle_fuzz",
        "pinochle_cli",
    ),
    # The fuzzer sees the rules (to reach positions) and the runner's comparison; the face sees it.
    "pinochle_fuzz": ("pinochle_tools", "pinochle_cli"),
    "features": (
        "reference_engine",
        "pinochle_adapters",
        "pinochle_tools",
        "pinochle_cli",
        "features.support",
    ),
}
"""Module (or package) prefix -> what it must never import."""


def imports_of(path: Path) -> set[str]:
    """Every module a source file imports, absolute or relative, including ``importlib`` names."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            found.update(a.value for a in node.args if isinstance(a, ast.Constant))
    return found


def sources() -> list[Path]:
    return sorted(
        p
        for top in (*PACKAGES, "features")
        for p in (ROOT / top).rglob("*.py")
        if "examples" not in p.parts
    )


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _hits(imported: set[str], prefix: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for name in imported)


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_down(path: Path) -> None:
    module, imported = _module(path), imports_of(path)
    for owner, banned in FORBIDDEN.items():
        if module == owner or module.startswith(owner + "."):
            wrong = sorted(b for b in banned if _hits(imported, b))
            assert not wrong, f"{module} imports {wrong}, which sit above it or beside it"


def test_nothing_imports_the_face() -> None:
    offenders = [
        _module(p)
        for p in sources()
        if "pinochle_cli" not in p.parts and _hits(imports_of(p), "pinochle_cli")
    ]
    assert not offenders, offenders


def test_the_scan_sees_relative_and_dynamic_imports(tmp_path: Path) -> None:
    """The checker itself can fail: a relative import and an importlib call are both seen."""
    pkg = ROOT / "pytest_pinochle" / "tags.py"
    assert "pytest_pinochle.tables" in imports_of(pkg) or "specdata" in imports_of(pkg)
    probe = ROOT / "pytest_pinochle" / "_layers_probe.py"
    try:
        probe.write_text("import importlib\nimportlib.import_module('reference_engine.meld')\n")
        with pytest.raises(AssertionError, match="reference_engine"):
            test_imports_point_down(probe)
    finally:
        probe.unlink()
