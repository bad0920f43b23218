"""Worker processes for a build: parsing the archive and writing index segments on both cores.

Workers die with their parent (Linux PR_SET_PDEATHSIG): a build killed mid-way must not leave
workers writing into a generation directory that the next builder is about to clean up.
"""

from __future__ import annotations

import os
import signal
from concurrent.futures import ProcessPoolExecutor


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
