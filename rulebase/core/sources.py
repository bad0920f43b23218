"""The corpus manifest: which documents exist, what they are, and which parser reads them."""

from __future__ import annotations

import os

from rulebase.core.eras import labels_between
from rulebase.core.errors import ManifestError
from rulebase.core.paths import package_parent, spelled, user_folder
from rulebase.core.pattern import lazy
from rulebase.core.value import Frozen

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

EDITIONS = ("alpha", "4e", "5e", "6e", "10e")
# The tournament documents, by the ids the bundled corpus gives them, and what they call themselves.
TOURNAMENT_DOCUMENTS = {
    "mtr": "Magic: The Gathering Tournament Rules",
    "ipg": "Magic Infraction Procedure Guide",
    "jar": "Judging at Regular Rules Enforcement Level",
    "dmtr": "Magic: The Gathering Digital Tournament Rules",
    "dipg": "Magic Digital Infraction Procedure Guide",
}
DIGITAL_DOCUMENTS = ("dmtr", "dipg")  # for play on MTG Arena and Magic Online, not paper Magic
DATED = "dated"  # a multi-release archive: each version is labelled by the era of its own release
DATED_FORMATS = ("comprules-archive", "tournament-archive")  # the formats of such archives
ALSO_FORMATS = ("comprules-archive", "oracle-cards")  # the formats read from more than one file
REQUIRED = ("id", "title", "edition", "date", "lang", "file", "format", "provenance", "credit")
MANIFEST_NAME = "sources.toml"
ENV_USER_CORPUS = "RULEBASE_USER_CORPUS"
YEAR_LABEL = lazy(r"^cr(?P<year>(?:19|20)\d\d)$")  # added documents outside the four editions


class Source(Frozen):
    """One document of a corpus manifest (sources.toml), and where its file is. `also`: a
    comprules-archive's further archives (their releases join its timeline), the cards' 2022 file;
    `gaps`: what an archive is known to lack, as `sources` tells a user; `licence`: the terms the
    file is shared under, where they are not the credit's."""

    __slots__ = ("id", "title", "edition", "date", "lang", "file", "format", "provenance", "credit", "path", "part",
                 "edition_note", "bundled", "also", "gaps", "licence")

    def __init__(self, id: str, title: str, edition: str, date: str, lang: str, file: str, format: str,
                 provenance: str, credit: str, path: Path, part: str | None = None, edition_note: str | None = None,
                 bundled: bool = True, also: tuple[Path, ...] = (), gaps: str | None = None,
                 licence: str | None = None):
        values = (id, title, edition, date, lang, file, format, provenance, credit, path, part, edition_note,
                  bundled, also, gaps, licence)
        for name, value in zip(self._fields, values, strict=True):
            object.__setattr__(self, name, value)

    @property
    def paths(self) -> list[Path]:
        """Every file the source is read from (`path`, then `also`)."""
        return [self.path, *self.also]


def release_label(record) -> str | None:
    """How a tournament document's version is labelled where a hit or a record is named: its
    document and the release it was first printed in ('MTR 2024-09-23'); None for the others,
    which their edition label names."""
    if record.source in TOURNAMENT_DOCUMENTS and record.span:
        return f"{record.source.upper()} {record.span[0]}"
    return None


def game_editions(sources: list[Source]) -> set[str]:
    """The edition labels of the game's rules the sources hold: each document's own, and every era
    a dated archive's releases span (cr2003 .. 10e .. cr2026). The tournament documents' and the
    cards' are not editions of the game's rules. Read from the manifest alone: a bad --editions is
    refused before any record is read."""
    labels: set[str] = set()
    for source in sources:
        if source.format in ("tournament-archive", "oracle-cards"):
            continue
        labels |= set(labels_between(*source.date.split("/", 1))) if "/" in source.date else {source.edition}
    return labels


def is_edition(label: str) -> bool:
    """A bundled edition label or a year label such as 'cr2025'."""
    return label in EDITIONS or bool(YEAR_LABEL.match(label))


_STARTS = {"alpha": 19930805, "4e": 19950401, "5e": 19970324, "6e": 19990423, "10e": 20070713}  # core/eras.ERAS' first days


def edition_rank(label: str) -> tuple[int, int]:
    """Chronological order of edition labels, by the day each era began: alpha < 4e < 5e < 6e < cr2003 <
    10e (2007-07-13) < cr2009 < cr2025; unknown labels last."""
    if label in _STARTS:
        return (0, _STARTS[label])
    year = YEAR_LABEL.match(label)
    return (0, int(year["year"]) * 10000 + 101) if year else (1, 0)


def default_corpus_dir() -> str:
    """RULEBASE_CORPUS, else the checkout's corpus/ next to the package. (A string, as pathlib
    would write it: core/paths.py.)"""
    env = os.environ.get("RULEBASE_CORPUS")
    if env:
        return spelled(env)
    return os.path.join(package_parent(), "corpus")


