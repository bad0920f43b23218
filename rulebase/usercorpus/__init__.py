"""Documents users add themselves (`rulebase add`): kept in a per-user corpus, never in corpus/.

The per-user corpus is a folder (RULEBASE_USER_CORPUS, else $XDG_DATA_HOME/rulebase/corpus)
with its own sources.toml and a copy of every added file, named after the document id. Ids
are checked against a strict pattern before they touch a path, so no id can leave the folder.

Writers (add, remove) hold the folder lock while they re-read the manifest, pick ids, write the
copies and then the manifest, so concurrent commands never share an id or undo each other; what a
killed writer left is deleted by the next. Before writing, a writer lists every name it is about
to create in `.rulebase-pending.json`; only names listed there (and not in the manifest) are ever
cleaned up, so the user's own files in the folder (notes, a rules file not yet added) are never
touched, and no new copy is given the name of a file already there.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tomllib
from datetime import date as _date
from pathlib import Path

from rulebase.core.errors import ManifestError, NotFound, NotText, SourceError, UsageError
from rulebase.core.locking import folder_lock
from rulebase.core.sources import (
    ENV_USER_CORPUS,
    MANIFEST_NAME,
    REQUIRED,
    Source,
    is_edition,
    user_corpus_dir,
)
from rulebase.core.value import Value, replace
from rulebase.ingest import parser_for
from rulebase.ingest.bounds import MAX_RECORDS, binary_kind, check_lines
from rulebase.ingest.detect import Detected, detect, detect_as
from rulebase.ingest.text import decode
from rulebase.usercorpus.held import file_digest, held_digests, text_digest

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
PENDING = ".rulebase-pending.json"  # the names a writer is about to create (see clean_leftovers)
MAX_BYTES = 8 * 1024 * 1024  # the largest real rules document is 1.7 MB (ingest/bounds.py)
_CREDITS = {"comprules": "Magic: The Gathering Comprehensive Rules (C) Wizards of the Coast",
            "crystalkeep-2008": "Rulings summary by Stephen D'Angelo, Crystal Keep",
            "crystalkeep-1999": "Rules summary by Stephen D'Angelo, Crystal Keep",
            "tournament": "Magic tournament documents (C) Wizards of the Coast"}
_PREFIX = {"comprules": "cr", "crystalkeep-2008": "ck", "crystalkeep-1999": "ck", "forum-rulebook": "rb",
           "hu-guide": "hu-guide", "tournament": "tr"}
_HEADER = ("# Documents added with 'rulebase add' (remove them with 'rulebase remove ID').\n"
           "# Edition labels: 4e, 5e, 6e, 10e, or crYYYY for rules outside those eras.\n")


def check_id(doc_id: str) -> str:
    """A document id safe as a file name and in record ids ('cr2025', 'ck2009-02')."""
    if not ID_PATTERN.match(doc_id):
        raise UsageError(f"invalid document id {doc_id!r}",
                         hint="use 1-40 lowercase letters, digits and '-', starting with a letter or digit")
    return doc_id


def load_user_sources(reserved: set[str] | None = None) -> list[Source]:
    """User-added sources, marked bundled=False; none when the user has added nothing."""
    folder = Path(user_corpus_dir())
    manifest = folder / MANIFEST_NAME
    try:
        if not manifest.is_file():
            return []
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ManifestError(f"cannot read the user corpus ({exc.strerror})", str(manifest),
                            f"fix its permissions or set {ENV_USER_CORPUS} to another folder") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"not valid TOML ({exc})", str(manifest), "fix it or delete the entry") from None
    entries = data.get("source", [])
    sources: list[Source] = []
    seen = set(reserved or ())
    for n, entry in enumerate(entries if isinstance(entries, list) else [None], 1):
        where = f"{manifest} [[source]] #{n}"
        if not isinstance(entry, dict):
            raise ManifestError("entry is not a table", where)
        missing = [k for k in REQUIRED if not isinstance(entry.get(k), str) or not entry.get(k)]
        if missing:
            raise ManifestError(f"missing or empty field(s): {', '.join(missing)}", where)
        if not ID_PATTERN.match(entry["id"]) or entry["id"] in seen:
            raise ManifestError(f"id {entry['id']!r} is invalid or already used", where,
                                "ids are lowercase letters, digits and '-', unique across both corpora")
        if not is_edition(entry["edition"]):
            raise ManifestError(f"unknown edition {entry['edition']!r}", where, "use 4e, 5e, 6e, 10e or crYYYY")
        if Path(entry["file"]).name != entry["file"] or entry["file"].startswith("."):
            raise ManifestError(f"file {entry['file']!r} must be a plain file name inside {folder}", where)
        seen.add(entry["id"])
        known = {k: entry[k] for k in REQUIRED}
        sources.append(Source(**known, path=folder / entry["file"], part=entry.get("part"),
                              edition_note=entry.get("edition_note"), bundled=False))
    return sources


class Added(Value):
    __slots__ = ("source", "detected", "encoding", "repairs", "records", "kinds")

    def __init__(self, source: Source, detected: Detected, encoding: str, repairs: list[str], records: int,
                 kinds: dict[str, int] | None = None) -> None:
        self.source = source
        self.detected = detected
        self.encoding = encoding
        self.repairs = repairs
        self.records = records
        self.kinds = {} if kinds is None else kinds


class _Checked(Value):
    """One file read, detected and parsed, not yet written: what the locked step needs."""

    __slots__ = ("path", "data", "digest", "found", "label", "encoding", "repairs", "kinds", "records")

    def __init__(self, path: Path, data: bytes, digest: str, found: Detected, label: str, encoding: str,
                 repairs: list[str], kinds: dict[str, int], records: int) -> None:
        self.path = path
        self.data = data
        self.digest = digest
        self.found = found
        self.label = label
        self.encoding = encoding
        self.repairs = repairs
        self.kinds = kinds
        self.records = records


def add_document(path: Path, existing: list[Source], fmt: str | None = None, edition: str | None = None,
                 doc_id: str | None = None, title: str | None = None) -> Added:
    """Add one file: `add_documents` with a single path."""
    return add_documents([path], existing, fmt, edition, doc_id, title)[0]


def add_documents(paths: list[Path], existing: list[Source], fmt: str | None = None,
                  edition: str | None = None, doc_id: str | None = None, title: str | None = None,
                  checked: list | None = None) -> list[Added]:
    """Detect and parse every file, then copy them all into the user corpus with one manifest write.

    Any bad file stops the batch before anything is written. Ids, duplicate checks and the
    manifest are decided under the folder lock from the manifest as it is on disk then, not from
    `existing` (only its bundled sources are used), so concurrent adds and removes cannot collide.
    `checked`: what check_documents already read of the same paths (not read again)."""
    if checked is None:
        checked = check_documents(paths, fmt, edition, doc_id)
    bundled = [s for s in existing if s.bundled]
    folder = Path(user_corpus_dir())
    with _locked(folder):
        users = load_user_sources({s.id for s in bundled})
        clean_leftovers(folder, users)
        try:
            return _commit(folder, checked, bundled, users, doc_id, title, edition)
        except BaseException:
            _tidy(folder, {s.id for s in bundled})  # copies written before the failure are orphans now
            raise


def check_documents(paths: list[Path], fmt: str | None = None, edition: str | None = None,
                    doc_id: str | None = None) -> list:
    """Every file read, decoded, detected and parsed, and the options checked; nothing written
    (a bad file is refused before an index folder or a lock is made for it)."""
    if doc_id is not None and len(paths) > 1:
        raise UsageError(f"--id names one document, but {len(paths)} files were given",
                         hint="add the files one at a time to choose each id")
    if doc_id is not None:
        check_id(doc_id)
    if fmt is not None and fmt not in _PREFIX:  # the text formats (an archive is not added this way)
        raise UsageError(f"unknown format {fmt!r}", hint="use one of " + ", ".join(sorted(_PREFIX)))
    if edition is not None and not is_edition(edition):
        raise UsageError(f"unknown edition {edition!r}", hint="use 4e, 5e, 6e, 10e or crYYYY, e.g. cr2025")
    checked: list[_Checked] = []
    for path in paths:
        item = _check(path, fmt, edition)
        twin = next((c.path for c in checked if c.digest == item.digest), None)
        if twin is not None:
            raise UsageError(f"{path} has the same bytes as {twin}", hint="give each document once")
        checked.append(item)
    return checked


def _check(path: Path, fmt: str | None, edition: str | None) -> _Checked:
    """Read (regular files only, bounded), decode, detect and parse `path`; nothing is written."""
    # lazy: only this rarer path needs it
    from collections import Counter


    data = _read(path)
    kind = binary_kind(data)
    if kind is not None:  # else decode() read a program as UTF-16 and failed 'at byte 872'
        raise NotText(str(path), kind)
    decoded = decode(data, str(path))
    try:
        check_lines(decoded.text, str(path))  # before parsing: a parse's time grows with its lines
    except UsageError:
        # a release whose line breaks were lost is a few huge lines: say that, not just "too long"
        from rulebase.ingest.comprules.release import lost_breaks  # lazy: only this rarer path needs it

        lost_breaks(decoded.text.splitlines(), str(path))
        raise
    found = detect(decoded.text, str(path)) if fmt is None else detect_as(decoded.text, str(path), fmt)
    label = edition or found.edition
    if label is None:
        raise UsageError(f"{path}: the file does not say which edition's rules it follows",
                         hint="pass --edition 4e, 5e, 6e, 10e or crYYYY (the year its rules took effect)")
    probe = _source(found, label, "probe", path, None, edition)
    parsed = parser_for(found.format, str(path))(decoded.text, probe)  # the bytes that will be stored
    if not parsed.records:
        raise SourceError(f"no records found by the {found.format!r} parser", str(path),
                          "pass --format with the file's real format")
    if len(parsed.records) > MAX_RECORDS:
        raise UsageError(f"{path} holds {len(parsed.records):,} records; rulebase add takes documents of at most "
                         f"{MAX_RECORDS:,} (a Comprehensive Rules release has at most 4,275)",
                         hint="check that this is one rules document, or split it")
    kinds = dict(sorted(Counter(r.kind for r in parsed.records).items()))
    return _Checked(path, data, hashlib.sha256(data).hexdigest(), found, label, decoded.encoding,
                    decoded.repairs, kinds, len(parsed.records))


def _source(found: Detected, label: str, new_id: str, path: Path, title: str | None,
            edition: str | None) -> Source:
    return Source(id=new_id, title=title or found.title, edition=label, date=found.date,
                  lang=found.lang, file=f"{new_id}.txt", format=found.format,
                  provenance=f"added with 'rulebase add' from {path.name} on {_date.today().isoformat()}",
                  credit=_CREDITS.get(found.format, "unknown; added by the user"),
                  path=path, part=found.part or (label if found.format == "forum-rulebook" else None),
                  edition_note=None if edition else found.edition_note, bundled=False)


def _commit(folder: Path, checked: list[_Checked], bundled: list[Source], users: list[Source],
            doc_id: str | None, title: str | None, edition: str | None) -> list[Added]:
    """Under the lock: pick ids, refuse duplicates, write and verify the copies, then the manifest."""
    known = bundled + users
    taken = {s.id for s in known} | {Path(s.file).stem for s in users}  # a hand-edited entry may own 'x.txt'
    taken |= {name[:-4] for name in _names(folder) if name.endswith(".txt")}  # never overwrite the user's own file
    digests = held_digests(known, {item.found.format for item in checked})
    planned: list[tuple[_Checked, Source]] = []
    for item in checked:
        held = digests.get(item.digest) or digests.get(text_digest(item.data))
        if held is not None:
            raise UsageError(f"{item.path} is already in the corpus as {held}")
        new_id = check_id(doc_id) if doc_id is not None else _default_id(item.found, item.label, taken)
        if new_id in taken:
            raise UsageError(f"document id {new_id!r} is already in use", hint="pass --id with another id")
        taken.add(new_id)
        planned.append((item, _source(item.found, item.label, new_id, item.path, title, edition)))
    manifest = folder / MANIFEST_NAME
    before = manifest.read_text(encoding="utf-8") if manifest.is_file() else _HEADER
    _mark_pending(folder, [source.file for _, source in planned] + [MANIFEST_NAME])
    for item, source in planned:
        target = folder / source.file
        _write_atomic(target, item.data)
        if file_digest(target) != item.digest:  # what the manifest will list is what was parsed
            raise SourceError("the stored copy differs from the file that was read", str(target),
                              "check the disk and run 'rulebase add' again")
    entries = "".join("\n" + _entry(source) for _, source in planned)
    _write_atomic(manifest, (before.rstrip("\n") + "\n" + entries).encode("utf-8"))
    (folder / PENDING).unlink(missing_ok=True)
    return [Added(replace(source, path=folder / source.file), item.found, item.encoding,
                  item.repairs, item.records, item.kinds) for item, source in planned]


def remove_document(doc_id: str, existing: list[Source]) -> Source:
    """Take a user-added document out of the user corpus; bundled documents cannot be removed.

    The manifest is re-read under the lock: a concurrent remove or add is never undone."""
    known = {s.id: s for s in existing}
    if doc_id in known and known[doc_id].bundled:
        raise UsageError(f"{doc_id!r} is part of the bundled corpus and cannot be removed",
                         hint="only documents added with 'rulebase add' can be removed")
    check_id(doc_id)
    reserved = {s.id for s in existing if s.bundled}
    _find(doc_id, load_user_sources(reserved))  # not there: say so without creating the folder
    folder = Path(user_corpus_dir())
    with _locked(folder):
        users = load_user_sources(reserved)
        clean_leftovers(folder, users)
        gone = _find(doc_id, users)
        keep = [s for s in users if s.id != doc_id]
        text = _HEADER + "".join("\n" + _entry(s) for s in keep)
        _mark_pending(folder, [MANIFEST_NAME])
        _write_atomic(folder / MANIFEST_NAME, text.encode("utf-8"))
        if not any(s.file == gone.file for s in keep):
            (folder / gone.file).unlink(missing_ok=True)
        (folder / PENDING).unlink(missing_ok=True)
    return gone


LISTED = 10  # user-added documents named when an id is not one of them


def _find(doc_id: str, users: list[Source]) -> Source:
    """The user-added document `doc_id`. When there is none, the error names the documents there are
    instead of guessing: ids alike by construction (doc0 and doc1, cr2025 and cr2025-2) made 'did you
    mean' offer another document to a user removing one already removed."""
    found = next((s for s in users if s.id == doc_id), None)
    if found is None:
        ids = [s.id for s in users]
        listed = ", ".join(ids[:LISTED]) + (f" and {len(ids) - LISTED} more" if len(ids) > LISTED else "")
        added = f"added with 'rulebase add': {listed}" if ids else "none was added with 'rulebase add'"
        raise NotFound(f"no user-added document {doc_id!r}", hint=f"'rulebase sources' lists every document; {added}")
    return found


