"""One exclusive lock per folder: builders of an index, writers of the user corpus."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def folder_lock(folder: str | os.PathLike, fail: Callable[[OSError], Exception],
                busy: Callable[[], Exception] | None = None) -> Iterator[None]:
    """Hold an flock on `folder/.lock` (creating the folder) for the with-block; a second holder
    waits, or with `busy` raises busy() at once. `fail` turns an OSError (read-only folder,
    permissions) into the caller's typed error."""
    try:
        os.makedirs(folder, exist_ok=True)
        handle = open(os.path.join(folder, ".lock"), "a+")  # noqa: SIM115 - held for the with-block
    except OSError as exc:
        raise fail(exc) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | (fcntl.LOCK_NB if busy is not None else 0))
    except BlockingIOError:
        handle.close()
        raise busy() from None  # (busy is set whenever LOCK_NB is)
    try:
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()


def held(folder: str | os.PathLike) -> bool:
    """Whether another process holds `folder`'s lock now (a build running): asked without
    waiting, and without creating anything."""
    try:
        handle = open(os.path.join(folder, ".lock"), "rb")  # noqa: SIM115 - closed below
    except OSError:
        return False  # no lock file: nobody has built here
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    else:
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False
    finally:
        handle.close()
