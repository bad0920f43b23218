"""Record or check a transcript of the CLI on the real corpus: every command and main option, piped,
--json and error cases, byte for byte with exit codes.

    python scripts/transcript.py record --index DIR   # write tests/golden/transcript.json
    python scripts/transcript.py check --index DIR    # exit 1 and list what differs

A restructuring must print the same bytes; a deliberate change of behaviour records the transcript
again in the same commit, so the diff of the golden file shows what a user now sees differently.
Paths that vary between machines (the index, a temporary folder, the checkout) are written as <INDEX>,
<TMP> and <CHECKOUT>.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "transcript.json"
FIXTURES = ROOT / "tests" / "fixtures"

# What differs between two builds of the same corpus and code: generation names, build times and
# the fingerprint (it hashes the code, so it changes with any refactoring).
_VOLATILE = [(re.compile(r"gen-\d{14}-\d+"), "<GENERATION>"),
             (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"), "<TIME>"),
             (re.compile(r"\b[0-9a-f]{16}-[0-9a-f]{12}\b"), "<FINGERPRINT>")]

# Each entry is the argument list after `rulebase`; <TMP> is a fresh empty folder per command.
COMMANDS: list[list[str]] = [
    ["--version"],
    ["--help"],
    ["lookup", "502.83a"],
    ["lookup", "502.83a", "--json"],
    ["lookup", "502.83a", "--full"],
    ["lookup", "502.83"],
    ["lookup", "502"],
    ["lookup", "702.19b"],
    ["lookup", "702.83a", "--as-of", "2010"],
    ["lookup", "cr2008:502.83a", "--full", "--json"],
    ["lookup", "4e p11"],
    ["lookup", "G5.19a"],
    ["lookup", "502.83z"],
    ["lookup", "520.83a"],
    ["lookup", "--index"],
    ["lookup", "-h"],
    ["search", "damage prevention"],
    ["search", "damage prevention", "--json"],
    ["search", "trample", "-e", "4e", "-n", "3"],
    ["search", "mana burn", "--as-of", "2009-06"],
    ["search", "sebzés", "--lang", "hu", "--json"],
    ["search", "\"combat damage\"", "-n", "5"],
    ["search", "trampel"],
    ["search", "mi történik ha elfogy a könyvtár", "-n", "3"],
    ["search", "deathtouch", "-e", "10e", "-n", "3"],
    ["search", "first strike", "-k", "glossary", "-n", "3"],
    ["search", "exalted", "-s", "ck2008", "--json"],
    ["search", "702.19a"],
    ["search", "trample", "-e", "7e"],
    ["search", "trample", "-n", "0"],
    ["search", "zzzzqqqq"],
    ["search", "can a creature with deathtouch and trample assign 1 damage to each blocker", "-n", "3"],
    ["define", "trample"],
    ["define", "mana burn", "--as-of", "2005"],
    ["define", "library", "--json"],
    ["define", "könyvtár"],
    ["define", "nosuchterm"],
    ["show", "cr2008:502.83a"],
    ["show", "rb4e:glossary.damage-prevention", "--json"],
    ["show", "cr2008:999.99z"],
    ["sources"],
    ["sources", "--json"],
    ["compare", "mana burn"],
    ["compare", "legends", "--editions", "4e,10e"],
    ["compare", "damage timing", "--as-of", "2005"],
    ["compare", "first strike"],
    ["compare", "mana burn", "--json"],
    ["compare", "mana burn", "--editions", "9x"],
    ["compare", "-h"],
    ["diff", "ck2008:306.5", "cr2008:306.5"],
    ["diff", "--term", "trample"],
    ["diff", "--term", "mana burn", "--json"],
    ["diff", "cr2008:306.5"],
    ["changes"],
    ["changes", "--from", "2009-05-01", "--to", "2009-07-11"],
    ["changes", "--from", "2020", "--kind", "glossary"],
    ["changes", "--from", "2019-01-01", "--to", "2019-06-01", "--json"],
    ["changes", "--from", "notadate"],
    ["history", "702.83a"],
    ["history", "510.2", "--as-of", "2005"],
    ["history", "cr2008:502.83a", "--json"],
    ["history", "702.19a"],
    ["history", "999.9z"],
    ["cite", "702.17", "--as-of", "2010-06-01"],
    ["cite", "CR 502.83a", "--as-of", "2008-10-01", "--json"],
    ["cite", "999.9z", "--as-of", "2010"],
    ["cite", "trample"],
    ["check", "<TMP>/missing.txt"],
    ["index", "status", "--json"],
    ["glossary", "build", "<TMP>/site"],
    ["glossary", "build", "<TMP>/md", "--format", "md"],
    ["glossary", "build", "<TMP>/x", "--format", "pdf"],
    ["add", "<TMP>/missing.txt"],
    ["add", "/dev/zero"],
    ["remove", "cr2008"],
    ["remove", "nosuchdoc"],
    ["lokup", "702.19b"],
    ["search"],
    ["lookup", "502.83a", "--index", "<TMP>/file-not-index"],
    ["--traceback", "lookup", "502.83a"],
]


def _env(index: Path, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RULEBASE_", "FORCE_COLOR", "PAGER"))}
    env.update({"RULEBASE_INDEX": str(index), "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40",
                "TERM": "dumb", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
                "RULEBASE_USER_CORPUS": str(tmp / "user-corpus"), "XDG_DATA_HOME": str(tmp / "data"),
                "XDG_CACHE_HOME": str(tmp / "cache")})  # XDG_STATE_HOME is kept: its key seals the index
    return env


def run(args: list[str], index: Path) -> dict:
    """One command's exit code, stdout and stderr, with machine-specific paths replaced."""
    with tempfile.TemporaryDirectory(prefix="rb-transcript-") as folder:
        tmp = Path(folder)
        (tmp / "file-not-index").write_text("not an index\n")
        argv = [a.replace("<TMP>", str(tmp)) for a in args]
        done = subprocess.run([sys.executable, "-m", "rulebase", *argv], capture_output=True,
                              env=_env(index, tmp), stdin=subprocess.DEVNULL, timeout=600, cwd=tmp)

        def clean(data: bytes) -> str:
            text = data.decode("utf-8", "surrogateescape").replace(str(tmp), "<TMP>").replace(str(index), "<INDEX>")
            text = text.replace(str(ROOT), "<CHECKOUT>")
            for pattern, placeholder in _VOLATILE:
                text = pattern.sub(placeholder, text)
            return text

        result = {"args": args, "exit": done.returncode, "stdout": clean(done.stdout), "stderr": clean(done.stderr)}
        written = sorted(p for p in tmp.rglob("*") if p.is_file() and p.name != "file-not-index")
        if written:  # what a writing command wrote counts as output too: one digest per file
            result["files"] = {str(p.relative_to(tmp)): hashlib.sha256(p.read_bytes()).hexdigest()[:16]
                               for p in written}
        return result


