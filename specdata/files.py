"""Writing the files a run or a command leaves behind: whole or not at all, and refused up front.

Every report, known-failures list, traffic log and site page goes through ``write_atomic`` (a
temporary file in the same folder, then ``os.replace``), so that a kill or a full disk leaves the
earlier file as it was; ``output_problem`` and ``folder_problem`` check an output path before any
work is done.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

__all__ = [
    "folder_problem",
    "output_problem",
    "read_at_most",
    "size_over",
    "temporary_beside",
    "unreadable",
    "write_atomic",
]


def read_at_most(path: str | Path, limit: int) -> bytes | None:
    """The file's bytes, or None when it holds more than ``limit``: at most ``limit + 1`` bytes
    are read, so the cap holds for a device (``/dev/zero``) or a pipe (``<(zcat ...)``), whose
    size the file system does not know. OSError as ``open`` raises it."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    return None if len(data) > limit else data


def size_over(path: str | Path, limit: int) -> str:
    """The size of a file ``read_at_most`` found over ``limit``, for a message: ``N bytes`` for
    a regular file, ``more than LIMIT bytes`` for a device or a pipe."""
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    return f"{size} bytes" if size > limit else f"more than {limit} bytes"


def temporary_beside(path: Path) -> Path:
    """A new empty file in ``path``'s folder, named after it, to be renamed onto it when whole
    (created as any file there would be: the user's umask, not mkstemp's 0600)."""
    while True:
        temporary = path.with_name(f".{path.name[:100]}.{secrets.token_hex(4)}.tmp")
        with contextlib.suppress(FileExistsError):
            temporary.open("xb").close()
            return temporary


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all: into a temporary file in
    the same folder, flushed to disk, then renamed onto ``path``. On any error the temporary
    file is removed, ``path`` is left as it was, and the OSError is raised."""
    path = Path(path)
    temporary = temporary_beside(path)
    try:
        with open(temporary, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def output_problem(path: str | Path, option: str) -> str | None:
    """Why ``path`` cannot be written as an output file, in one line naming ``option``; None
    when its folder exists and ``path`` is not a folder. Checked before a run starts, so that
    a missing folder is not found only once the work is done."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        return f"{option} {path}: is a folder; give a file name"
    if not folder.is_dir():
        return f"{option} {path}: the folder {folder} does not exist"
    if not os.access(folder, os.W_OK):
        return f"{option} {path}: the folder {folder} is not writable"
    return None


def folder_problem(path: str | Path, option: str) -> str | None:
    """Why ``path`` cannot be (or become) an output folder, in one line naming ``option``; None
    when it is a folder or can be created as one. One rule for every command's output: the
    folder it goes into must exist (an output folder is created, not its parents, so a typo in
    a path is not silently made into folders)."""
    path = Path(path)
    if path.exists():
        return None if path.is_dir() else f"{option} {path} is a file, not a folder"
    for parent in path.absolute().parents:
        if parent.exists():
            if not parent.is_dir():
                return f"{option} {path}: {parent} is a file, not a folder"
            break
    if not path.absolute().parent.is_dir():
        return f"{option} {path}: the folder {path.parent} does not exist"
    return None


def unreadable(path: str | Path, error: OSError) -> str:
    """Why ``path`` could not be read, for a message after its name: a folder in the project's
    own words (the system's differ: "Is a directory" on POSIX, "Permission denied" on Windows),
    else the system's reason."""
    if Path(path).is_dir():
        return "is a folder, not a file"
    return f"cannot read: {error.strerror or error}"
