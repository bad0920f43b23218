"""Reading source bytes and the result type every parser returns.

Real files arrive with a BOM, CRLF or bare CR, or in a legacy code page; `decode` copes and
says what it did, so the ingest report can tell the user.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from rulebase.core.errors import SourceError
from rulebase.core.records import Record
from rulebase.core.value import Value

ENCODINGS = ("utf-8", "cp1252", "latin-1")


class Warning_(Value):
    """Something a parser could not place: reported with file and line, never dropped."""

    __slots__ = ("file", "line", "message")

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}" if self.line else f"{self.file}: {self.message}"


class Parsed(Value):
    """What a parser returns: records plus what the ingest report should say about them."""

    __slots__ = ("records", "warnings", "set_aside", "notes", "meta")

    def __init__(self, records: list[Record], warnings: list[Warning_] | None = None,
                 set_aside: Counter | None = None, notes: list[str] | None = None, meta: dict | None = None) -> None:
        self.records = records
        self.warnings = [] if warnings is None else warnings
        self.set_aside = Counter() if set_aside is None else set_aside  # chrome kind -> lines set aside
        self.notes = [] if notes is None else notes  # free-form report lines
        self.meta = {} if meta is None else meta  # document metadata (effective date...)


class Decoded(Value):
    __slots__ = ("text", "encoding", "repairs")

    def __init__(self, text: str, encoding: str, repairs: list[str]) -> None:
        self.text = text
        self.encoding = encoding
        self.repairs = repairs


def decode(data: bytes, name: str) -> Decoded:
    """Bytes to text with LF line endings. Raises SourceError for empty or binary input.

    Fallback order: a byte-order mark decides (UTF-8, UTF-32, UTF-16); else UTF-16 without a BOM
    when every other byte is NUL; else strict UTF-8; else UTF-8 with the few bad bytes replaced
    when the file is plainly UTF-8 (valid multi-byte sequences outnumber bad bytes); else cp1252;
    else latin-1 (which accepts any byte). `encoding` and `repairs` say what happened.
    """
    if not data.strip():
        raise SourceError("file is empty", name, "restore the file or remove it from sources.toml")
    repairs: list[str] = []
    text, encoding = _decode_bytes(data, name, repairs)
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
        text = _repair_lost_quotes(text, repairs)
    return Decoded(text, encoding, repairs)


_BOMS = ((b"\xef\xbb\xbf", "utf-8", "removed UTF-8 byte-order mark"),
         (b"\xff\xfe\x00\x00", "utf-32-le", "removed UTF-32 byte-order mark"),
         (b"\x00\x00\xfe\xff", "utf-32-be", "removed UTF-32 byte-order mark"),
         (b"\xff\xfe", "utf-16-le", "removed UTF-16 byte-order mark"),
         (b"\xfe\xff", "utf-16-be", "removed UTF-16 byte-order mark"))
_UTF8_MULTI = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _decode_bytes(data: bytes, name: str, repairs: list[str]) -> tuple[str, str]:
    for bom, encoding, note in _BOMS:
        if data.startswith(bom):
            repairs.append(note)
            return _strict(data[len(bom):], encoding, name), encoding
    sample = data[:4096]
    if len(sample) >= 4 and sample.count(0) * 10 >= len(sample) * 4:
        odd, even = sample[1::2].count(0), sample[0::2].count(0)
        if max(odd, even) * 10 >= len(sample) * 4:  # ASCII text in UTF-16: one NUL per character
            encoding = "utf-16-le" if odd > even else "utf-16-be"
            repairs.append(f"no byte-order mark: read as {encoding} (every other byte is NUL)")
            return _strict(data, encoding, name), encoding
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    loose = data.decode("utf-8", errors="replace")
    bad = loose.count("\ufffd") - data.count("\ufffd".encode())
    if len(_UTF8_MULTI.findall(data)) >= 2 * bad:
        repairs.append(f"replaced {bad} undecodable byte(s) with U+FFFD (the rest is UTF-8)")
        return loose, "utf-8"
    for encoding in ENCODINGS[1:]:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise SourceError("bytes are not valid text in " + ", ".join(ENCODINGS), name,  # unreachable: latin-1
                      "convert the file to UTF-8")


def _strict(data: bytes, encoding: str, name: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise SourceError(f"not valid {encoding} at byte {exc.start}", name, "convert the file to UTF-8") from None


_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\ufffd(?=(?:s|t|d|m|ll|re|ve)\b)")
_OPEN_QUOTE = re.compile(r"(?:(?<=^)|(?<=[\s(\[]))\ufffd(?=\w)", re.MULTILINE)
_CLOSE_QUOTE = re.compile(r"(?<=[\w.,!?)])\ufffd(?=[\s.,;:!?)\]]|$)", re.MULTILINE)
_PAIR_SPAN = 400  # most characters between the two marks of a restored pair of quotes


def _repair_lost_quotes(text: str, repairs: list[str]) -> str:
    """U+FFFD where an old file lost its curly quotes: apostrophes come back, and quotation marks
    only in pairs (an opening one before a word, then a closing one after a word, within a few
    lines): a lone one after a word is more likely a lost (TM), (R) or (C) ('Magic: The
    Gathering\ufffd Comprehensive Rules') and is kept as found."""
    text, apostrophes = _APOSTROPHE.subn("'", text)
    marks = sorted([(m.start(), "open") for m in _OPEN_QUOTE.finditer(text)]
                   + [(m.start(), "close") for m in _CLOSE_QUOTE.finditer(text)])
    paired: list[int] = []
    for (at, kind), (nxt, nkind) in zip(marks, marks[1:], strict=False):
        if kind == "open" and nkind == "close" and nxt - at <= _PAIR_SPAN and "\n\n" not in text[at:nxt]:
            paired += [at, nxt]
    if paired:
        chars = list(text)
        for at in paired:
            chars[at] = '"'
        text = "".join(chars)
    if apostrophes or paired:
        repairs.append(f"restored {apostrophes} apostrophe(s) and {len(paired)} quotation mark(s) "
                       "from U+FFFD")
    left = text.count("\ufffd")
    if left:
        repairs.append(f"{left} U+FFFD replacement characters kept as found")
    return text


def read_source(path: Path) -> Decoded:
    if not path.exists():
        raise SourceError("file not found", str(path), "restore it or fix 'file' in sources.toml")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read file ({exc.strerror})", str(path)) from None
    return decode(data, str(path))
