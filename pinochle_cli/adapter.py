"""``pinochle adapter new python|node DIR`` writes a starter engine that passes ``pinochle smoke``;
``pinochle adapter path python|node|ci`` prints where the shipped starter, example or CI recipes
live.

Python: a small engine on the SDK (pinochle_cli/starters/python). Node: the shipped example
(pinochle_adapters/examples/node), dependency-free. Nothing is overwritten.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import pinochle_adapters
from specdata import CI_DIR
from specdata.files import folder_problem

STARTERS: dict[str, Path] = {
    "python": Path(__file__).resolve().parent / "starters" / "python",
    "node": Path(pinochle_adapters.__file__).resolve().parent / "examples" / "node",
}
"""Language -> the folder copied by ``adapter new``."""
ENTRY = {"python": "my_engine.py", "node": "adapter.js"}
"""Language -> the file that starts the engine."""
SHIPPED_SUFFIXES = (".py", ".js", ".md")
"""What is copied from a starter folder (not caches)."""


def starter_files(language: str) -> list[Path]:
    """The files of a starter, in name order."""
    folder = STARTERS[language]
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in SHIPPED_SUFFIXES)


def command_for(language: str, directory: Path) -> str:
    """The command line that starts the written engine (the running Python for a Python one: it
    is the one with pinochle_adapters installed)."""
    entry = str(directory / ENTRY[language])
    runner = sys.executable if language == "python" else "node"
    return shlex.join([runner, entry])


def write_starter(language: str, directory: Path) -> list[Path]:
    """Copy the starter into ``directory`` (created if missing); raises FileExistsError naming
    the first file that is already there, before writing anything."""
    files = starter_files(language)
    for source in files:
        target = directory / source.name
        if os.path.lexists(target):  # a link too, even one to nowhere: never written through
            raise FileExistsError(f"{target} exists already: nothing written")
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for source in files:
        target = directory / source.name
        # A new file (O_EXCL, which no link satisfies): one planted meanwhile is not followed.
        with source.open("rb") as read, target.open("xb") as write:
            shutil.copyfileobj(read, write)
        written.append(target)
    return written


def parser() -> argparse.ArgumentParser:
    """The arguments of ``pinochle adapter``."""
    p = argparse.ArgumentParser(
        prog="pinochle adapter", description="Start an engine adapter from a working one."
    )
    sub = p.add_subparsers(dest="adapter_command", required=True)
    new = sub.add_parser("new", help="write a starter adapter that passes `pinochle smoke`")
    new.add_argument("language", choices=sorted(STARTERS))
    new.add_argument("directory", type=Path, help="folder to write into (created if missing)")
    path = sub.add_parser(
        "path", help="print the folder of the shipped starter or example, or of the CI recipes"
    )
    path.add_argument("language", choices=sorted([*STARTERS, "ci"]))
    return p


def main(argv: Sequence[str]) -> int:
    """``pinochle adapter new|path``."""
    args = parser().parse_args(list(argv))
    if args.adapter_command == "path":
        print(CI_DIR if args.language == "ci" else STARTERS[args.language])
        return 0
    problem = folder_problem(args.directory, "folder")
    if problem is not None:
        print(f"pinochle adapter new: {problem}", file=sys.stderr)
        return 2
    try:
        written = write_starter(args.language, args.directory)
    except OSError as err:
        print(f"pinochle adapter new: {err}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    command = command_for(args.language, args.directory)
    print("\nnext:")
    print(f"  pinochle smoke --engine {shlex.quote(command)}")
    print(f"  pinochle test --engine {shlex.quote(command)} --conformance-report report.json")
    return 0
