"""The import graph only points down (CONTRIBUTING.md, "Layout"): read from the source, statically.

specdata -> reference_engine (rules only) -> pinochle_adapters (protocol, client and SDK know no
engine; only the reference server sees the rules) -> pinochle_judge (the judgement: cases,
comparison, blame, diagnosis, wording; no pytest, no rules) -> pytest_pinochle (the runner, only
what pytest loads) -> pinochle_tools (the CLI's offline back ends: sites, export, one case,
coverage; the plugin never imports them) and pinochle_fuzz (rules + client + judgement), beside
each other -> pinochle_cli (the face, imported by none). No module takes part in a circle of
imports, type-only imports included.
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
    "pinochle_judge",
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
    # The judgement works without pytest (the fuzzer and the tools stand on it) and never sees
    # the rules: the reference engine is asked through the client, like any engine.
    "pinochle_judge": (
        "pytest",
        "_pytest",
        "pytest_bdd",
        "pytest_pinochle",
        "reference_engine",
        "pinochle_adapters.reference",
        "pinochle_tools",
        "pinochle_fuzz",
        "pinochle_cli",
    ),
    # The plugin holds only what pytest loads: the offline tools sit above it.
    "pytest_pinochle": (
        "reference_engine",
        "pinochle_adapters.reference",
        "pinochle_tools",
        "pinochle_fuzz",
        "pinochle_cli",
    ),
    # The CLI's offline back ends: specdata, the client and the judgement, never the rules, and
    # pytest only where a suite is run (EXEMPT).
    "pinochle_tools": (
        "reference_engine",
        "pinochle_adapters.reference",
        "pinochle_fuzz",
        "pinochle_cli",
        "pytest",
        "pytest_pinochle",
    ),
    # The fuzzer sees the rules (to reach positions) and the judgement; the face sees it.
    "pinochle_fuzz": ("pinochle_tools", "pinochle_cli", "pytest", "pytest_pinochle"),
    "features": (
        "reference_engine",
        "pinochle_adapters",
        "pinochle_tools",
        "pinochle_cli",
        "features.support",
    ),
}
"""Module (or package) prefix -> what it must never import."""
EXEMPT: dict[str, tuple[str, ...]] = {
    # Captures scenarios by running them: it is a pytest run.
    "pinochle_tools.scenario_capture": ("pytest", "pytest_pinochle"),
    # The campaign's properties as Hypothesis tests for HypoFuzz, which collects them with pytest.
    "pinochle_fuzz.properties": ("pytest",),
}
"""Module -> the names of FORBIDDEN it alone may import, and why."""


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
            allowed = EXEMPT.get(module, ())
            wrong = sorted(b for b in banned if b not in allowed and _hits(imported, b))
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


def _edges(path: Path, modules: set[str]) -> set[str]:
    """The project modules a source file imports, type-only imports included: ``from p import m``
    points at the module ``p.m`` when there is one, else at ``p``."""
    edges: set[str] = set()
    for name in imports_of(path):
        if name in modules:
            edges.add(name)
    # ``from p import m``: the package ``p`` is only an edge when no name under it was meant.
    return {e for e in edges if not any(o.startswith(e + ".") for o in edges)}


def circles() -> list[list[str]]:
    """Every strongly connected set of two or more project modules (Tarjan), sorted."""
    paths = {_module(p): p for p in sources()}
    graph = {m: _edges(p, set(paths)) - {m} for m, p in paths.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for n in sorted(graph[m]):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            part = []
            while True:
                n = stack.pop()
                part.append(n)
                if n == m:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    return sorted(found)


def test_no_module_is_in_a_circle_of_imports() -> None:
    """Type-only imports count: a signature that names a value of a module above it ties the
    two together as surely as a run-time import."""
    assert circles() == []


def test_the_circle_check_sees_a_type_only_circle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker itself can fail: a type-only import back up is a circle."""
    real = imports_of

    def probe(path: Path) -> set[str]:
        found = real(path)
        if path == ROOT / "pinochle_judge" / "notation.py":
            found.add("pinochle_judge.wording")  # wording imports notation
        return found

    monkeypatch.setattr(f"{__name__}.imports_of", probe)
    assert any({"pinochle_judge.notation", "pinochle_judge.wording"} <= set(c) for c in circles())


def test_the_modules_sharing_the_report_runs_go_to_one_xdist_worker() -> None:
    """tests/conftest.py sends the test modules using tests/report_runs.py to one worker
    together, so the two whole-suite runs are made once: its list is every such module."""
    from tests.conftest import REPORT_RUNS_USERS

    users = {
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "tests").glob("test_*.py"))
        if _hits(imports_of(path), "tests.report_runs")
    }
    assert users and set(REPORT_RUNS_USERS) == users
