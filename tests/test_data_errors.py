"""Broken data files (variants, tables, known failures, the YAML limits): one error naming the file
and line, never a traceback, a flood, a parser crash or a case charged to the engine."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import specdata
from pytest_pinochle import plugin
from specdata import DataFileError, load_yaml
from tests.suite_runs import ROOT

QUIET = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-p", "no:xdist"]


def yaml_file(tmp_path: Path, text: str | bytes, name: str = "x.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def one_line_error(error: BaseException) -> str:
    message = str(error)
    assert "\n" not in message and len(message) < 400, message[:1000]
    return message


# --- any YAML file the project loads ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "key"),
    [
        ("a: 1\nb:\n  c: 2\n  c: 3\n", 4, "'c'"),  # block mapping: last-wins before
        ("a: {b: 1, b: 2}\n", 1, "'b'"),  # flow mapping
        ("cases:\n  - id: x\n    id: y\n", 3, "'id'"),  # inside a list
        ("a: 1\n'a': 2\n", 2, "'a'"),  # quoting does not make a key different
    ],
)
def test_a_duplicate_key_is_refused_with_both_lines(
    tmp_path: Path, text: str, line: int, key: str
) -> None:
    with pytest.raises(DataFileError) as info:
        load_yaml(yaml_file(tmp_path, text))
    message = one_line_error(info.value)
    assert f"x.yaml:{line}: duplicate key {key}" in message


def test_an_alias_is_refused_at_its_line(tmp_path: Path) -> None:
    with pytest.raises(DataFileError) as info:
        load_yaml(yaml_file(tmp_path, "a: &cards [Ah, Th]\nb: 1\nc: *cards\n"))
    assert "x.yaml:3: " in one_line_error(info.value)
    assert "alias" in str(info.value)


def test_an_alias_bomb_is_refused_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Billion laughs: nine levels of nine aliases would build 9**9 items. The first alias is
    refused before anything is built: no document is constructed at all."""
    lines = ["a: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [f"b{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    built: list[object] = []
    construct = specdata.yaml_files._StrictLoader.construct_document

    def counted(loader: object, node: object) -> object:
        built.append(node)
        return construct(loader, node)

    monkeypatch.setattr(specdata.yaml_files._StrictLoader, "construct_document", counted)
    with pytest.raises(DataFileError) as info:
        load_yaml(yaml_file(tmp_path, "\n".join(lines) + "\n"))
    assert "x.yaml:2: " in one_line_error(info.value)
    assert not built
    # The same counter sees an ordinary file built once: the check above can fail.
    load_yaml(yaml_file(tmp_path, "a: [1, 2]\n", "fine.yaml"))
    assert len(built) == 1


@pytest.mark.slow
def test_deep_nesting_is_refused_not_a_crash(tmp_path: Path) -> None:
    """libyaml's composer recursed in C: 100,000 nested lists killed the process (SIGSEGV).

    Either our depth check or PyYAML's own (6.0.4 and later) may refuse it first: what matters
    is a one-line DataFileError naming the file and line, whoever words the problem."""
    path = yaml_file(tmp_path, "a: " + "[" * 100_000 + "]" * 100_000 + "\n")
    code = (
        "import sys; from specdata import load_yaml, DataFileError\n"
        "try:\n    load_yaml(__import__('pathlib').Path(sys.argv[1]))\n"
        "except DataFileError as e:\n    print('refused:', e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-500:])
    assert done.stdout.startswith("refused: ") and "x.yaml:1: " in done.stdout
    assert len(done.stdout.strip().splitlines()) == 1


def test_a_file_that_is_not_utf8_names_file_and_line(tmp_path: Path) -> None:
    with pytest.raises(DataFileError) as info:
        load_yaml(yaml_file(tmp_path, b"a: 1\nb: caf\xe9\n"))
    assert "x.yaml:2: not UTF-8" in one_line_error(info.value)


def test_an_oversize_file_is_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(specdata.yaml_files, "MAX_DATA_FILE_BYTES", 1000)
    with pytest.raises(DataFileError) as info:
        load_yaml(yaml_file(tmp_path, "a: [" + "1, " * 1000 + "1]\n"))
    assert "x.yaml: " in one_line_error(info.value) and "1000 bytes" in str(info.value)


# --- the suite: a broken table or variant file stops the run with one line --------------------

TABLE = """\
area: meld
method: meld
variant: double-deck
cases:
  - id: fixture-case
    rules: [MELD-RUN]
    input: {trump: h, hand: AhThKhQhJh}
    expect: {total: 16, melds: [{id: run, count: 1, points: 16, cards: AhThKhQhJh}]}
"""


def run_suite_on(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
) -> tuple[int, str]:
    monkeypatch.setattr(plugin, "_tables_dir", lambda: tmp_path)
    status = pytest.main([*QUIET, "--rootdir", str(tmp_path), *args])
    captured = capsys.readouterr()
    return int(status), captured.out + captured.err


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        ("area: [\n", "zz.yaml:2: not valid YAML"),
        (TABLE.replace("cards: AhThKhQhJh", "cards: AhThKhQhZz"), "zz.yaml:8: expect melds"),
        (
            TABLE.replace("[MELD-RUN]", "[MELD-RUNS]"),
            "zz.yaml:6: fixture-case: unknown rule ID 'MELD-RUNS'",
        ),
        (TABLE.replace("{total: 16,", "{total: 16, total: 15,"), "zz.yaml:8: duplicate key"),
        (
            TABLE.replace("variant: double-deck", "variant: double-deck\noptions: {run: 17}"),
            "zz.yaml:4: option run",
        ),
    ],
    ids=["yaml", "expect-card", "rule-id", "duplicate-key", "option-value"],
)
def test_a_broken_table_is_one_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    broken: str,
    message: str,
) -> None:
    table = yaml_file(tmp_path, broken, "zz.yaml")
    status, out = run_suite_on(tmp_path, monkeypatch, capsys, [str(table)])
    assert status == pytest.ExitCode.USAGE_ERROR, out
    assert message in out, out
    assert "passed" not in out and "failed" not in out, out
    for noise in ("Traceback", "AttributeError", "INTERNALERROR", "engine error"):
        assert noise not in out, out