def user_corpus_dir() -> str:
    """Where `rulebase add` keeps documents: RULEBASE_USER_CORPUS, else $XDG_DATA_HOME/rulebase/corpus.
    (Here, not in usercorpus.py, so checking a current index imports none of the adding code.)"""
    env = os.environ.get(ENV_USER_CORPUS)
    if env:
        return spelled(env)
    return os.path.join(user_folder("XDG_DATA_HOME", ".local/share"), "corpus")


def load_manifest(corpus_dir: str | os.PathLike | None = None) -> list[Source]:
    import tomllib  # only when the manifest is read: a current index is used without it
    from pathlib import Path

    corpus_dir = Path(corpus_dir or default_corpus_dir())
    manifest = corpus_dir / MANIFEST_NAME
    if not manifest.is_file():
        raise ManifestError("manifest not found", str(manifest),
                            "set RULEBASE_CORPUS to a folder holding sources.toml")
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"not valid TOML ({exc})", str(manifest), "fix the syntax") from None
    entries = data.get("source")
    if not isinstance(entries, list) or not entries:
        raise ManifestError("no [[source]] entries", str(manifest), "add at least one [[source]] table")
    sources: list[Source] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries, 1):
        where = f"{manifest} [[source]] #{n}"
        if not isinstance(entry, dict):
            raise ManifestError("entry is not a table", where)
        missing = [k for k in REQUIRED if not isinstance(entry.get(k), str) or not entry.get(k)]
        if missing:
            raise ManifestError(f"missing or empty field(s): {', '.join(missing)}", where,
                                "every source needs " + ", ".join(REQUIRED))
        if entry["id"] in seen:
            raise ManifestError(f"duplicate source id {entry['id']!r}", where)
        if not is_edition(entry["edition"]) and not (entry["edition"] == DATED
                                                      and entry["format"] in DATED_FORMATS):
            raise ManifestError(f"unknown edition {entry['edition']!r}", where,
                                f"use one of {', '.join(EDITIONS)} or crYYYY ('{DATED}' for a {' or '.join(DATED_FORMATS)})")
        seen.add(entry["id"])
        name = entry["file"]
        if Path(name).name != name:
            raise ManifestError(f"file {name!r} must be a plain file name inside the corpus folder", where)
        known = {k: entry[k] for k in REQUIRED}
        also = entry.get("also", [])
        if not isinstance(also, list) or not all(isinstance(a, str) and a and Path(a).name == a for a in also) \
                or also and entry["format"] not in ALSO_FORMATS:
            raise ManifestError("'also' must be a list of plain file names, for a "
                                f"{' or '.join(ALSO_FORMATS)} only", where)
        sources.append(Source(**known, path=corpus_dir / name, part=entry.get("part"),
                              edition_note=entry.get("edition_note"),
                              also=tuple(corpus_dir / a for a in also),
                              gaps=entry["gaps"] if isinstance(entry.get("gaps"), str) else None,
                              licence=entry["licence"] if isinstance(entry.get("licence"), str) else None))
    return sources


def copy_without(corpus_dir: str | os.PathLike, out: Path, *formats: str) -> Path:
    """A copy of a corpus folder whose manifest leaves out the documents of these formats (the
    benchmark's bundled-only corpus: without the archive). Returns `out`."""
    # lazy: only this rarer path needs it
    import shutil
    import tomllib
    from pathlib import Path

    out = Path(out)

    shutil.copytree(corpus_dir, out)
    blocks = (out / MANIFEST_NAME).read_text(encoding="utf-8").split("\n[[source]]\n")
    kept = [b for b in blocks[1:] if tomllib.loads("[[source]]\n" + b)["source"][0]["format"] not in formats]
    for block in blocks[1:]:
        if block not in kept:
            (out / tomllib.loads("[[source]]\n" + block)["source"][0]["file"]).unlink(missing_ok=True)
    (out / MANIFEST_NAME).write_text("\n[[source]]\n".join([blocks[0], *kept]), encoding="utf-8")
    return out


def fingerprint(sources: list[Source]) -> str:
    """Digest of the manifest entries and file bytes: the index rebuilds when it changes. Every
    field counts: the index's meta holds the titles, credits and gaps `sources` prints."""
    # lazy: only this rarer path needs it
    import hashlib

    digest = hashlib.sha256()
    for source in sources:
        # every field but the paths (where the corpus sits is no content), a field added later too
        entry = [getattr(source, name) for name in source._fields if name not in ("path", "also")]
        digest.update(repr((entry, [p.name for p in source.also])).encode())
        for path in source.paths:
            try:
                digest.update(path.read_bytes())
            except OSError:
                digest.update(b"<missing>")
    return digest.hexdigest()[:16]
