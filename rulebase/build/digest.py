"""Which code shapes records and the index, and its digest: a parser or schema change means a
rebuild, a ranking change (rulebase.search) does not."""

from __future__ import annotations

import hashlib
from pathlib import Path

from rulebase.index.generation import SCHEMA_VERSION

_CODE_DIRS = ("ingest", "index", "build")  # parsers, the index's layout and schema, the writer
_CODE_FILES = ("core/records.py", "core/value.py", "core/cardnames.py", "core/eras.py", "core/pattern.py")


def code_files() -> list[Path]:
    """The code that shapes records and the index."""
    root = Path(__file__).resolve().parents[1]
    files = sorted(p for d in _CODE_DIRS for p in (root / d).rglob("*.py"))
    return files + [root / name for name in _CODE_FILES]


def code_digest() -> str:
    """Digest of the code that shapes records and the index: a parser change means a rebuild."""
    digest = hashlib.sha256(SCHEMA_VERSION.encode())
    root = Path(__file__).resolve().parents[1]
    for path in code_files():
        try:
            digest.update(str(path.relative_to(root)).encode() + path.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()[:12]
