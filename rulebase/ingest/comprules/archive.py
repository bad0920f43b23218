"""Every official Comprehensive Rules release in one timeline, each distinct text stored once.

The archives (tar.xz files of plain-text releases: rulesraker's 2003-2026, pit142857's 1999-2018,
the 2023-2026 ones those two lack; named in one [[source]] by `file` and `also`) and the releases
added with `rulebase add` that they lack make one timeline of 128+ releases, each dated by the day
its own text says it took effect (two files of one date are two printings of one release, merged).
They share almost all of their text: ~360,000 parsed records but only ~31,000 distinct ones. A
*version* is one distinct text of one rule (or example, glossary entry, note) in a contiguous run
of releases; it becomes one record, id `cr:702.83a@2010-07-16` (the local id and the first release
of the run), with `span` = [first release, last release]. `lineage` joins the versions of one rule
across edits and renumberings (rulebase.ingest.comprules.lineage), keyed by the id of the lineage's
first version.

Parsing runs in worker processes, each over a contiguous chunk of releases and collapsing it to
versions before anything crosses the process boundary: pickling 360,000 records would cost more
than parsing them.
"""

from __future__ import annotations

import hashlib
import re
import tarfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from rulebase.core.eras import edition_for_date
from rulebase.core.errors import SourceError
from rulebase.core.pool import pool
from rulebase.core.pool import workers as default_workers
from rulebase.core.records import Record, Ref, fold_space, number_key
from rulebase.core.sources import Source
from rulebase.core.value import replace
from rulebase.ingest.comprules import release as comprules
from rulebase.ingest.comprules.lineage import Traced, trace
from rulebase.ingest.link import fold_term
from rulebase.ingest.text import Parsed, Warning_, decode

FORMAT = "comprules-archive"
# The release files' names, each with the date it is filed under: rulesraker's comprules-2009-07-11.txt,
# pit142857's CR-2009-07-08.txt, the translators' plain_text/20230616_En.txt and Wizards' own
# 'MagicCompRules 20260227.txt'.
_MEMBER = re.compile(r"(?:^|/)(?:(?:comprules|CR)-(\d{4})-(\d\d)-(\d\d)|(\d{4})(\d\d)(\d\d)_En"
                     r"|MagicCompRules (\d{4})(\d\d)(\d\d))\.txt$")
_SUMS = re.compile(r"^([0-9a-f]{64})\s+\*?(\S+)$")
LINEAGE_KINDS = ("rule", "chapter")


@dataclass(frozen=True, slots=True)
class Release:
    """One release on the timeline: `date` is the day it took effect, read from its own text
    ("effective as of" / "current as of"; the file name's date only when the text has none);
    `member` the file it was read from (several when two files print one release)."""

    index: int
    date: str
    member: str
    effective: str | None
    encoding: str
    records: int
    warnings: int
    filed: str = ""  # the date in the file name
    printings: tuple[str, ...] = ()  # further files of the same release, merged into this one


@dataclass(slots=True)
class Resume:
    """What folding releases newer than all of an archive's into its timeline needs of the
    archive's own parse, so that only the new files are parsed and traced: the distinct parsed
    records and every file as indexes into them (what `_assemble` starts from, as
    `_parse_chunk` gives them), each release's lineage ids (the rules and chapters, in document
    order) and where the lineage trace stopped (lineage.trace is online)."""

    records: list[Record]
    files: list[tuple]  # (file date, name, effective, encoding, seq, warnings), as _parse_chunk's
    dates: list[str]  # the releases' dates, oldest first
    ids: list[list[int]]
    traced: Traced


@dataclass(slots=True)
class ArchiveParsed:
    parsed: Parsed
    releases: list[Release]
    encodings: Counter = field(default_factory=Counter)
    resume: Resume | None = None  # only of an archive parsed without added releases


Added = tuple[tuple[str, Path], ...]  # (date, file) of releases added with `rulebase add`


def source_members(source: Source, added: Added = ()) -> list[tuple[str, str, bytes]]:
    """(file date, 'archive:member', bytes) of every release in all of the source's archives
    (`path`, then `also`), each archive in file-name order, then the added releases' files."""
    found = [(date, f"{path.name}:{name}", data) for path in source.paths for date, name, data in members(path)]
    return found + _added_members(added)