def _tidy(folder: Path, reserved: set[str]) -> None:
    """After a failed write: drop what the manifest on disk does not list (never what it does)."""
    with contextlib.suppress(OSError, ManifestError):  # else the next add or remove cleans up
        clean_leftovers(folder, load_user_sources(reserved))


def clean_leftovers(folder: Path, users: list[Source]) -> list[str]:
    """Delete what a killed add or remove left behind; call with the folder lock held.

    Every writer holds the lock while it writes, so under it the pending list is a dead writer's:
    of the names on it, a temporary file, or a copy the manifest does not list (an add killed
    between writing the copy and the manifest), is debris. Nothing else in the folder is touched,
    whatever its name. Returns the names deleted."""
    marker = folder / PENDING
    try:
        planned = json.loads(marker.read_bytes())
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        planned = []  # cut short while being written: nothing was created after it
    names = planned if isinstance(planned, list) else []
    listed = {s.file for s in users}
    gone: list[str] = []
    for name in (n for n in names if isinstance(n, str) and Path(n).name == n):
        entry = folder / name
        if name not in listed and name != MANIFEST_NAME and entry.is_file() and not entry.is_symlink():
            entry.unlink(missing_ok=True)
            gone.append(name)
    marker.unlink(missing_ok=True)
    return sorted(gone)


