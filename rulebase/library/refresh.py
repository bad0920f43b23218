"""A rebuild in a process of its own, while reads answer from the last good generation.

When the corpus changed under a built index (an `add` or `remove` killed half way, a user's
document edited), the generation on disk was built by this code and still reads correctly; only
the documents differ. A read then answers from it at once (a build with an added release takes
7-20 s) and starts this module detached, as `git gc --auto` does: the build takes the index's lock,
so later reads also answer from the last generation until it is published, and a second refresh
started meanwhile finds the lock held and ends. A build this code cannot read the old generation
for (the code changed) still happens in the foreground.

    python -m rulebase.library.refresh INDEX_DIR CORPUS_DIR
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

NICENESS = 10  # the build yields the CPU to the reads it runs beside (2 cores, a build uses both)


def start(index_dir: Path, corpus_dir: Path) -> bool:
    """Start the rebuild detached from this process (its own session, no terminal, no output: a
    failure is remembered beside the generations, as a foreground build's is, and said by the
    next read); False when it could not be started."""
    # lazy: only a read of a stale index starts a process
    import subprocess

    try:
        subprocess.Popen([sys.executable, "-m", "rulebase.library.refresh", str(index_dir), str(corpus_dir)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True, close_fds=True)
    except OSError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Bring the index up to date, unless another command is building it (IndexBusy: its build
    answers). Exit 0 when the index is current or another builds it, 1 when the build failed."""
    # lazy: the library imports this module
    from rulebase.core.errors import RulebaseError
    from rulebase.library import Library

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m rulebase.library.refresh INDEX_DIR CORPUS_DIR", file=sys.stderr)
        return 2
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    library = Library(Path(args[0]), Path(args[1]), typed=True)
    try:
        library.ensure()  # (not beside: this is the build)
    except RulebaseError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
