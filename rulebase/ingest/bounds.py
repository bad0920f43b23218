"""What a document added with `rulebase add` may be: text, not a program or an archive
(binary_kind), and of a size the parsers and the index handle in seconds (check_lines,
MAX_RECORDS).

The bounds sit above the largest real documents (a Comprehensive Rules release: 1.7 MB, 13,287
lines of text, 4,275 records; the longest line, Crystal Keep 2008's one-line summary, 37,260
characters) and below what costs minutes and gigabytes: a 50 MB rules-shaped
file took 4 min 46 s and 3.1 GB, a 10 MB line 45 s and 1.17 GB, a 200,000-line release 202 s.
A bound crossed is a usage error naming the file (and the line), before anything is stored or
parsed. Pure: bytes or text in, an answer or a typed error out.
"""

from __future__ import annotations

from rulebase.core.errors import UsageError

MAX_LINE = 256 * 1024  # characters on one line (the longest real line: 37,260)
MAX_LINES = 20_000  # lines that hold text (a release: at most 13,287)
MAX_RECORDS = 10_000  # records parsed from one document (a release: at most 4,275)


def check_lines(text: str, name: str) -> None:
    """A UsageError when `text` has a line longer than MAX_LINE characters (naming the line) or
    more than MAX_LINES lines with text; cheap next to parsing (one pass in C)."""
    lines = text.split("\n")
    if max(map(len, lines)) > MAX_LINE:
        at = next(n for n, line in enumerate(lines) if len(line) > MAX_LINE)
        raise UsageError(f"{name} line {at + 1} is {len(lines[at]):,} characters long; rulebase add takes lines of at "
                         f"most {MAX_LINE:,}", hint="check that this is a rules text, or break the line")
    filled = sum(1 for line in lines if line.strip())
    if filled > MAX_LINES:
        raise UsageError(f"{name} has {filled:,} lines of text; rulebase add takes documents of at most {MAX_LINES:,}",
                         hint="check that this is one rules document, or split it")


_MAGIC = ((b"\x7fELF", "a program (ELF)"), (b"MZ", "a Windows program"),
          (b"\xcf\xfa\xed\xfe", "a macOS program"), (b"\xca\xfe\xba\xbe", "a macOS program or Java class"),
          (b"%PDF-", "a PDF document"), (b"PK\x03\x04", "a ZIP archive (or a Word or OpenDocument file)"),
          (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Microsoft Office file"),
          (b"\x1f\x8b", "a gzip archive"), (b"\xfd7zXZ\x00", "an xz archive"), (b"BZh", "a bzip2 archive"),
          (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"), (b"\x89PNG\r\n\x1a\n", "a PNG image"),
          (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"), (b"SQLite format 3\x00", "an SQLite database"))
_TEXT_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")  # decode() reads these
_CONTROL_BYTES = bytes(b for b in range(32) if b not in b"\t\n\r\x0b\x0c\x1b")


def binary_kind(data: bytes) -> str | None:
    """What `data` looks like when it is not text ("a program (ELF)", "a PDF document", "binary
    data"), else None. A known signature counts only when binary bytes follow it (a text may
    begin "MZ"); without one, NUL bytes (outside UTF-16 text) or a sample of which
    more than a tenth is control bytes mean binary data."""
    sample = data[:65536]
    if sample.startswith(_TEXT_BOMS):
        return None
    binary = b"\x00" in sample[:4096] or _undecodable(sample)
    for magic, kind in _MAGIC:
        if sample.startswith(magic) and binary:
            return kind
    if b"\x00" in sample:
        odd, even = sample[1::2].count(0), sample[0::2].count(0)
        if max(odd, even) * 10 >= len(sample) * 4:  # as ingest.text.decode tells UTF-16 without a BOM
            try:
                text = sample[:len(sample) // 2 * 2].decode("utf-16-le" if odd > even else "utf-16-be")
            except UnicodeDecodeError:
                return "binary data"
            if sum(ch < " " and ch not in "\t\n\r\x0b\x0c\x1b" for ch in text) * 100 <= len(text):
                return None
        return "binary data"
    if sum(sample.count(b) for b in _CONTROL_BYTES) * 10 > len(sample):
        return "binary data"
    return None


def _undecodable(sample: bytes) -> bool:
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < len(sample) - 3  # not just a character cut at the end of the sample
    return False