def _mark_pending(folder: Path, files: list[str]) -> None:
    """Record, before writing them, every name a writer may create: the files and their temporaries."""
    names = [*files, *(_tmp_name(folder / name).name for name in files)]
    try:
        with open(folder / PENDING, "w", encoding="utf-8") as handle:
            json.dump(names, handle)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        raise SourceError(f"cannot write ({exc.strerror})", str(folder / PENDING),
                          f"set {ENV_USER_CORPUS} to a writable folder") from None


def _names(folder: Path) -> list[str]:
    try:
        return [entry.name for entry in folder.iterdir()]
    except OSError:
        return []


def _read(path: Path) -> bytes:
    """The file's bytes: regular files only (not /dev/zero, a FIFO or a socket), at most MAX_BYTES.

    The file is opened without blocking (a FIFO with no writer would hang an ordinary open) and
    checked again through the open handle, so it cannot be swapped between check and read."""
    hint = "give a rules text file"
    try:
        if path.is_dir():
            raise UsageError(f"{path} is a directory", hint=hint)
        if not path.exists():
            raise SourceError("file not found", str(path))
        _check_mode(path, os.stat(path))
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as handle:
            _check_mode(path, os.fstat(fd))
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SourceError(f"cannot read file ({exc.strerror})", str(path)) from None
    if len(data) > MAX_BYTES:
        raise UsageError(f"{path} is larger than {MAX_BYTES // 2**20} MB", hint=hint)
    return data


