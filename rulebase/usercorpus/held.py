"""What the corpus already holds, as digests: `add` refuses a document it finds here.

A file is the same document as another when its bytes are (file_digest) or when its text reads the
same (text_digest: another encoding, other line ends or spacing). Besides the files the manifests
list, the releases inside the bundled archives count: re-adding one of them as a document of its
own relabelled today's rules.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from rulebase.core.errors import SourceError
from rulebase.core.sources import Source
from rulebase.ingest.text import decode


def held_digests(known: list[Source], formats: set[str]) -> dict[str, str]:
    """Every digest of what `known` holds, naming its document; the archives' releases too when a
    document of their format is being added (`formats`)."""
    digests: dict[str, str] = {}
    for path, sid in reversed([(s.path, s.id) for s in known if s.path.is_file()]):
        digests[file_digest(path)] = repr(sid)  # reversed: a file two documents share is named by the first
        digests[text_digest(path.read_bytes())] = repr(sid)
    if "comprules" in formats:
        digests.update(archived(known))
    if "tournament" in formats:
        digests.update(tournament_archived(known))
    return digests


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes: what `add` compares a stored copy with."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def text_digest(data: bytes) -> str:
    """The digest of a text file's bytes as its text reads: decoded whatever its encoding (a UTF-16
    or cp1252 copy is the same document), NFC, each line's spaces collapsed, blank lines and line
    ends ignored (a copy with CRLF or trailing spaces is the same document too)."""
    # lazy: only an add needs it
    import unicodedata

    try:
        text = decode(data, "").text
    except SourceError:
        text = data.decode("latin-1")
    lines = (" ".join(line.split()) for line in unicodedata.normalize("NFC", text).splitlines())
    return "text:" + hashlib.sha256("\n".join(line for line in lines if line).encode("utf-8")).hexdigest()


def archived(known: list[Source]) -> dict[str, str]:
    """The text digest of every release the archives hold, naming it: re-adding one of them
    relabelled today's rules as a document of its own (an identical release is the same release)."""
    # lazy: only this rarer path needs it
    from rulebase.ingest import ARCHIVES
    from rulebase.ingest.comprules.archive import source_members

    found: dict[str, str] = {}
    for source in (s for s in known if s.format in ARCHIVES):
        try:
            members = source_members(source)
        except SourceError:
            continue  # an unreadable archive: the build says so
        for _, member, data in members:
            found.setdefault(text_digest(data), f"{source.id!r} (its release {member.rpartition('/')[2]})")
    return found


def tournament_archived(known: list[Source]) -> dict[str, str]:
    """The text digest of every file the tournament archive holds, naming its document and file: a
    release of a bundled document re-added (in another encoding, with other spacing) is that release."""
    # lazy: only this rarer path needs it
    from rulebase.ingest import TOURNAMENT
    from rulebase.ingest.tournament.archive import cached_members

    found: dict[str, str] = {}
    for path in dict.fromkeys(s.path for s in known if s.format == TOURNAMENT):
        parts = {s.part: s.id for s in known if s.format == TOURNAMENT and s.path == path}
        try:
            members = cached_members(path)
        except SourceError:
            continue  # an unreadable archive: the build says so
        for member in members:
            if member.document in parts:
                found.setdefault(text_digest(member.data), f"{parts[member.document]!r} (its release "
                                                           f"{member.name.rpartition('/')[2]})")
    return found