def broken_variants(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of spec/variants with one change made to double-deck.yaml."""
    folder = tmp_path / "variants"
    shutil.copytree(specdata.VARIANTS_DIR, folder)
    path = folder / "double-deck.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("hand_size: 20", "hand_size: [20", "not valid YAML"),
        ("hand_size: 20", "hand_size: twenty", "at rules/hand_size"),
        ("meld.table.run:", "meld.tabel.run:", "unknown rule path 'meld.tabel.run'"),
        ("{meld.table.run: [15, 150, 225, 300]}", "{meld.table.run: fifteen}", "fifteen"),
        ("  hand_size: 20\n", "  hand_size: 20\n  hand_size: 19\n", "duplicate key"),
    ],
    ids=["yaml", "schema", "patch-path", "patch-type", "duplicate-key"],
)
def test_a_broken_variant_file_is_one_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    message: str,
) -> None:
    """A broken variant file stops the run as one usage error naming it: no traceback, and no
    case charged to the engine."""
    folder = broken_variants(tmp_path, old, new)
    monkeypatch.setattr(specdata.paths, "VARIANTS_DIR", folder)
    table = yaml_file(tmp_path, TABLE, "meld.yaml")
    status, out = run_suite_on(
        tmp_path, monkeypatch, capsys, ["--variant", "double-deck", str(table)]
    )
    assert status == pytest.ExitCode.USAGE_ERROR, out[-2000:]
    assert "double-deck.yaml:" in out and message in out, out[-2000:]
    assert len(out) < 2000, out[-2000:]
    for noise in ("Traceback", "engine error", "passed", "failed"):
        assert noise not in out, out[-2000:]