def _check_mode(path: Path, info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{path} is a directory", hint="give a rules text file")
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(f"{path} is not a regular file (a device, FIFO or socket)", hint="give a rules text file")
    if info.st_size > MAX_BYTES:
        raise UsageError(f"{path} is larger than {MAX_BYTES // 2**20} MB", hint="give a rules text file")


def _default_id(found: Detected, label: str, taken: set[str]) -> str:
    prefix = found.part if found.format == "tournament" and found.part else _PREFIX.get(found.format, "doc")
    year = found.date[:4] if found.date[:4].isdigit() else label.removeprefix("cr")
    base = prefix if prefix == "hu-guide" else f"{prefix}{year}"
    candidates = [base, f"{base}-{found.date[5:].replace('-', '')}" if len(found.date) > 4 else base]
    candidates += [f"{base}-{n}" for n in range(2, 100)]
    return next(c for c in candidates if c not in taken and ID_PATTERN.match(c))


def _entry(source: Source) -> str:
    lines = ["[[source]]"]
    for key in (*REQUIRED, "part", "edition_note"):
        value = getattr(source, key)
        if value is not None:
            lines.append(f"{key} = {toml_string(value)}")
    return "\n".join(lines) + "\n"


def toml_string(value: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped."""
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = _tmp_name(path)
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise SourceError(f"cannot write ({exc.strerror})", str(path),
                          f"set {ENV_USER_CORPUS} to a writable folder") from None


def _locked(folder: Path):
    return folder_lock(folder, lambda exc: SourceError(
        f"cannot write the user corpus ({exc.strerror})", str(folder), f"set {ENV_USER_CORPUS} to a writable folder"))
