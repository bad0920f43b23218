"""The tournament documents' versions, parsed once per archive, added releases and code: loaded
from the build cache, or parsed (rulebase.ingest.tournament) and cached.

Their 66 files are 19 MB of HTML, most of it converted from PDFs: reading them takes seconds, so
a build keeps what it made of them (one JSON file of every document's versions, keyed by the
archive's bytes, the added releases' bytes and the code) and the next build, after `rulebase add`
of anything, loads it. Their index segment is cached as the other documents' are: they are one
group of writer._grouped, keyed by the digest of exactly their search documents. A release added
with `rulebase add` of a document the archive holds joins that document's timeline; the added
document then holds no records (its report says where they went).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

from rulebase.build.cache import cache_root, entry_key, publish, read_trusted, touch
from rulebase.build.digest import code_digest
from rulebase.core.records import from_dict, to_dict
from rulebase.core.sources import Source
from rulebase.ingest import TOURNAMENT, SourceReport
from rulebase.ingest.text import Parsed, Warning_

ADDED = "tournament"  # the format of a release a user added
SPARE = 1  # entries kept beside the one a build used (another set of added releases, older code)
_ENTRY = re.compile(r"tournament-(?:files-)?[0-9a-f]{24}")


def joins(source: Source, held: set[str]) -> bool:
    """A release added with `rulebase add`, dated by its text, of a document the archive holds:
    it joins that document's timeline."""
    return (source.format == ADDED and not source.bundled and source.part in held
            and bool(re.match(r"^\d{4}-\d\d-\d\d$", source.date)))


class Pending:
    """The tournament documents' reports, being made while the build does the rest: on a cache
    miss their files are read in a process of their own (one core: the Comprehensive Rules
    archive's parse and its serial steps leave the other idle much of the time) that writes the
    cache entry, which `reports()` then loads. A cache that cannot be written: read here."""

    def __init__(self, sources: list[Source]) -> None:
        self.bundled = [s for s in sources if s.format == TOURNAMENT]
        held = {s.part for s in self.bundled if s.part}
        self.added = [s for s in sources if joins(s, held)]
        self.ids = {s.id for s in [*self.bundled, *self.added]}
        self.folder = _folder(self.bundled, self.added) if self.bundled else None
        self.parsed = _load(self.folder) if self.folder is not None else None
        self.running = None
        if self.bundled and self.folder is not None and not self._complete():
            # lazy: only a build that reads the files again
            from rulebase.core.pool import Beside

            self.running = Beside(_parse_and_save, self.bundled, self.added, self.folder)

    def _complete(self) -> bool:
        return self.parsed is not None and set(self.parsed) == {s.id for s in self.bundled}

    def reports(self, later: list | None = None) -> dict[str, SourceReport]:
        """The ingest reports of the tournament documents and of the releases that join them, by
        source id (none when the corpus holds no tournament archive). Their reading process
        publishes their versions, then writes their index segment: once the versions are in the
        cache they are loaded without waiting for the segment, and the process is appended to
        `later`, for the builder to wait for before it indexes (an added MTR: the versions 0.9 s
        sooner, the whole add about 0.2 s)."""
        if not self.bundled:
            return {}
        if self.running is not None:
            self.parsed = _load(self.folder) if later is not None else None
            if later is not None and self._complete():
                later.append(self.running)
            else:
                self.running.wait()  # (raises what the reading raised: a file that cannot be read or dated)
                self.parsed = _load(self.folder)
        if not self._complete():
            self.parsed = _parse_and_save(self.bundled, self.added, self.folder)
        if self.folder is not None:
            _prune(self.folder)
        out = {s.id: SourceReport(s, self.parsed[s.id], "per file: see the notes", []) for s in self.bundled}
        target = {s.part: s.id for s in self.bundled}
        for source in self.added:
            if f"added:{source.path.name}" in self.parsed[target[source.part]].meta.get("apart", ()):
                out[source.id] = _apart(source, target[source.part])
                continue
            note = (f"{source.id}: the release of {source.date} joined {target[source.part]}'s timeline: its "
                    f"sections are {target[source.part]}:NUMBER@DATE versions")
            out[source.id] = SourceReport(source, Parsed([], [], notes=[note], meta={"joined": target[source.part]}),
                                          "see " + target[source.part], [])
        return out


