"""Worker processes for a build: parsing the archive and writing index segments on both cores.

Workers die with their parent (Linux PR_SET_PDEATHSIG): a build killed mid-way must not leave
workers writing into a generation directory that the next builder is about to clean up.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _die_with_parent() -> None:
    # lazy: only this rarer path needs it
    import gc

    # A forked worker inherits the parent's heap (every record parsed so far): without this, each
    # of its garbage collections walks all of it, which tripled a worker's time. A worker makes no
    # long-lived cycles and exits when its task is done.
    gc.freeze()
    gc.disable()
    try:
        # lazy: only this rarer path needs it
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: workers end when their task queue closes
        pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def workers(wanted: int | None = None) -> int:
    """How many worker processes to use: RULEBASE_WORKERS, else the cores, at most 4."""
    env = os.environ.get("RULEBASE_WORKERS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(wanted or os.cpu_count() or 1, 4))


def pool(n: int) -> ProcessPoolExecutor:
    # lazy: only this rarer path needs it
    import multiprocessing

    return ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("fork"),
                               initializer=_die_with_parent)


_INHERITED: tuple | None = None  # (fn, items) of the running map_inherited: what its forked workers read


def map_inherited(fn: Callable[[T], R], items: list[T], workers: int, min_part: int) -> list[R]:
    """[fn(item) for item in items], in consecutive parts on up to `workers` forked processes when
    each gets at least `min_part` items. The workers inherit `fn` and `items` (a closure over the
    build's records, compressors, a vocabulary: nothing is pickled but the results), so `fn` may
    hold what cannot be pickled. Parts are a quarter of a worker's share: the build's other
    processes use the same cores, and small parts keep both busy to the end."""
    global _INHERITED
    n = min(workers, len(items) // max(1, min_part))
    if n < 2:
        return [fn(item) for item in items]
    size = -(-len(items) // (n * 4))
    _INHERITED = (fn, items)
    try:
        with pool(n) as running:
            parts = list(running.map(_inherited_part, range(0, len(items), size), repeat(size)))
    finally:
        _INHERITED = None
    return [result for part in parts for result in part]


def _inherited_part(start: int, size: int) -> list:
    fn, items = _INHERITED  # type: ignore[misc] - set before the pool forked
    return [fn(item) for item in items[start:start + size]]


class WorkerDied(RuntimeError):
    """A Beside process ended without a word: killed (SIGKILL, the OOM killer)."""


def exhausted(exc: BaseException) -> bool:
    """Whether `exc` (or what caused it) is a build running out of memory or losing a worker
    process: MemoryError, a pool whose worker was killed, a Beside that died."""
    # lazy: only this rarer path needs it
    from concurrent.futures.process import BrokenProcessPool

    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, (MemoryError, BrokenProcessPool, WorkerDied)):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


class Beside:
    """Run `fn(*args)` in a forked process while the caller goes on (its arguments are inherited,
    not pickled: the build's records cost nothing to hand over); `wait()` returns when it is done
    and raises what it raised. The worker dies with its parent, like the pool's. With `spawns`,
    it may start workers of its own (multiprocessing refuses children to a daemon process); it
    must then be waited for, or the parent's exit waits for it."""

    def __init__(self, fn, *args, spawns: bool = False):
        # lazy: only this rarer path needs it
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self._receive, send = context.Pipe(duplex=False)
        self._process = context.Process(target=_beside, args=(send, fn, args), daemon=not spawns)
        self._process.start()
        send.close()

    def wait(self) -> None:
        try:
            outcome = self._receive.recv()
        except EOFError:  # killed without a word
            outcome = WorkerDied("a build worker died")
        finally:
            self._process.join()
            self._receive.close()
        if outcome is not None:
            raise outcome


def _beside(send, fn, args) -> None:
    _die_with_parent()
    try:
        fn(*args)
        outcome = None
    except BaseException as exc:  # noqa: BLE001 - handed to the parent, which raises it
        outcome = _portable(exc)
    send.send(outcome)
    send.close()


def _portable(exc: BaseException) -> BaseException:
    """`exc` as it survives pickling: SQLite's 'disk is full' keeps its meaning as ENOSPC (the
    error code attribute would be lost), anything unpicklable becomes a RuntimeError."""
    # lazy: only this rarer path needs it
    import errno
    import pickle
    import sqlite3

    if isinstance(exc, sqlite3.OperationalError) and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
        return OSError(errno.ENOSPC, str(exc))
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # noqa: BLE001 - any failure to pickle
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc
