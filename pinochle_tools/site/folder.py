"""Writing a site into a folder as a good guest: only the files the site owns are written or
removed. A site's files are listed in the folder's manifest (MANIFEST); a later build replaces
and removes only those. Any other file where the site would write one (a user's ``index.html``)
refuses the build in one line before anything is written; files of other names are left as they
are beside the site; a folder on the way that is a symbolic link the site did not make is never
written through."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from specdata.files import write_atomic

MANIFEST = ".pinochle-site.json"
"""The files of the site written in this folder (relative paths), for the next build."""


class SiteFolderError(ValueError):
    """The output folder holds something the site would replace or write through; the message
    names it."""


def write_site(out: Path, pages: Mapping[str, str | bytes]) -> None:
    """Write ``pages`` (relative path -> content) into ``out``, each whole (``write_atomic``);
    remove the files an earlier site here wrote and this one does not; record the manifest.
    SiteFolderError, before anything is written, if a page would replace a file no earlier site
    wrote or go through a symbolic link."""
    out = Path(out)
    owned = owned_files(out)
    for name in pages:
        _check(out, name, owned)
    for name, content in pages.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out / name, content)
    _remove(out, owned - set(pages))
    write_atomic(out / MANIFEST, json.dumps({"format": 1, "files": sorted(pages)}, indent=1))


def clear_site(out: Path) -> None:
    """Remove the site an earlier build wrote into ``out`` (its manifest's files), nothing else."""
    owned = owned_files(out)
    _remove(out, owned)
    with contextlib.suppress(OSError):
        if owned or (out / MANIFEST).is_file():
            (out / MANIFEST).unlink()


def owned_files(out: Path) -> set[str]:
    """The files the manifest in ``out`` lists (none without one, or with one that cannot be
    read): plain relative paths only, never one leading out of the folder."""
    try:
        document = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        listed = document["files"]
    except (OSError, ValueError, TypeError, KeyError):
        return set()
    if not isinstance(listed, list):
        return set()
    return {name for name in listed if isinstance(name, str) and _plain(name)}


def _plain(name: str) -> bool:
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\\" not in name


def _check(out: Path, name: str, owned: set[str]) -> None:
    parts = PurePosixPath(name).parts
    for depth in range(1, len(parts)):
        folder = out.joinpath(*parts[:depth])
        if folder.is_symlink():
            raise SiteFolderError(
                f"{folder}: a symbolic link; the site writes only into folders of its own "
                "(give an empty or new folder)"
            )
        if folder.exists() and not folder.is_dir():
            raise SiteFolderError(f"{folder}: not a folder, where the site puts its {parts[0]}")
    target = out / name
    if os.path.lexists(target) and name not in owned:
        raise SiteFolderError(
            f"{target}: not written by an earlier site here (no {MANIFEST} lists it), and the "
            "site would replace it: give an empty or new folder"
        )


def _remove(out: Path, names: set[str]) -> None:
    for name in sorted(names):
        target = out / name
        parts = PurePosixPath(name).parts
        if any(out.joinpath(*parts[:d]).is_symlink() for d in range(1, len(parts))):
            continue  # never through a link
        with contextlib.suppress(OSError):
            if target.is_file() and not target.is_symlink():
                target.unlink()
