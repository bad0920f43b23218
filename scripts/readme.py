#!/usr/bin/env python3
"""The examples of README.md and docs/*.md, run: each one's output is what the command prints today.

    python scripts/readme.py check [FILE ...] [--index DIR]    # list the examples whose output differs
    python scripts/readme.py update [FILE ...] [--index DIR]   # write today's outputs into the files

Without FILE, every documentation file: README.md, then docs/*.md. An example is an indented
block whose line starts "$ rulebase": the lines after it, up to the next "$ " line or the end of
the block, are its output. It runs in bash (pipes such as `| head` work) with this checkout's
`rulebase` first on PATH, piped (so the plain output), in a fresh folder (`glossary build site/`
writes there), against --index DIR (the default index else).
What changes from one build to the next is written as a placeholder on both sides: the index
folder <INDEX>, its generation gen-<ID>, and a build's time and length <WHEN> in <SECONDS> s.
tests/test_readme.py runs `check` on the bundled corpus, so an output that changes fails
until the documentation shows it.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
INDENT = "    "
TIMEOUT = 300  # seconds per example (a glossary build is the longest)


@dataclass
class Example:
    line: int  # 0-based line of the command in its file
    command: str
    output: list[str]  # as the file shows it, without the indent
    end: int  # the line after its output


def examples(text: str) -> list[Example]:
    lines = text.split("\n")
    found: list[Example] = []
    n = 0
    while n < len(lines):
        line = lines[n]
        if not line.startswith(f"{INDENT}$ rulebase"):
            n += 1
            continue
        start, n = n, n + 1
        output: list[str] = []
        while n < len(lines):
            here = lines[n]
            if here.startswith(f"{INDENT}$ "):
                break
            if here.startswith(INDENT):
                output.append(here[len(INDENT):])
            elif here.strip() == "" and n + 1 < len(lines) and lines[n + 1].startswith(INDENT) \
                    and not lines[n + 1].startswith(f"{INDENT}$ "):
                output.append("")  # a blank line inside the output
            else:
                break
            n += 1
        found.append(Example(start, line[len(INDENT) + 2:], output, n))
    return found


def documents() -> list[Path]:
    """Every file whose examples are checked: the README, then docs/*.md in name order."""
    return [README, *sorted(DOCS.glob("*.md"))]


def normalise(output: str, index: Path) -> list[str]:
    output = output.replace(str(index), "<INDEX>")
    output = re.sub(r"gen-\d{14}-\d+", "gen-<ID>", output)
    output = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ in [\d.]+ s", "<WHEN> in <SECONDS> s", output)
    return [line.rstrip() for line in output.rstrip("\n").split("\n")] if output.strip() else []


def run(example: Example, index: Path) -> list[str]:
    """What the example's command prints (stdout, then stderr), placeholders in place."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "RULEBASE_INDEX": str(index), "PYTHONPATH": str(ROOT)}
    env.pop("COLUMNS", None)
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(["bash", "-c", example.command], cwd=folder, env=env, capture_output=True,
                              text=True, timeout=TIMEOUT)
    return normalise(done.stdout + done.stderr, index)


def check(index: Path, path: Path = README) -> list[tuple[Example, list[str]]]:
    """The examples whose output differs, each with what it prints today."""
    out = []
    found = examples(path.read_text(encoding="utf-8"))
    # as many at a time as there are cores: each its own process and folder, and none writes to
    # the index or the user's corpus (the writing commands shown are refusals), so none sees another's
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as running:
        outputs = list(running.map(lambda example: run(example, index), found))
    for example, printed in zip(found, outputs, strict=True):
        if printed != example.output:
            out.append((example, printed))
    return out


def update(index: Path, path: Path = README) -> int:
    """Write today's outputs into the file; returns how many changed."""
    lines = path.read_text(encoding="utf-8").split("\n")
    changed = check(index, path)
    for example, printed in sorted(changed, key=lambda c: -c[0].line):
        lines[example.line + 1:example.end] = [f"{INDENT}{p}" if p else "" for p in printed]
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(changed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("check", "update"))
    parser.add_argument("files", nargs="*", type=Path, help="README.md and docs/*.md when none is given")
    parser.add_argument("--index", type=Path)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from rulebase.library import Library

    library = Library(args.index)
    library.ensure()
    index = library.index_dir.resolve()
    paths = [path.resolve() for path in args.files] or documents()
    if args.action == "update":
        for path in paths:
            print(f"{update(index, path)} examples updated in {shown(path)}")
        return 0
    differing = 0
    for path in paths:
        for example, printed in check(index, path):
            differing += 1
            print(f"{shown(path)}:{example.line + 1}: $ {example.command}")
            print("\n".join(f"  | {p}" for p in printed))
    print(f"{differing} examples differ")
    return 1 if differing else 0


def shown(path: Path) -> str:
    """A file's name as the messages give it: relative to the checkout when inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


if __name__ == "__main__":
    raise SystemExit(main())
