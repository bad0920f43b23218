"""Writing the full-text index: one document per text, segments written in worker processes,
cached segments copied in, and DOCMETA beside them (what index.Searcher reads).

The schema and the reading side are in rulebase/index: a search never imports this.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable
from pathlib import Path

from rulebase.build.concepts import concept_table
from rulebase.core.eras import OPEN_END, day, labels_between, next_day
from rulebase.core.errors import IndexError_
from rulebase.core.pool import pool
from rulebase.core.records import Record, fold_typography
from rulebase.core.records import fold_accents as fold
from rulebase.core.sources import TOURNAMENT_DOCUMENTS
from rulebase.index import postings
from rulebase.index.concepts import CONCEPTS, write_concepts
from rulebase.index.schema import DOCMETA, make_schema, whoosh_index
from rulebase.index.scorer import Scorer
from rulebase.index.tables import TABLES, compute_tables, write_tables


def title_only(record: Record) -> bool:
    """Headings and titled rule lines ('502.83. Exalted') whose text is just their title."""
    return bool(record.title) and fold(record.text).strip(" .:") == fold(record.title or "").strip(" .:")


def leads(records: list[Record]) -> dict[str, str]:
    """Where a hit should lead: a title-only record to its first child with content (searching
    'Takarítás' shows the cleanup step's text), a term-map entry to the passage it stands in, a
    book's index entry to the first record it points to (the Alpha rulebook's "Trample")."""
    titled = {r.id for r in records if title_only(r)}  # (once a record: it folds the record's whole text)
    first: dict[str, str] = {}
    for record in records:
        if record.parent and record.parent not in first and record.id not in titled and record.kind != "term":
            first[record.parent] = record.id
    lead = {r.id: first[r.id] for r in records if r.id in titled and r.id in first}
    lead.update({r.id: r.parent for r in records if r.kind == "term" and r.parent})
    lead.update({r.id: r.refs[0].target for r in records if r.kind == "index" and r.refs and r.refs[0].target})
    return lead


def _document(record: Record, lead: str | None, editions: list[str] | None = None, spelled: bool = True) -> dict:

    title = " ".join([record.title or "", *record.aliases]).strip()
    editions = editions or [record.edition]
    doc = {"id": record.id, "source": record.source, "edition": " ".join(editions), "lang": record.lang,
           "kind": record.kind, "exact": f"{title} {record.text}" if spelled else "", "lead": lead or "",
           "group": record.lineage or record.id}
    if record.kind in ("card", "card-ruling"):
        del doc["group"]  # asked for by rule lineage only (search --within): a card is its own group
    context = " ".join(record.section)
    if record.lang == "hu":
        doc.update(title_hu=title, text_hu=record.text, context_hu=context)
    else:
        doc.update(title=title, text=record.text, context=context)
    return doc


MIN_PART = 5000  # fewer records than this per worker: one process is faster than starting two


def _codec():
    # lazy: Whoosh (~140 ms) only where this path reads the index
    from whoosh.codec.whoosh3 import W3Codec

    # Without per-block length statistics: writing them reads back every posting's field length
    # (a tenth of the build), and they only let Whoosh's own searcher skip blocks; scorer.py
    # reads each document's length, and the fuzzy path's skipping stays correct (bounds of 0).
    codec = W3Codec()
    codec.length_stats = False
    return codec


def _write_segment(path: str, docs: list[dict]):
    """One segment of `docs`, written but not yet listed in the table of contents (the parent
    lists every worker's segment at once, as Whoosh's own multiprocess writer does)."""
    # lazy: Whoosh (~140 ms) only where this path reads the index
    from whoosh.writing import SegmentWriter

    ix = whoosh_index.open_dir(path)
    storage, own = ix.storage, f"{ix.indexname}.{os.getpid()}.tmp"
    # Each worker sorts its postings in a temporary folder of its own (Whoosh names it after the
    # index, so two workers would share one and the first to finish would delete it).
    base = type(storage).temp_storage
    storage.temp_storage = lambda name=None: base(storage, own)
    # Plain files: opening a compound segment copies every file out of it. Postings are sorted in
    # memory up to `limitmb` (Whoosh's estimate of their size), then spilled to disk one pickle
    # each and merged back: the cards' million postings (about 200 MB by that estimate) spilled
    # at 96 MB, and their segment took 37 s of CPU; kept in memory, 23 s, for 100 MB more of that
    # worker's peak (409 -> 505 MB, below the build's own). No other segment reaches the limit.
    writer = SegmentWriter(ix, _lk=False, limitmb=256, compound=False, codec=_codec())
    for doc in docs:
        writer.add_document(**doc)
    segment = writer._finalize_segment()
    writer._tempstorage.destroy()
    return segment


def write_index(path: Path, records: list[Record],
                progress: Callable[[str, int, int], None] | None = None,
                windows: dict[str, tuple[int, int]] | None = None, workers: int = 1,
                cached: dict[str, Path] | None = None, common: bool = True,
                groups: list[tuple[str, ...]] | None = None, cuts: dict[str, int] | None = None,
                stored: bool = True, keys: dict[tuple[str, ...], str] | None = None) -> None:
    """Write the full-text index; with several `workers` each writes a segment of consecutive
    records in its own process. `cached`: per source id, an index written earlier for exactly that
    source's records with this schema (cache.py); its segments are copied in after ours. `groups`:
    sets of source ids whose documents are indexed as one segment kept in the build cache
    (cache.Segment), keyed by the digest of those very documents: when a rebuild gives a group the
    same documents (the bundled documents after `rulebase add`), its segment is copied, not
    written again. `keys`: a group's key known without its documents (the cards': their file's
    bytes and the code, which make their documents), so a cached segment is found without them.
    `cuts`: per cached archive source id, its archive_cut (its index, from
    write_archive_index, holds its closed documents first, then the rest: archive_parts). Also
    writes DOCMETA, each document's group and days in force in document-number order, and (with `common`) the common terms' decoded postings (postings.py), the concept
    table (concepts.py) and the glossary's and the MTR's tables (tables.py); `stored=False` leaves the decoded common postings out (the cards' index:
    22 MB for a little speed on a rarer search)."""
    # lazy: Whoosh (~140 ms) only where this path reads the index
    from whoosh.index import TOC, clean_files

    cached = cached or {}
    path.mkdir(parents=True)
    schema = make_schema()
    ix = whoosh_index.create_in(str(path), schema)
    own = [r for r in records if r.source not in cached]
    lead = leads(own)
    windows = windows or {}
    everything = documents_of(own, windows)
    shared, docs, reused = [], [], []  # written here; (copied segment folder, its documents)
    for part, part_docs, folder in _grouped(everything, lead, groups or [], workers, keys or {}):
        if folder is None:
            shared += part
            docs += part_docs
        else:
            reused.append((folder, part))
    total = len(docs)
    if progress:
        progress("index", 0, total)
    # one segment per worker: fewer segments search faster (none when all was copied)
    segments = _write_parts(path, _split(docs, max(1, min(workers, total // MIN_PART))), workers)
    if progress:
        progress("index", total, total)
    order = shared + [d for _, part in reused for d in part]
    for source in cached:  # in the order of the copied segments (an archive's: closed, then open)
        archived = documents_of([r for r in records if r.source == source], windows)
        if cuts and source in cuts:
            closed, rest = archive_parts(archived, cuts[source])
            archived = closed + rest
        order += archived
    copied = _copy_segments([folder for folder, _ in reused] + list(cached.values()), path)
    segments = [s for s in segments if s.doc_count_all()] + copied
    if sum(s.doc_count_all() for s in segments) != len(order):
        raise IndexError_("a cached index segment does not match the records it was built for",
                          str(path), "delete the cache folder (RULEBASE_CACHE) and build again")
    generation = ix.latest_generation() + 1
    TOC(schema, segments, generation).write(ix.storage, ix.indexname)
    clean_files(ix.storage, ix.indexname, generation, segments)
    _write_docmeta(path / DOCMETA, order, windows)
    if common:  # (not for the build cache's archive segment: its scores are not the index's)
        analyser = schema["text"].analyzer
        names: dict[tuple[str, ...], str] = {}
        citing: dict[tuple[str, ...], list[int]] = {}
        analyse = lambda text: [t.text for t in analyser(text)]  # noqa: E731
        write_concepts(path / CONCEPTS, concept_table(order, analyse, names, citing), names, citing)
        write_tables(path / TABLES, compute_tables(records, windows, order, analyse))

        if stored:
            with whoosh_index.open_dir(str(path)).reader() as reader:
                postings.write(path, reader, Scorer(reader, B=postings.BM25_B, K1=postings.BM25_K1))


def _grouped(shared: list[tuple], lead: dict[str, str], groups: list[tuple[str, ...]],
             workers: int, keys: dict[tuple[str, ...], str]) -> list[tuple[list[tuple], list[dict], Path | None]]:
    """`shared` (documents_of) in parts: the documents of no group, then each group's, in the
    order of their first document. A group's part comes with the folder of its cached segment
    (written now when the cache lacks it), or None when the cache cannot be written: then its
    documents are indexed into the generation with the rest."""
    # lazy: only this rarer path needs it
    from rulebase.build.cache import Segment, prune_segments, touch

    of = {source: n for n, group in enumerate(groups) for source in group}
    parts: dict[int, list[tuple]] = {}
    first: dict[int, int] = {}
    for at, entry in enumerate(shared):
        n = of.get(entry[0].source, -1)
        parts.setdefault(n, []).append(entry)
        first.setdefault(n, at)
    out, missing = [], []
    for n, part in sorted(parts.items(), key=lambda item: (item[0] >= 0, first[item[0]])):
        known = Segment(keys[groups[n]]) if n >= 0 and groups[n] in keys else None
        if known is not None and known.ready():
            out.append([part, [], known])  # (the cards' 34,632 documents: 0.7 s not spent)
            continue
        docs = [_document(r, lead.get(r.id), editions, spelled) for r, _, editions, spelled in part]
        if n < 0:
            out.append([part, docs, None])
            continue
        segment = known or Segment(group_key(docs))
        out.append([part, docs, segment])
        if not segment.ready():
            missing.append((segment, docs))
    if len(missing) > 1 and workers > 1:
        with pool(min(workers, len(missing))) as running:
            list(running.map(_cache_segment, [str(s.path) for s, _ in missing], [d for _, d in missing]))
    else:
        for segment, docs in missing:
            _cache_segment(str(segment.path), docs, workers)
    for item in out:
        segment = item[2]
        if segment is not None and segment.ready():
            touch(segment.path)  # recently used: kept by prune_segments
            item[2] = segment.segment_dir
        else:
            item[2] = None
    prune_segments({item[2].parent for item in out if item[2] is not None})
    return [tuple(item) for item in out]


def group_key(docs: list[dict]) -> str:
    """The key of a group's cached segment (cache.Segment): the digest of the code and of exactly
    the search documents it holds."""
    # lazy: only this rarer path needs it
    import hashlib
    import json

    from rulebase.build.digest import code_digest

    digest = hashlib.sha256(code_digest().encode())
    digest.update(json.dumps(docs, sort_keys=True, ensure_ascii=False).encode("utf-8"))
    return digest.hexdigest()[:24]


def cache_group(records: list[Record], windows: dict[str, tuple[int, int]], key: str = "") -> None:
    """Write a group's segment into the build cache ahead of the build that will want it (the
    tournament documents', while the Comprehensive Rules archive is parsed): `records` in the order
    the build holds them, with their days in force; `_grouped` then copies it. `key`: the group's
    key when the build gives it one (write_index's `keys`), else its documents' digest."""
    # lazy: only this rarer path needs it
    from rulebase.build.cache import Segment

    lead = leads(records)
    docs = [_document(r, lead.get(r.id), editions, spelled) for r, _, editions, spelled in documents_of(records, windows)]
    segment = Segment(key or group_key(docs))
    if not segment.ready():
        _cache_segment(str(segment.path), docs)


def archive_cut(releases: list[dict]) -> int:
    """The first day of the newest release of an archive's own files (archive.py's meta rows;
    a release added with `rulebase add` is read from a member named 'added:FILE'), 0 without one.
    The archive's documents that ended before it are its closed ones (archive_parts)."""
    own = [row["date"] for row in releases if not str(row.get("member", "")).startswith("added:")]
    return day(max(own)) if own else 0