def run_all(commands: list[list[str]], index: Path) -> list[dict]:
    """run() of each command, in order: as many at a time as there are cores (each its own
    process, folder and environment; none writes to the index, so none sees another's work)."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as running:
        return list(running.map(lambda args: run(args, index), commands))


def record(index: Path) -> list[dict]:
    return run_all(COMMANDS, index)


def differences(index: Path) -> list[str]:
    """What the code prints now that the golden transcript does not (empty when identical)."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    problems = []
    if [g["args"] for g in golden] != COMMANDS:
        problems.append("the command list differs from the golden transcript: record it again")
        return problems
    for want, got in zip(golden, run_all([g["args"] for g in golden], index), strict=True):
        for key in ("exit", "stdout", "stderr", "files"):
            if got.get(key) != want.get(key):
                problems.append(f"rulebase {' '.join(want['args'])}: {key} differs\n"
                                f"--- want\n{str(want.get(key))[:1500]}\n--- got\n{str(got.get(key))[:1500]}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["record", "check"])
    parser.add_argument("--index", type=Path, required=True, help="a built index of the bundled corpus")
    opts = parser.parse_args()
    index = opts.index.resolve()
    if opts.action == "record":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(record(index), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {len(COMMANDS)} commands to {GOLDEN.relative_to(ROOT)}")
        return 0
    problems = differences(index)
    for problem in problems:
        print(problem)
    print(f"{len(COMMANDS) - len(problems)} of {len(COMMANDS)} commands print the golden bytes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
