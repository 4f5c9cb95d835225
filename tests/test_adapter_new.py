"""``pinochle adapter new python|node DIR`` writes a starter that passes ``pinochle smoke``;
``pinochle adapter path`` prints where the shipped one lives. The Python starter is smoked
in-process; the Node one through the command (skipped without ``node`` on PATH)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from pinochle_adapters.client import open_in_process
from pinochle_adapters.sdk import Server
from pinochle_cli import main
from pinochle_cli.adapter import STARTERS, command_for
from pinochle_cli.smoke import smoke

from .test_smoke import smoke_command


def test_the_python_starter_passes_the_smoke_check(tmp_path: Path) -> None:
    assert main(["adapter", "new", "python", str(tmp_path / "mine")]) == 0
    source = tmp_path / "mine" / "my_engine.py"
    spec = importlib.util.spec_from_file_location("my_engine", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # its serve() runs only as a script
    with open_in_process(Server(module.MyEngine()), validate=True) as engine:
        problems, good = smoke(engine)
    assert problems == []
    assert good == 2


def test_nothing_is_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "adapter.js").write_text("// mine\n", encoding="utf-8")
    assert main(["adapter", "new", "node", str(tmp_path)]) == 2
    assert "adapter.js" in capsys.readouterr().err
    assert (tmp_path / "adapter.js").read_text(encoding="utf-8") == "// mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adapter.js"]


@pytest.mark.parametrize("language", ["python", "node"])
def test_path_prints_the_shipped_folder(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["adapter", "path", language]) == 0
    folder = Path(capsys.readouterr().out.strip())
    assert folder == STARTERS[language]
    assert any(folder.iterdir())


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_the_node_starter_passes_the_smoke_command(tmp_path: Path) -> None:
    assert main(["adapter", "new", "node", str(tmp_path / "mine")]) == 0
    done = smoke_command(command_for("node", tmp_path / "mine"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_link_named_like_a_starter_file_is_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Even a link to nowhere: the starter is never written where the link points."""
    elsewhere, folder = tmp_path / "elsewhere" / "target.py", tmp_path / "eng"
    folder.mkdir()
    (folder / "my_engine.py").symlink_to(elsewhere)
    assert main(["adapter", "new", "python", str(folder)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert not elsewhere.exists() and not elsewhere.parent.exists()