def _apart(source: Source, target: str) -> SourceReport:
    """An added release dated like one of `target`'s own, with other text: the user's own
    document, read on its own (its records are SOURCE:NUMBER), never a printing of the bundled text."""
    # lazy: only this rarer path needs it
    from rulebase.ingest import ingest_source

    report = ingest_source(source)
    report.parsed.notes.insert(0, f"{source.id}: dated {source.date} like a release of {target} the archive holds, "
                                  f"with other text: kept apart as your own document, not merged into {target}")
    return report


def _parse_and_save(bundled: list[Source], added: list[Source], folder: Path | None) -> dict[str, Parsed]:
    """Read the documents (the archive's files from the cache where it holds them, in one process:
    see Pending) and keep the result in the cache."""
    # lazy: the parsers only where the cache cannot answer
    from rulebase.ingest.tournament.archive import parse_all

    files = _folder(bundled, [], "files")  # the archive's files as read: an added release reads only itself
    known = _load_files(files) if files is not None else {}
    before = len(known)
    parsed = parse_all(bundled, added, workers=1, known=known)
    if files is not None and len(known) != before:
        _save_files(files, known)
    if folder is not None:
        _save(folder, parsed)
        # their index segment too, as the build's writer will key it (writer._grouped): in this
        # process, while the build parses the Comprehensive Rules or links the records
        from rulebase.build.writer import cache_group
        from rulebase.core.eras import windows

        records = [r for source in bundled for r in parsed[source.id].records]  # (the build's order)
        releases = {sid: one.meta["releases"] for sid, one in parsed.items()}
        cache_group(records, windows(records, bundled, releases))
    return parsed


def _folder(bundled: list[Source], added: list[Source], kind: str = "") -> Path | None:
    """The cache entry of these files and this code (`kind` 'files': of the archive's files as
    read, one by one), or None when a file cannot be read (the parse then says which)."""
    try:
        key = entry_key([bundled[0].path, *(s.path for s in added)], code_digest())
    except OSError:
        return None
    parts = hashlib.sha256(f"{key}|{kind}|{sorted((s.id, s.part) for s in bundled)}".encode()).hexdigest()[:24]
    return cache_root() / f"tournament-{kind + '-' if kind else ''}{parts}"


def _load_files(folder: Path) -> dict:
    # lazy: only a build that parses again reads it
    from rulebase.ingest.tournament.release import file_of

    held = read_trusted(folder, "files.json")  # its bytes as this user's rulebase sealed them, or nothing
    if held is None:
        return {}
    try:
        data = json.loads(held.decode("utf-8"))
        return {name: (file_of(one), encoding) for name, (one, encoding) in data.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _save_files(folder: Path, known: dict) -> None:
    # lazy: only a build that parses again writes it
    from rulebase.ingest.tournament.release import file_dict

    data = {name: [file_dict(got), encoding] for name, (got, encoding) in known.items()}
    publish(folder, lambda tmp: (tmp / "files.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8"))
    touch(folder)


def _load(folder: Path) -> dict[str, Parsed] | None:
    held = read_trusted(folder, "versions.json")
    if held is None:
        return None
    try:
        data = json.loads(held.decode("utf-8"))
        out = {sid: Parsed([from_dict(r) for r in one["records"]], [Warning_(*w) for w in one["warnings"]],
                           Counter(one["set_aside"]), list(one["notes"]), dict(one["meta"]))
               for sid, one in data.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    touch(folder)
    return out


def _save(folder: Path, parsed: dict[str, Parsed]) -> None:
    data = {sid: {"records": [to_dict(r) for r in one.records],
                  "warnings": [[w.file, w.line, w.message] for w in one.warnings],
                  "set_aside": dict(one.set_aside), "notes": one.notes, "meta": one.meta}
            for sid, one in parsed.items()}
    publish(folder, lambda tmp: (tmp / "versions.json").write_text(json.dumps(data, ensure_ascii=False),
                                                                      encoding="utf-8"))


def _prune(used: Path) -> None:
    """Keep the entry a build used and the SPARE most recently used others."""
    # lazy: only this rarer path needs it
    import shutil

    try:
        found = sorted((p for p in used.parent.iterdir() if _ENTRY.fullmatch(p.name) and p != used),
                       key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for kind in ("tournament-files-", "tournament-"):  # the SPARE newest of each kind
        mine = [p for p in found if p.name.startswith(kind)]
        found = [p for p in found if p not in mine]
        for path in mine[SPARE + (kind == "tournament-files-"):]:
            shutil.rmtree(path, ignore_errors=True)

