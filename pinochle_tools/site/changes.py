"""What changed between two runs of one engine (``pinochle diff OLD.json NEW.json``, and the report
site given two runs of one engine): per case and per rule, what was fixed, what broke, what is
new and what is gone. A case that passed in OLD and fails (or errors) in NEW is a regression:
``pinochle diff`` exits 1 on one, a gate for CI.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pinochle_judge.counts import JUDGED

from .reports import BAD, EngineRun, ReportError, load_runs

KINDS = ("broke", "fixed", "new", "gone", "changed")
"""How a case changed, the regressions first: ``broke`` passed then failed or errored;
``fixed`` failed or errored then passed; ``new`` only in NEW; ``gone`` only in OLD;
``changed`` any other change of outcome (a skip, or failed to errored)."""
SAYS = {
    "broke": "passed in OLD, fails in NEW",
    "fixed": "failed in OLD, passes in NEW",
    "new": "only in NEW",
    "gone": "only in OLD",
    "changed": "another change of outcome",
}


@dataclass(frozen=True)
class CaseChange:
    """One case whose outcome differs between the two runs."""

    node: str
    rule: str
    kind: str
    old: str | None
    new: str | None

    @property
    def name(self) -> str:
        """The case's ID (a table case) or test name (a scenario), without its file."""
        return self.node.rsplit("::", 1)[-1]


@dataclass(frozen=True)
class RunDiff:
    """Two runs compared: every case that changed, and per rule the counts."""

    old: EngineRun
    new: EngineRun
    cases: tuple[CaseChange, ...]

    def of(self, kind: str) -> list[CaseChange]:
        return [c for c in self.cases if c.kind == kind]

    @property
    def counts(self) -> dict[str, int]:
        found = Counter(c.kind for c in self.cases)
        return {kind: found[kind] for kind in KINDS}

    @property
    def regressed(self) -> bool:
        """Whether a case that passed in OLD fails in NEW."""
        return any(c.kind == "broke" for c in self.cases)

    def rules(self) -> list[dict[str, Any]]:
        """Per rule with a change: its passed/judged in each run (``before``, ``after``) and how
        many cases of each kind."""
        rows = []
        for rule in sorted({c.rule for c in self.cases}):
            mine = [c for c in self.cases if c.rule == rule]
            found = Counter(c.kind for c in mine)
            rows.append(
                {
                    "rule": rule,
                    "before": _passed(self.old, rule),
                    "after": _passed(self.new, rule),
                    **{kind: found[kind] for kind in KINDS},
                }
            )
        # The rules with regressions first, then by name.
        return sorted(rows, key=lambda row: (-int(row["broke"]), str(row["rule"])))

    def as_json(self) -> dict[str, Any]:
        return {
            "old": {"engine": self.old.label, "file": self.old.source},
            "new": {"engine": self.new.label, "file": self.new.source},
            "counts": self.counts,
            "regressed": self.regressed,
            "cases": [
                {"case": c.node, "rule": c.rule, "change": c.kind, "old": c.old, "new": c.new}
                for c in self.cases
            ],
            "rules": self.rules(),
        }


def _passed(run: EngineRun, rule: str) -> str:
    """``passed/judged`` of one rule in one run, counted as the site's cells and the badge are
    (the skipped and the undeclared apart); ``-`` when it judged no case of the rule."""
    outcomes = [v.get("outcome") for v in run.cases.values() if v.get("rule") == rule]
    judged = [o for o in outcomes if o in JUDGED]
    if not judged:
        return "-"
    return f"{judged.count('passed')}/{len(judged)}"


def kind_of(old: str | None, new: str | None) -> str | None:
    """How one case changed between outcomes ``old`` and ``new`` (None: absent), or None."""
    if old == new:
        return None
    if old is None:
        return "new"
    if new is None:
        return "gone"
    if old == "passed" and new in BAD:
        return "broke"
    if old in BAD and new == "passed":
        return "fixed"
    return "changed"


def compare(old: EngineRun, new: EngineRun) -> RunDiff:
    """Every case whose outcome differs between ``old`` and ``new``, in node order."""
    changes = []
    for node in sorted(set(old.cases) | set(new.cases)):
        before, after = old.cases.get(node), new.cases.get(node)
        kind = kind_of(_outcome(before), _outcome(after))
        if kind is not None:
            rule = str((after or before or {}).get("rule", "?"))
            changes.append(CaseChange(node, rule, kind, _outcome(before), _outcome(after)))
    return RunDiff(old, new, tuple(changes))


def _outcome(verdict: dict[str, Any] | None) -> str | None:
    """A case's outcome; None when absent, or undeclared (a variant or method the engine did not
    declare is not counted: a case it declares later is new, one it stops declaring is gone)."""
    if verdict is None or verdict.get("undeclared"):
        return None
    return str(verdict.get("outcome"))


def one_run(path: Path) -> EngineRun:
    """The one engine's run a report file holds; ReportError naming the file when it is not a
    report, or a combined report of several engines."""
    runs = load_runs(path)
    if len(runs) != 1:
        raise ReportError(
            f"{path}: a combined report of {len(runs)} engines: give one engine's report"
        )
    return runs[0]


def same_engine(a: EngineRun, b: EngineRun) -> bool:
    """Whether two runs are of one engine (its name, or its command when it has none): two
    versions of an engine compare; two engines are side by side, not a change."""
    name_a = a.report["engine"].get("name") or a.report["engine"]["command"]
    name_b = b.report["engine"].get("name") or b.report["engine"]["command"]
    return bool(name_a == name_b)


def diff_text(diff: RunDiff, limit: int = 50) -> str:
    """The comparison in words: the counts, the cases of each kind (at most ``limit`` each),
    then per rule."""
    counts = diff.counts
    lines = [
        f"OLD {diff.old.source}: {diff.old.label}",
        f"NEW {diff.new.source}: {diff.new.label}",
        ", ".join(f"{counts[kind]} {kind}" for kind in KINDS),
    ]
    for kind in KINDS:
        found = diff.of(kind)
        if not found:
            continue
        lines.append(f"{kind} ({SAYS[kind]}):")
        for change in found[:limit]:
            lines.append(
                f"  {change.rule}  {change.name}  {change.old or '-'} -> {change.new or '-'}"
            )
        if len(found) > limit:
            lines.append(f"  ... and {len(found) - limit} more")
    rows = diff.rules()
    if rows:
        lines.append("per rule (passed/judged OLD -> NEW; cases that changed):")
        for row in rows:
            changed = ", ".join(f"{row[kind]} {kind}" for kind in KINDS if row[kind])
            lines.append(f"  {row['rule']}  {row['before']} -> {row['after']}  ({changed})")
    if not diff.cases:
        lines.append("no case changed its outcome")
    return "\n".join(lines)