def _added_members(added: Added) -> list[tuple[str, str, bytes]]:
    found: list[tuple[str, str, bytes]] = []
    for date, path in added:
        try:
            found.append((date, f"added:{path.name}", path.read_bytes()))
        except OSError as exc:
            raise SourceError(f"cannot read an added release ({exc.strerror})", str(path),
                              "run 'rulebase remove' for it or restore the file") from None
    return found


def members(path: Path) -> list[tuple[str, str, bytes]]:
    """(date, member name, bytes) of every release, oldest first, checked against SHA256SUMS."""
    try:
        with tarfile.open(path, "r:xz") as tar:
            found: list[tuple[str, str, bytes]] = []
            sums: dict[str, str] = {}
            for info in tar:
                if not info.isfile():
                    continue
                data = tar.extractfile(info).read()  # type: ignore[union-attr]
                if info.name.endswith("SHA256SUMS"):
                    for line in data.decode("ascii", "replace").splitlines():
                        m = _SUMS.match(line.strip())
                        if m:
                            sums[Path(m[2]).name] = m[1]
                    continue
                date = member_date(info.name)
                if date:
                    found.append((date, info.name, data))
    except (OSError, tarfile.TarError, EOFError) as exc:
        raise SourceError(f"cannot read the archive ({exc})", str(path),
                          "restore the file from shared/extra or remove it from sources.toml") from None
    if not found:
        raise SourceError("no release files in the archive (comprules-YYYY-MM-DD.txt, CR-YYYY-MM-DD.txt, "
                          "YYYYMMDD_En.txt or 'MagicCompRules YYYYMMDD.txt')", str(path),
                          "check that 'format' in sources.toml matches the file")
    for _, name, data in found:
        want = sums.get(Path(name).name)
        if want and hashlib.sha256(data).hexdigest() != want:
            raise SourceError(f"{name} does not match its SHA256SUMS entry", str(path),
                              "restore the archive from shared/extra")
    return sorted(found)


def member_date(name: str) -> str | None:
    """The date a release file is filed under, from its name ('2023-06-16' of
    'plain_text/20230616_En.txt'), or None when the name is not a release file's."""
    m = _MEMBER.search(name)
    if not m:
        return None
    y, mo, d = [g for g in m.groups() if g is not None]
    return f"{y}-{mo}-{d}"


Key = tuple[str, str, str, str]  # (kind, local id, title, text)


def _key(record: Record, source_id: str) -> Key:
    return (record.kind, record.id.removeprefix(f"{source_id}:"), record.title or "", record.text)


def _intern(distinct: dict[Key, int], kept: list[Record], record: Record, source_id: str) -> int:
    """The index of `record`'s text in `kept`, adding it the first time it is seen."""
    key = _key(record, source_id)
    n = distinct.get(key)
    if n is None:
        n = distinct[key] = len(kept)
        kept.append(record)
    return n


def _parse_chunk(source: Source, chunk: list[tuple[str, str, bytes]]) -> tuple:
    """Parse releases and collapse them: distinct records, and each release as indexes into them."""

    distinct: dict[Key, int] = {}
    records: list[Record] = []
    releases: list[tuple[str, str, str | None, str, list[int], list[Warning_]]] = []
    for date, name, data in chunk:
        where = name  # 'archive.tar.xz:folder/comprules-2009-07-11.txt'
        decoded = decode(data, where)
        one = replace(source, file=name, path=Path(where))
        parsed = comprules.parse(decoded.text, one)
        seq = [_intern(distinct, records, record, source.id) for record in parsed.records]
        effective = parsed.meta.get("effective") if isinstance(parsed.meta, dict) else None
        releases.append((date, name, effective, decoded.encoding, seq, list(parsed.warnings)))
    return records, releases


def _chunks(items: list, n: int) -> list[list]:
    size = -(-len(items) // n)
    return [items[i:i + size] for i in range(0, len(items), size)]


def parse_archive(source: Source, workers: int | None = None, added: Added = (),
                  resume: Resume | None = None) -> ArchiveParsed:
    """Every release of the archive, and the added ones, as versions (see the module docstring).
    `resume`: the archive's own parse (ArchiveParsed.resume, of this source and code): when every
    added release took effect after the archive's newest, only the added files are parsed and
    traced, and the result is the same as parsing everything (see `extend`)."""

    if resume is not None and added:
        extended = extend(source, resume, added)
        if extended is not None:
            return extended
    found = source_members(source, added)
    n = min(workers or default_workers(), len(found))
    if n == 1:
        parts = [_parse_chunk(source, found)]
    else:
        with pool(n) as running:
            parts = list(running.map(_parse_chunk, [source] * n, _chunks(found, n)))
    return _assemble(source, parts, keep=not added)


def extend(source: Source, resume: Resume, added: Added) -> ArchiveParsed | None:
    """The archive's timeline with the added releases, from `resume` and a parse of only the
    added files; None when one of them took effect on or before the archive's newest release
    (it falls inside the timeline: everything is parsed again). The same as parse_archive
    without `resume`: the files are assembled in the same order (the archive's, then the added
    ones: which chunk a file was parsed in changes nothing), the archive's releases stay the
    first ones, so their lineage ids are the ones traced before and the trace goes on from
    where it stopped."""
    part = _parse_chunk(source, _added_members(added))
    if not resume.dates or any((effective or date) <= resume.dates[-1] for date, _, effective, *_ in part[1]):
        return None
    try:
        return _assemble(source, [(resume.records, resume.files), part], resume=resume)
    except ValueError:  # a resume that does not fit its archive's releases: parse everything
        return None


def _assemble(source: Source, parts: list[tuple], keep: bool = False, resume: Resume | None = None) -> ArchiveParsed:
    """The parsed files as one timeline: ordered by the date each says it took effect, and two
    files of one release (two printings) merged into one release (see `_merge`). `keep`: with
    the Resume that a later `extend` starts from; `resume`: that of the timeline's first
    releases (`extend`)."""
    distinct: dict[Key, int] = {}
    samples: list[Record] = []
    files: list[tuple] = []  # (effective date, file date, name, encoding, seq, warnings)
    warnings: list[Warning_] = []
    encodings: Counter = Counter()
    notes: list[str] = []
    kept: list[tuple] = []  # the files as _parse_chunk gives them, their seqs into `samples`
    for records, releases in parts:
        local = [_intern(distinct, samples, record, source.id) for record in records]
        for date, name, effective, encoding, seq, warns in releases:
            files.append((effective or date, date, name, encoding, [local[i] for i in seq], warns))
            if keep:
                kept.append((date, name, effective, encoding, files[-1][4], list(warns)))
            warnings.extend(warns)
            encodings[encoding] += 1
            if effective is None:
                notes.append(f"{name}: no 'effective as of' / 'current as of' date in its text: dated {date} "
                             "from its file name")
            elif effective != date:
                notes.append(f"{name}: filed as {date}, but its text says it took effect on {effective}: "
                             f"dated {effective}")
    distinct_parsed = list(samples) if keep else []  # before _merge adds later printings' copies
    files.sort(key=lambda f: f[0])  # stable: within one date, the archives' order (path, then also)
    sequences: list[list[int]] = []
    meta_rows: list[tuple] = []
    n = 0
    while n < len(files):
        group = [files[n]]
        while n + len(group) < len(files) and files[n + len(group)][0] == files[n][0]:
            group.append(files[n + len(group)])
        seq, merged = _merge(source, samples, distinct, [f[4] for f in group], [f[2] for f in group])
        notes.extend(merged)
        first = group[0]
        sequences.append(seq)
        meta_rows.append((first[0], first[2], first[0], first[3], len(seq), sum(len(f[5]) for f in group),
                          first[1], tuple(f[2] for f in group[1:])))
        n += len(group)
    releases = [Release(i, *row) for i, row in enumerate(meta_rows)]
    if resume is not None and [r.date for r in releases[:len(resume.dates)]] != resume.dates:
        raise ValueError("the resumed releases are not the first ones of the timeline")
    records, (ids, traced) = _versions(source, samples, sequences, releases, resume)
    notes.insert(0, f"{len(releases)} releases, {releases[0].date} to {releases[-1].date} ({len(files)} files): "
                    f"{sum(len(s) for s in sequences)} records in all, {len(records)} distinct versions stored")
    meta = {"releases": [_release_meta(r) for r in releases]}
    kept_resume = Resume(distinct_parsed, kept, [r.date for r in releases], ids, traced) if keep else None
    return ArchiveParsed(Parsed(records, warnings, notes=notes, meta=meta), releases, encodings, kept_resume)


def _merge(source: Source, samples: list[Record], distinct: dict[Key, int], seqs: list[list[int]],
           names: list[str]) -> tuple[list[int], list[str]]:
    """One release from its printings: the first file's records, then each later printing's
    records that the first lacks. Where a later printing prints a rule differently, its text is
    kept as a record of its own (local id `~printing2`, flagged) and listed in the notes; where
    it prints the same, the two are one record."""
    if len(seqs) == 1:
        return seqs[0], []
    seq = list(seqs[0])
    prefix = f"{source.id}:"
    own = {samples[i].id: i for i in seq}
    notes: list[str] = []
    for k, (later, name) in enumerate(zip(seqs[1:], names[1:], strict=True), 2):
        differ: list[str] = []
        added = 0
        for i in later:
            sample = samples[i]
            if own.get(sample.id) == i:
                continue
            if sample.id in own:
                local = sample.id.removeprefix(prefix)
                copy = replace(sample, id=f"{prefix}{local}~printing{k}", refs=list(sample.refs),
                               flags=[*sample.flags, f"printed differently in {name}, a later printing of "
                                                     f"the release in {names[0]}"])
                seq.append(_intern(distinct, samples, copy, source.id))
                differ.append(local)
            else:
                own[sample.id] = i
                seq.append(i)
                added += 1
        notes.append(f"{name} is another printing of the release in {names[0]}: {len(later) - len(differ) - added} "
                     f"records identical, merged; {len(differ)} printed differently, kept as a later printing"
                     + (f" ({', '.join(differ[:10])}{', ...' if len(differ) > 10 else ''})" if differ else "")
                     + (f"; {added} only in this printing, added" if added else ""))
    return seq, notes


def _release_meta(release: Release) -> dict:
    return {"index": release.index, "date": release.date, "effective": release.effective,
            "member": release.member, "encoding": release.encoding, "records": release.records,
            "warnings": release.warnings, "filed": release.filed, "printings": list(release.printings)}


def _runs(indexes: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for i in indexes:
        if runs and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i)
        elif not runs or runs[-1][1] != i:
            runs.append((i, i))
    return runs


def _versions(source: Source, samples: list[Record], sequences: list[list[int]], releases: list[Release],
              resume: Resume | None = None) -> tuple[list[Record], tuple[list[list[int]], Traced]]:
    """One record per (distinct text, contiguous run of releases), with parents, refs and lineage;
    and the lineage ids and trace state (_assign_lineage)."""

    prefix = f"{source.id}:"
    seen_in: dict[int, list[int]] = defaultdict(list)
    for rel, seq in enumerate(sequences):
        for n in seq:
            if not seen_in[n] or seen_in[n][-1] != rel:
                seen_in[n].append(rel)
    # (sample, release) -> version record
    at: list[dict[int, Record]] = [{} for _ in releases]
    versions: list[Record] = []
    first_of: dict[str, int] = {}
    for n, sample in enumerate(samples):
        local = sample.id.removeprefix(prefix)
        for first, last in _runs(seen_in[n]):
            version = replace(sample, id=f"{prefix}{local}@{releases[first].date}",
                              edition=edition_for_date(releases[first].date)[0],
                              refs=list(sample.refs), links=[], refs_in=[], aliases=list(sample.aliases),
                              span=[releases[first].date, releases[last].date])
            versions.append(version)
            first_of[version.id] = first
            for rel in range(first, last + 1):
                at[rel][n] = version
    keyed: dict[str, tuple] = {}  # number -> number_key: the numbers repeat from release to release
    # Per release: local id -> version, number -> version, glossary term -> version.
    for rel, seq in enumerate(sequences):
        by_local = {samples[n].id: at[rel][n] for n in seq}
        numbers = {samples[n].number: at[rel][n] for n in seq if samples[n].number}
        terms = {samples[n].title.lower(): at[rel][n] for n in seq
                 if samples[n].kind == "glossary" and samples[n].title}
        ordered: list = []  # (number_key, number) sorted, built on the first range reference
        for order, n in enumerate(seq):
            version = at[rel][n]
            if first_of[version.id] != rel:
                continue  # placed once, in the first release of its run
            version.order = rel * 100_000 + order
            if samples[n].parent:
                parent = by_local.get(samples[n].parent)
                version.parent = parent.id if parent else None
            if any("-" in ref.key for ref in samples[n].refs) and not ordered:
                ordered = sorted((keyed[k] if k in keyed else keyed.setdefault(k, number_key(k)), k) for k in numbers)
            version.refs = [_resolve(ref, numbers, terms, version, ordered) for ref in samples[n].refs]
    by_id = {v.id: v for v in versions}
    for version in versions:
        for ref in version.refs:
            if ref.target and ref.target in by_id and version.id not in by_id[ref.target].refs_in:
                by_id[ref.target].refs_in.append(version.id)
    lineage = _assign_lineage(versions, sequences, at, samples, resume)
    versions.sort(key=lambda v: v.order)
    return versions, lineage


def _resolve(ref: Ref, numbers: dict[str, Record], terms: dict[str, Record], own: Record,
             ordered: list[tuple[tuple, str]]) -> Ref:
    """A reference resolved within the version's own (first) release: a range to its first rule."""
    # lazy: only this rarer path needs it
    from bisect import bisect_left

    if ref.target is not None and ref.kind not in ("glossary", "term"):
        return ref
    if ref.kind in ("rule", "section"):
        if "-" in ref.key:
            start, end = ref.key.split("-", 1)
            if len(end) == 1:
                end = start[:-1] + end
            lo, hi = number_key(start), number_key(end)
            for key, number in ordered[bisect_left(ordered, (lo, "")):]:
                if key > hi:
                    break
                if len(key) == len(lo):
                    return Ref(ref.label, ref.kind, ref.key, numbers[number].id)
        elif ref.key in numbers:
            return Ref(ref.label, ref.kind, ref.key, numbers[ref.key].id)
        return Ref(ref.label, ref.kind, ref.key, None, f"no {ref.kind} {ref.key} in the release of {own.span[0]}")
    if ref.kind in ("glossary", "term"):
        key = ref.key.lower()
        target = terms.get(key) or (terms.get(key[:-1]) if key.endswith("s") else None)
        if target is not None and target.id != own.id:
            return Ref(ref.label, ref.kind, ref.key, target.id)
        return Ref(ref.label, ref.kind, ref.key, None, f"no glossary entry for {ref.key!r} in the release of {own.span[0]}")
    return ref


def _assign_lineage(versions: list[Record], sequences: list[list[int]], at: list[dict[int, Record]],
                    samples: list[Record], resume: Resume | None = None) -> tuple[list[list[int]], Traced]:
    """Rules and chapters by rulebase.ingest.comprules.lineage (edits and renumberings); glossary entries by term;
    examples follow their rule; everything else by its local id. Returns the lineage ids of every
    release and where the trace stopped; with `resume`, its releases' ids are taken as traced
    and only the later releases are traced, from where it stopped."""

    numbered = [[n for n in seq if samples[n].kind in LINEAGE_KINDS and samples[n].number] for seq in sequences]
    done = list(resume.ids) if resume is not None else []
    traced = Traced() if resume is None else Traced(list(resume.traced.prev), list(resume.traced.prev_ids),
                                                    dict(resume.traced.lost), resume.traced.next_id,
                                                    resume.traced.steps)
    ids = done + trace([[(samples[n].number, fold_space(samples[n].text if samples[n].kind == "rule" else
                                                         samples[n].title or samples[n].text)) for n in seq]
                        for seq in numbered[len(done):]], traced)
    first_of: dict[int, str] = {}
    for rel, seq in enumerate(numbered):
        for n, lid in zip(seq, ids[rel], strict=True):
            version = at[rel][n]
            key = first_of.setdefault(lid, version.id)
            version.lineage = key
    by_id = {v.id: v for v in versions}
    for version in sorted(versions, key=lambda v: v.order):
        if version.lineage:
            continue
        if version.kind == "glossary" and version.title:
            version.lineage = f"{version.source}:glossary.{fold_term(version.title).replace(' ', '-')}"
        elif version.kind == "example" and version.parent in by_id:
            parent = by_id[version.parent]
            ordinal = version.id.split("@")[0].rsplit(".example", 1)[-1]
            version.lineage = f"{parent.lineage or parent.id}#example{ordinal}"
        else:
            version.lineage = version.id.split("@")[0]
    return ids, traced