def archive_parts(docs: list[tuple], cut: int) -> tuple[list[tuple], list[tuple]]:
    """An archive's documents (documents_of), in record order, as its index holds them: first
    the closed ones, whose days in force ended before `cut` (archive_cut) and, of a rule, whose
    lineage has a later version that began by then, then the rest. A release newer than the
    archive's own cannot change a closed document: its days, its editions and its `spelled`
    (not the newest version, and a later one stays) are the same; a lineage's last version
    before a gap stays with the rest, as a newer release may bring the rule back."""
    started: dict[str, int] = {}  # lineage -> the first day of its latest version begun by `cut`
    for record, window, *_ in docs:
        if record.span and record.lineage and window[0] <= cut:
            started[record.lineage] = max(started.get(record.lineage, 0), window[0])
    closed, rest = [], []
    for doc in docs:
        record, window = doc[0], doc[1]
        done = window[1] < cut and (not (record.span and record.lineage) or started[record.lineage] > window[1])
        (closed if done else rest).append(doc)
    return closed, rest


CLOSED = "closed.json"  # beside an archive's index: the key, segment ids and count of its closed documents


def write_archive_index(path: Path, records: list[Record], windows: dict[str, tuple[int, int]],
                        workers: int, cut: int, reuse: Path | None = None) -> None:
    """An archive's index for its build cache entry (build/archive.py), in two parts: the
    segments of its closed documents (archive_parts), keyed by their digest and the code's
    (CLOSED), then those of the rest. Folding a newer release into the timeline can only change
    the rest (and add new documents): `reuse`, the index of the archive's own entry, gives its
    closed segments, copied when their key is this one (the same documents), written again when
    not. The same documents in the same order either way: a fold and a build from scratch
    number them alike (write_index's `cuts` orders DOCMETA so)."""
    # lazy: Whoosh (~140 ms) only where this path reads the index
    import hashlib
    import json

    from whoosh.index import TOC, clean_files

    from rulebase.build.digest import code_digest

    path.mkdir(parents=True)
    schema = make_schema()
    ix = whoosh_index.create_in(str(path), schema)
    lead = leads(records)
    done, open_ = archive_parts(documents_of(records, windows), cut)
    docs = [_document(r, lead.get(r.id), editions, spelled) for r, _, editions, spelled in done + open_]
    closed = len(done)
    digest = hashlib.sha256(code_digest().encode())
    digest.update(json.dumps(docs[:closed], sort_keys=True, ensure_ascii=False).encode("utf-8"))
    key = digest.hexdigest()[:24]
    kept = _closed_segments(reuse, key, closed, path) if reuse is not None and closed else []
    # written in parts, one per worker (MIN_PART, ADDED_PART): the closed ones (unless copied),
    # then the rest, so that a full build's workers share the work
    parts = [] if kept or not closed else _split(docs[:closed], max(1, min(workers, closed // MIN_PART)))
    count = len(parts)
    parts += _split(docs[closed:], max(1, min(workers, (len(docs) - closed) // ADDED_PART)))
    segments = kept + _write_parts(path, parts, workers)
    if closed:
        ids = [s.segment_id() for s in segments[:len(kept) or count]]
        (path / CLOSED).write_text(json.dumps({"key": key, "segments": ids, "docs": closed}), encoding="utf-8")
    generation = ix.latest_generation() + 1
    TOC(schema, segments, generation).write(ix.storage, ix.indexname)
    clean_files(ix.storage, ix.indexname, generation, segments)


def _split(docs: list[dict], n: int) -> list[list[dict]]:
    """`docs` in `n` consecutive parts (none of no documents)."""
    size = -(-len(docs) // n) or 1
    return [docs[i:i + size] for i in range(0, len(docs), size)]


def _write_parts(path: Path, parts: list[list[dict]], workers: int) -> list:
    """A segment of each part, in order: in up to `workers` processes when there are several."""
    if len(parts) > 1 and workers > 1:
        with pool(min(workers, len(parts))) as running:
            return list(running.map(_write_segment, [str(path)] * len(parts), parts))
    return [_write_segment(str(path), part) for part in parts]


def _closed_segments(reuse: Path, key: str, closed: int, into: Path) -> list:
    """The closed segments of the archive index in `reuse` (CLOSED; a cache entry's folder,
    verified), copied into `into`, when they hold the `closed` documents of `key`; else none.
    Whoosh reads a copy checked byte for byte against the entry's sealed list (cache.copy_verified)."""
    # lazy: only this rarer path needs it
    import json
    import shutil

    from rulebase.build.cache import copy_verified

    staging = into.parent / f".closed-{into.name}"
    try:
        copy_verified(reuse, staging)
        held = json.loads((staging / CLOSED).read_text(encoding="utf-8"))
        ids = held["segments"]
        segments = whoosh_index.open_dir(str(staging), readonly=True)._segments()[:len(ids)]  # noqa: SLF001
        if (held["key"] != key or held["docs"] != closed or [s.segment_id() for s in segments] != ids
                or sum(s.doc_count_all() for s in segments) != closed):
            return []
        moving = [(s, [f for f in staging.iterdir() if f.name.startswith(f"{s.segment_id()}.")]) for s in segments]
        if not all(files for _, files in moving):
            return []
        for _, files in moving:
            for file in files:
                os.replace(file, into / file.name)
        return segments
    except (OSError, ValueError, KeyError, TypeError, IndexError, IndexError_):
        return []
    finally:
        shutil.rmtree(staging, ignore_errors=True)


ADDED_PART = 1500  # an added document of more records than twice this is indexed by two workers


def _cache_segment(path: str, docs: list[dict], workers: int = 1) -> bool:
    """Write `docs` as an index into the cache entry at `path` (cache.Segment): one segment, or
    one per worker when there are more than ADDED_PART documents for each (an added release of
    4,000 records, while records.db is written beside it: about a second less)."""
    # lazy: only this rarer path needs it
    from whoosh.index import TOC, clean_files

    from rulebase.build.cache import Segment

    def write(folder: Path) -> None:
        folder.mkdir(parents=True)
        schema = make_schema()
        ix = whoosh_index.create_in(str(folder), schema)
        n = max(1, min(workers, len(docs) // ADDED_PART))
        if n > 1:
            size = -(-len(docs) // n)
            with pool(n) as running:
                segments = list(running.map(_write_segment, [str(folder)] * n,
                                             [docs[i:i + size] for i in range(0, len(docs), size)]))
        else:
            segments = [_write_segment(str(folder), docs)]
        generation = ix.latest_generation() + 1
        TOC(schema, segments, generation).write(ix.storage, ix.indexname)
        clean_files(ix.storage, ix.indexname, generation, segments)

    return Segment(path=Path(path)).save(write)


def documents_of(records: list[Record], windows: dict[str, tuple[int, int]]) -> list[tuple]:
    """One search document per text: consecutive archive versions of a rule that differ only in
    typography (quote style; see records.fold_typography) share one, shown by the newest, in force
    from the first's first day to the last's last day. Halves the archive's documents. Returns
    (record, window, edition labels, spelled) in record order; `spelled` marks the documents whose
    words go to the unstemmed field that fuzzy matching and spelling suggestions read: of a rule's
    versions only the newest (older wording adds little vocabulary and a third of the index work)."""

    out: list[list] = []  # [record shown, window, first and last release or None]
    last_of: dict[str, tuple[str, int]] = {}  # lineage -> (folded text, index in out)
    for record in records:
        window = windows.get(record.id, (0, OPEN_END))
        if not (record.span and record.lineage):
            out.append([record, window, None])
            continue
        key = fold_typography(f"{record.kind} {record.title or ''} {record.text}")
        held = last_of.get(record.lineage)
        if held is not None and held[0] == key and window[0] == next_day(out[held[1]][1][1]) < OPEN_END:
            entry = out[held[1]]
            entry[:] = [record, (entry[1][0], window[1]), [entry[2][0], record.span[1]]]
            continue
        last_of[record.lineage] = (key, len(out))
        out.append([record, window, list(record.span)])
    newest = {i for _, i in last_of.values()}
    # a card's words are not spelled: a misspelled card name is corrected from the names (rules/cards.py)
    return [(r, w, labels_between(*span) if span else [r.edition], (span is None or i in newest) and r.kind not in ("card", "card-ruling"))
            for i, (r, w, span) in enumerate(out)]


def _write_docmeta(path: Path, order: list[tuple], windows: dict[str, tuple[int, int]]) -> None:
    # lazy: only this rarer path needs it
    from array import array

    numbers: dict[str, int] = {}
    groups = array("I", (numbers.setdefault(r.lineage or r.id, len(numbers)) for r, *_ in order))
    first = array("I", (w[0] for _, w, *_ in order))
    last = array("I", (w[1] for _, w, *_ in order))
    ending = array("I", sorted(range(len(last)), key=lambda d: (last[d], d)))  # (schema.DOCMETA)
    ends = array("I", (last[d] for d in ending))
    tournament = array("I", (r.source in TOURNAMENT_DOCUMENTS for r, *_ in order))
    data = b"".join(column.tobytes() for column in (groups, first, last, ending, ends, tournament))
    with open(path, "wb") as handle:  # the columns, then their CRC-32 (read_docmeta checks it)
        handle.write(data + zlib.crc32(data).to_bytes(4, "little"))


def _copy_segments(folders: list[Path], into: Path) -> list:
    """Copy every segment of the cached indexes in `folders` into `into`; returns the segment
    objects. Each folder is first copied beside `into`, every byte checked against the cache
    entry's sealed list (cache.copy_verified), and Whoosh opens only that copy."""
    # lazy: only this rarer path needs it
    import shutil

    from rulebase.build.cache import copy_verified

    found = []
    for n, folder in enumerate(folders):
        staging = into.parent / f".cached-{into.name}-{n}"
        try:
            copy_verified(folder, staging)
            ix = whoosh_index.open_dir(str(staging), readonly=True)
            for segment in ix._segments():  # noqa: SLF001 - the segment list is what a TOC holds
                prefix = f"{segment.segment_id()}."  # "MAIN_<segid>."
                files = [file for file in staging.iterdir() if file.name.startswith(prefix)]
                if not files:
                    raise IndexError_("a cached index segment has no files", str(folder),
                                      "delete the cache folder (RULEBASE_CACHE) and build again")
                for file in files:
                    os.replace(file, into / file.name)
                found.append(segment)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return found
