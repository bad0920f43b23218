"""What the corpus already holds, as digests: `add` refuses a document it finds here.

A file is the same document as another when its bytes are (file_digest) or when its text reads the
same (text_digest: another encoding, other line ends or spacing). Besides the files the manifests
list, the releases inside the bundled archives count: re-adding one of them as a document of its
own relabelled today's rules.

The archives' digests are kept in the build cache (build/cache.py's folder), keyed by the archive's
bytes and the digest's scheme: reading them from the archives costs 5.9 s of an `add` (148
releases decoded, normalized and hashed), reading them kept, a few milliseconds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from rulebase.core.errors import SourceError
from rulebase.core.sources import Source
from rulebase.index.seal import keep
from rulebase.ingest.text import decode


def held_digests(known: list[Source], formats: set[str]) -> dict[str, str]:
    """Every digest of what `known` holds, naming its document; the archives' releases too when a
    document of their format is being added (`formats`)."""
    digests: dict[str, str] = {}
    for path, sid in reversed([(s.path, s.id) for s in known if s.path.is_file()]):
        data = path.read_bytes()
        bytes_digest = hashlib.sha256(data).hexdigest()
        digests[bytes_digest] = repr(sid)  # reversed: a file two documents share is named by the first
        digests[_kept_text_digest(bytes_digest, data)] = repr(sid)
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

        def read(source: Source = source) -> dict[str, str]:
            digests: dict[str, str] = {}
            for _, member, data in source_members(source):
                digests.setdefault(text_digest(data), f"{source.id!r} (its release {member.rpartition('/')[2]})")
            return digests

        try:
            for digest, name in kept(source.paths, source.id, read).items():
                found.setdefault(digest, name)
        except SourceError:
            continue  # an unreadable archive: the build says so
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

        def read(path: Path = path, parts: dict = parts) -> dict[str, str]:
            digests: dict[str, str] = {}
            for member in cached_members(path):
                if member.document in parts:
                    digests.setdefault(text_digest(member.data), f"{parts[member.document]!r} (its release "
                                                                 f"{member.name.rpartition('/')[2]})")
            return digests

        try:
            # (the documents' ids name the releases: they are part of what is kept)
            for digest, name in kept([path], "tournament-" + "-".join(sorted(map(str, parts.items()))), read).items():
                found.setdefault(digest, name)
        except SourceError:
            continue  # an unreadable archive: the build says so
    return found


def _kept_text_digest(bytes_digest: str, data: bytes) -> str:
    """text_digest(data), kept in the build cache under the bytes' digest: the corpus's documents
    are the same from one add to the next (1.1 s of an add for the 15 bundled files)."""
    # lazy: only an add needs it
    from rulebase.build.cache import cache_root

    name = hashlib.sha256(f"{SCHEME}\n{bytes_digest}".encode()).hexdigest()[:20]
    path = cache_root() / "held" / f"{name}.txt"
    try:
        held = path.read_text(encoding="utf-8")
        if held.startswith("text:") and len(held) == 69:
            return held
    except (OSError, ValueError):
        pass
    digest = text_digest(data)
    keep(path, digest.encode())
    return digest


SCHEME = "text_digest 1"  # changed with text_digest or the names kept: the kept digests are read again


def kept(paths: list[Path], label: str, read: Callable[[], dict[str, str]]) -> dict[str, str]:
    """`read()` (an archive's release digests), kept in the build cache under the archives' bytes,
    `label` and SCHEME; read again when the kept file is missing or unreadable. Kept as the state
    folder's shortcuts are (seal.keep): a cache folder that cannot be written costs the time,
    never the add."""
    # lazy: only an add needs it
    from rulebase.build.cache import cache_root, entry_key

    try:
        key = entry_key(paths, f"{SCHEME}\n{label}")
    except OSError:
        return read()  # (an unreadable archive: read() says so, as SourceError)
    path = cache_root() / "held" / f"{key}.json"
    try:
        held = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(held, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in held.items()):
            return held
    except (OSError, ValueError):
        pass
    digests = read()
    keep(path, json.dumps(digests, ensure_ascii=False).encode())
    return digests
