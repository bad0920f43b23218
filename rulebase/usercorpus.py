"""Documents users add themselves (`rulebase add`): kept in a per-user corpus, never in corpus/.

The per-user corpus is a folder (RULEBASE_USER_CORPUS, else $XDG_DATA_HOME/rulebase/corpus)
with its own sources.toml and a copy of every added file, named after the document id. Ids
are checked against a strict pattern before they touch a path, so no id can leave the folder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date as _date
from pathlib import Path

from rulebase.detect import Detected, detect
from rulebase.errors import ManifestError, NotFound, SourceError, UsageError
from rulebase.locking import folder_lock
from rulebase.sources import ENV_USER_CORPUS, MANIFEST_NAME, REQUIRED, Source, is_edition, user_corpus_dir

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
MAX_BYTES = 64 * 1024 * 1024
_CREDITS = {"comprules": "Magic: The Gathering Comprehensive Rules (C) Wizards of the Coast",
            "crystalkeep-2008": "Rulings summary by Stephen D'Angelo, Crystal Keep",
            "crystalkeep-1999": "Rules summary by Stephen D'Angelo, Crystal Keep"}
_PREFIX = {"comprules": "cr", "crystalkeep-2008": "ck", "crystalkeep-1999": "ck", "forum-rulebook": "rb",
           "hu-guide": "hu-guide"}
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
    folder = user_corpus_dir()
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


@dataclass(slots=True)
class Added:
    source: Source
    detected: Detected
    encoding: str
    repairs: list[str]
    records: int
    kinds: dict[str, int] = field(default_factory=dict)


def add_document(path: Path, existing: list[Source], fmt: str | None = None, edition: str | None = None,
                 doc_id: str | None = None, title: str | None = None) -> Added:
    """Detect, check by parsing, then copy `path` into the user corpus and list it in its manifest.

    Nothing is written unless the file parses into records; the manifest is replaced atomically."""
    from collections import Counter

    from rulebase.ingest import PARSERS, ingest_source
    from rulebase.ingest.text import decode

    data = _read(path)
    decoded = decode(data, str(path))
    if fmt is not None and fmt not in PARSERS:
        raise UsageError(f"unknown format {fmt!r}", hint="use one of " + ", ".join(sorted(PARSERS)))
    found = detect(decoded.text, str(path))
    if fmt is not None and fmt != found.format:
        found = Detected(fmt, path.stem, "undated", None, evidence=[f"format given: {fmt}"])
    label = edition or found.edition
    if label is None:
        raise UsageError(f"{path}: the file does not say which edition's rules it follows",
                         hint="pass --edition 4e, 5e, 6e, 10e or crYYYY (the year its rules took effect)")
    if not is_edition(label):
        raise UsageError(f"unknown edition {label!r}", hint="use 4e, 5e, 6e, 10e or crYYYY, e.g. cr2025")
    taken = {s.id for s in existing}
    new_id = check_id(doc_id) if doc_id is not None else _default_id(found, label, taken)
    if new_id in taken:
        raise UsageError(f"document id {new_id!r} is already in use", hint="pass --id with another id")
    digest = hashlib.sha256(data).hexdigest()
    for other in existing:
        if other.path.is_file() and hashlib.sha256(other.path.read_bytes()).hexdigest() == digest:
            raise UsageError(f"{path} is already in the corpus as {other.id!r}")
    folder = user_corpus_dir()
    source = Source(id=new_id, title=title or found.title, edition=label, date=found.date,
                    lang=found.lang, file=f"{new_id}.txt", format=found.format,
                    provenance=f"added with 'rulebase add' from {path.name} on {_date.today().isoformat()}",
                    credit=_CREDITS.get(found.format, "unknown; added by the user"),
                    path=path, part=found.part or (label if found.format == "forum-rulebook" else None),
                    edition_note=None if edition else found.edition_note, bundled=False)
    report = ingest_source(source)  # raises SourceError when the parser finds nothing
    with _locked(folder):
        target = folder / source.file
        _write_atomic(target, data)
        manifest = folder / MANIFEST_NAME
        before = manifest.read_text(encoding="utf-8") if manifest.is_file() else _HEADER
        _write_atomic(manifest, (before.rstrip("\n") + "\n\n" + _entry(source)).encode("utf-8"))
    kinds = dict(sorted(Counter(r.kind for r in report.parsed.records).items()))
    return Added(dataclasses.replace(source, path=target), found, decoded.encoding, decoded.repairs,
                 len(report.parsed.records), kinds)


def remove_document(doc_id: str, existing: list[Source]) -> Source:
    """Take a user-added document out of the user corpus; bundled documents cannot be removed."""
    known = {s.id: s for s in existing}
    if doc_id in known and known[doc_id].bundled:
        raise UsageError(f"{doc_id!r} is part of the bundled corpus and cannot be removed",
                         hint="only documents added with 'rulebase add' can be removed")
    check_id(doc_id)
    users = [s for s in existing if not s.bundled]
    if doc_id not in known:
        raise NotFound(f"no user-added document {doc_id!r}", [s.id for s in users],
                       hint="'rulebase sources' lists every document")
    folder = user_corpus_dir()
    with _locked(folder):
        keep = [s for s in users if s.id != doc_id]
        text = _HEADER + "".join("\n" + _entry(s) for s in keep)
        _write_atomic(folder / MANIFEST_NAME, text.encode("utf-8"))
        gone = known[doc_id]
        if not any(s.file == gone.file for s in keep):
            (folder / gone.file).unlink(missing_ok=True)
    return gone


def _read(path: Path) -> bytes:
    try:
        if path.is_dir():
            raise UsageError(f"{path} is a directory", hint="give a rules text file")
        if path.stat().st_size > MAX_BYTES:
            raise UsageError(f"{path} is larger than {MAX_BYTES // 2**20} MB", hint="give a rules text file")
        return path.read_bytes()
    except FileNotFoundError:
        raise SourceError("file not found", str(path)) from None
    except OSError as exc:
        raise SourceError(f"cannot read file ({exc.strerror})", str(path)) from None


def _default_id(found: Detected, label: str, taken: set[str]) -> str:
    prefix = _PREFIX.get(found.format, "doc")
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


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
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
