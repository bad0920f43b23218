"""Reading source bytes and the result type every parser returns.

Real files arrive with a BOM, CRLF or bare CR, or in a legacy code page; `decode` copes and
says what it did, so the ingest report can tell the user.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from rulebase.errors import SourceError
from rulebase.records import Record

ENCODINGS = ("utf-8", "cp1252", "latin-1")


@dataclass(slots=True)
class Warning_:
    """Something a parser could not place: reported with file and line, never dropped."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


@dataclass(slots=True)
class Parsed:
    """What a parser returns: records plus what the ingest report should say about them."""

    records: list[Record]
    warnings: list[Warning_] = field(default_factory=list)
    set_aside: Counter = field(default_factory=Counter)  # chrome kind -> lines set aside
    notes: list[str] = field(default_factory=list)  # free-form report lines
    meta: dict = field(default_factory=dict)  # document metadata (effective date...)


@dataclass(slots=True)
class Decoded:
    text: str
    encoding: str
    repairs: list[str]


def decode(data: bytes, name: str) -> Decoded:
    """Bytes to text with LF line endings. Raises SourceError for empty or binary input."""
    if not data.strip():
        raise SourceError("file is empty", name, "restore the file or remove it from sources.toml")
    repairs: list[str] = []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        repairs.append("removed UTF-8 byte-order mark")
        candidates: tuple[str, ...] = ("utf-8",)
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        candidates = ("utf-16",)
    else:
        candidates = ENCODINGS
    for encoding in candidates:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        break
    else:
        raise SourceError("bytes are not valid text in " + ", ".join(candidates), name,
                          "convert the file to UTF-8")
    if "\x00" in text:
        raise SourceError("file contains NUL bytes (binary data?)", name, "give a plain-text file")
    if "\r" in text:
        crlf = text.count("\r\n")
        text = text.replace("\r\n", "\n")
        bare = text.count("\r")
        text = text.replace("\r", "\n")
        if crlf:
            repairs.append(f"converted {crlf} CRLF line endings")
        if bare:
            repairs.append(f"converted {bare} bare CR line endings")
    if "\ufffd" in text:
        repairs.append(f"{text.count(chr(0xFFFD))} U+FFFD replacement characters kept as found")
    return Decoded(text, encoding, repairs)


def read_source(path: Path) -> Decoded:
    if not path.exists():
        raise SourceError("file not found", str(path), "restore it or fix 'file' in sources.toml")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read file ({exc.strerror})", str(path)) from None
    return decode(data, str(path))
