"""Glossary pages: every glossary term merged across sources, as a static HTML site or Markdown.

People publish these on a club site or a wiki, so the output is self-contained (every link
resolves inside OUT, nothing is fetched at view time), deterministic (a rebuild is byte-identical)
and safe (source text is escaped by the renderers in `site`, file names are slugs made here).

Model: a term page holds the top-level glossary records (a glossary record whose parent is not a
glossary record) that share a name or alias, with their parts (Crystal Keep "G5.19a") and any other
records filed under them. Every record that is linked to gets one home: a term page, or a rule
page (its chapter, else its top section or heading) added until every link target has one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from rulebase.core.errors import UsageError
from rulebase.core.records import Record, fold_accents, fold_space, slugify
from rulebase.core.sources import TOURNAMENT_DOCUMENTS, edition_rank, game_editions, is_edition
from rulebase.glossary import site as render
from rulebase.glossary.current import RULE_KINDS, Archive, load_archives
from rulebase.glossary.model import (
    CurrentPage,
    Definition,
    GlossarySummary,
    RulePage,
    Site,
    SourceInfo,
    TermPage,
)
from rulebase.glossary.output import MARKER as MARKER  # (re-exported: where callers have found it)
from rulebase.glossary.output import prepare, write
from rulebase.ingest.link import fold_term
from rulebase.rules.definitions import NAMING_WORDS, defining_text, loose_term, naming_test, opening_keys
from rulebase.rules.diff import merge_short_equals, word_diff

FORMATS = ("html", "md")
Progress = Callable[[str, int, int], None]


def term_key(name: str) -> str:
    """Loose merge key: loose_term ('Removed from the game' = 'remove from game') after accent folding."""
    folded = fold_accents(name)
    return loose_term(folded) or " ".join(folded.split())


def strict_key(name: str) -> str:
    """The linker's key (case, punctuation, plural 's', '(Obsolete)' folded), accents folded."""
    return fold_term(fold_accents(name))


def source_info(source: object) -> SourceInfo:
    """A Source, or a dict as in the index's report ("sources")."""
    get = source.get if isinstance(source, Mapping) else (lambda k, d=None: getattr(source, k, d))
    return SourceInfo(*(str(get(k) or "") for k in ("id", "title", "edition", "date", "lang",
                                                       "provenance", "credit")), get("edition_note"))


class _Corpus:
    def __init__(self, records: Iterable[Record], sources: Sequence[SourceInfo], archives: Sequence[Archive] = ()):
        self.rank = {s.id: n for n, s in enumerate(sources)}
        self.dates = {s.id: int((s.date.replace("-", "")[:8] + "0000")[:8]) if s.date[:4].isdigit() else 0
                      for s in sources}
        self.spans = {k: v for a in archives for k, v in a.spans.items()}
        self.steps = {k: v for a in archives for k, v in a.step_of.items()}
        self.records = sorted([*records, *(g for a in archives for g in [*a.glossary, *a.parts])], key=self.order)
        self.by_id = {r.id: r for r in self.records}
        self.kids: dict[str, list[Record]] = {}
        for r in self.records:
            if r.parent in self.by_id:
                self.kids.setdefault(r.parent, []).append(r)

    def order(self, r: Record) -> tuple:
        return (self.rank.get(r.source, len(self.rank)), r.source, r.order, r.id)

    def newest_first(self, r: Record) -> tuple:
        """Definitions' order on a term page: the newest era first, within it the newest text
        (an archive version by its first day in force, a document by its date)."""
        known, era = edition_rank(r.edition)
        when = self.spans[r.id][0] if r.span and r.id in self.spans else self.dates.get(r.source, 0)
        return (known, -era, -when, self.order(r))

    def oldest_first(self, r: Record) -> tuple:
        """Chronological order, what editions are diffed in."""
        known, era = edition_rank(r.edition)
        when = self.spans[r.id][0] if r.span and r.id in self.spans else self.dates.get(r.source, 0)
        return (known, era, when, self.order(r))

    def chain(self, r: Record) -> list[Record]:
        """Ancestors-or-self, top first (stops at a missing parent or a cycle)."""
        out, seen = [r], {r.id}
        while out[-1].parent in self.by_id and out[-1].parent not in seen:
            out.append(self.by_id[out[-1].parent])
            seen.add(out[-1].id)
        return out[::-1]

    def subtree(self, r: Record) -> list[Record]:
        out, seen, todo = [], {r.id}, list(self.kids.get(r.id, []))
        while todo:
            node = todo.pop()
            if node.id not in seen:
                seen.add(node.id)
                out.append(node)
                todo += self.kids.get(node.id, [])
        return sorted(out, key=self.order)

    def entry_of(self, r: Record) -> Record | None:
        """The top-level glossary entry `r` is (or is filed under), if any."""
        chain = self.chain(r)
        tops = [n for i, n in enumerate(chain) if n.kind == "glossary" and (i == 0 or chain[i - 1].kind != "glossary")]
        return tops[-1] if tops else None

    def page_root(self, r: Record) -> Record:
        chain = self.chain(r)
        for kinds in (("chapter",), ("section", "heading")):
            found = [n for n in chain if n.kind in kinds]
            if found:
                return found[0]
        return chain[0]


def _merge(corpus: _Corpus, editions: set[str]) -> list[TermPage]:
    """Group entries: same strict name or alias (or a linker 'glossary' link) always; same loose
    name only across sources, so 'Blocked Creature' and 'Blocking Creature' stay two pages."""
    entries = [r for r in corpus.records if r.kind == "glossary" and corpus.entry_of(r) is r
               and r.edition in editions]
    parent = {r.id: r.id for r in entries}
    owners = {r.id: {r.source} for r in entries}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(x: str, y: str, strict: bool) -> None:
        a, b = sorted((find(x), find(y)))
        if a != b and (strict or not owners[a] & owners[b]):
            parent[b] = a
            owners[a] |= owners.pop(b)

    for strict, key_of in ((True, strict_key), (False, term_key)):
        first: dict[str, str] = {}
        for r in entries:
            for key in {key_of(n) for n in [r.title or "", *r.aliases] if n.strip()} - {""}:
                union(first.setdefault(key, r.id), r.id, strict)
            for link in r.links:
                if strict and link.kind == "glossary" and link.target in parent:
                    union(link.target, r.id, True)
            if strict and r.span and r.lineage:  # an archive entry's versions across releases
                union(first.setdefault("\0" + r.lineage, r.id), r.id, True)
    groups: dict[str, list[Record]] = {}
    for r in entries:
        groups.setdefault(find(r.id), []).append(r)
    pages = []
    for members in groups.values():
        best = sorted(members, key=lambda r: (r.lang != "en", "(" in (r.title or "("),
                                              tuple(-n for n in edition_rank(r.edition)), corpus.order(r)))
        title = next((r.title for r in best if r.title and r.title.strip()), best[0].id)
        names = sorted({n for r in members for n in [r.title, *r.aliases] if n and n.strip()},
                       key=lambda n: (n.casefold(), n))
        defs = [_definition(corpus, r) for r in sorted(members, key=corpus.newest_first)]
        pages.append(TermPage(term_key(title), title, names, defs))
    pages.sort(key=lambda p: (fold_accents(p.title).casefold(), p.title, p.definitions[0].record.id))
    return pages


def _supplement(corpus: _Corpus, pages: list[TermPage], editions: set[str]) -> None:
    """Where a source has no glossary entry for a term, the paragraph or rule heading that defines
    it (4th Edition's '-Trample-:' paragraph and its continuation; Crystal Keep 1999's 'A.27 -
    Trample', shown by the rule that says what it does): definitions.defining_text, as `rulebase
    define` lists them."""
    defining: dict[str, list[Record]] = {}
    for r in corpus.records:
        if r.kind in ("passage", "chapter") and r.title and r.edition in editions and not r.span:
            for name in {term_key(n) for n in [r.title, *r.aliases] if n.strip()}:
                defining.setdefault(name, []).append(r)
    children = lambda record_id: corpus.kids.get(record_id, [])  # noqa: E731
    for page in pages:
        have = {d.record.source for d in page.definitions}
        loose = {loose_term(n) for n in page.names}
        for key in sorted({term_key(n) for n in page.names}):
            for r in defining.get(key, []):
                shown = defining_text(r, children, loose)
                if shown and r.source not in have:
                    head = _definition(corpus, shown[0])
                    if len(shown) > 1:  # a titled paragraph and the paragraphs that continue it
                        head = Definition(shown[0], shown[1:], "\n\n".join(p.text for p in shown))
                    page.definitions.append(head)
                    have.add(r.source)
        page.definitions.sort(key=lambda d: corpus.newest_first(d.record))


def _named(corpus: _Corpus, pages: list[TermPage], editions: set[str],
           also_named: Callable[[str], list[str]] | None) -> None:
    """Where a source still has nothing for a term, the sentence that names it inside another
    entry ("This kind of damage is called mana burn", "Ezt manaégésnek hívjuk", reached through a
    curated topic's Hungarian alias): definitions.naming_test, as `rulebase define` finds them.
    Such a record stays at home on its own page; here it is shown and linked."""
    candidates = [r for r in corpus.records if r.kind in ("glossary", "passage") and not r.span
                  and r.edition in editions and any(w in r.text.lower() for w in NAMING_WORDS)]
    for page in pages:
        have = {d.record.source for d in page.definitions}
        test = naming_test([*page.names, *(also_named(page.title) if also_named else [])])
        for r in candidates:
            if r.source not in have and test(r):
                page.definitions.append(Definition(r, [], r.text, named=True))
                have.add(r.source)
        page.definitions.sort(key=lambda d: corpus.newest_first(d.record))


def _opening(corpus: _Corpus, pages: list[TermPage], editions: set[str]) -> None:
    """Where a source still has nothing for a term, the paragraph that opens with it as its
    subject ("Interrupts always happen ..."): definitions.opening_keys, as `rulebase define` finds
    them; shown and linked here, at home on its own page."""
    opening: dict[str, list[Record]] = {}
    for r in corpus.records:
        if r.kind == "passage" and r.edition in editions:
            for key in opening_keys(r):
                opening.setdefault(key, []).append(r)
    for page in pages:
        have = {d.record.source for d in page.definitions}
        found = {r.id: r for key in {loose_term(n) for n in page.names} for r in opening.get(key, [])}
        for r in sorted(found.values(), key=corpus.order):
            if r.source not in have:
                page.definitions.append(Definition(r, [], r.text, named=True, opening=True))
                have.add(r.source)
        page.definitions.sort(key=lambda d: corpus.newest_first(d.record))


def _definition(corpus: _Corpus, entry: Record) -> Definition:
    parts = corpus.subtree(entry)
    texts = [p.text for p in parts if p.kind == "glossary"]
    head = [] if texts and fold_space(entry.text) == fold_space(entry.title or "") else [entry.text]
    return Definition(entry, parts, "\n\n".join(head + texts), corpus.steps.get(entry.id))


def _annotate(corpus: _Corpus, pages: list[TermPage]) -> None:
    """Hungarian names, English names, referrers and edition diffs of each term page."""
    terms = [r for r in corpus.records if r.kind == "term"]
    alias_keys = [{term_key(a) for a in t.aliases} for t in terms]
    title_keys = [term_key(t.title or "") for t in terms]
    by_key: dict[str, TermPage] = {}
    for page in pages:
        for name in page.names:
            by_key.setdefault(term_key(name), page)
    for page in pages:
        keys = {term_key(n) for n in page.names}
        page.hungarian = [t for t, aliases in zip(terms, alias_keys, strict=True) if keys & aliases]
        english = dict.fromkeys(a for t, key in zip(terms, title_keys, strict=True) if key in keys
                                for a in t.aliases)
        page.english = [(en, by_key.get(term_key(en))) for en in english]
        here = {d.record.id for d in page.definitions} | {p.id for d in page.definitions for p in d.parts}
        ids = dict.fromkeys(i for d in page.definitions for r in [d.record, *d.parts] for i in r.refs_in)
        page.referrers = sorted((corpus.by_id[i] for i in ids if i in corpus.by_id and i not in here),
                                key=corpus.order)
        for lang in sorted({d.record.lang for d in page.definitions}):
            firsts = {}
            for d in sorted(page.definitions, key=lambda d: corpus.oldest_first(d.record)):
                if d.record.lang == lang and not d.named:
                    firsts.setdefault(d.record.edition, d)
            reps = list(firsts.values())
            for old, new in zip(reps, reps[1:], strict=False):
                if fold_space(old.text) != fold_space(new.text):
                    page.diffs.append((old, new, merge_short_equals(word_diff(old.text, new.text))))


def _targets(records: Iterable[Record], extra: Iterable[str] = ()) -> list[str]:
    return [*(ref.target for r in records for ref in r.refs if ref.target), *extra]


def plan(records: Iterable[Record], sources: Sequence[object], editions: Iterable[str] | None = None,
         progress: Progress | None = None, archives: Sequence[Archive] = (),
         also_named: Callable[[str], list[str]] | None = None) -> Site:
    """The whole site as data: term pages, the rule pages they need, the newest Comprehensive
    Rules release's pages (`archives`, from current.load_archives; without an --editions filter)
    and each record's home. `also_named(term)`: further names of a term (curated topics)."""
    infos = [source_info(s) for s in sources]
    corpus = _Corpus(records, infos, archives)
    present = {r.edition for r in corpus.records}
    chosen = set(editions) if editions is not None else present
    check_editions(chosen, lambda: present)
    terms = _merge(corpus, chosen)
    _supplement(corpus, terms, chosen)
    _named(corpus, terms, chosen, also_named)
    _opening(corpus, terms, chosen)
    _annotate(corpus, terms)
    home: dict[str, TermPage | RulePage | CurrentPage] = {}
    pending: list[str] = []
    for n, page in enumerate(terms, 1):
        for d in page.definitions:
            if d.named:
                continue
            for r in [d.record, *d.parts]:
                home[r.id] = page
            pending += _targets([d.record, *d.parts], [i for r in [d.record, *d.parts] for i in r.refs_in])
        pending += [t.id for t in page.hungarian]
        if progress:
            progress("terms", n, len(terms))
    for page in terms:  # a sentence naming the term, shown here, lives on its entry's page
        for d in page.definitions:
            if d.named and d.record.id not in home:
                home[d.record.id] = page
    current = _current(corpus, archives if editions is None else (), home)
    alias = {twin: shown for archive in archives for twin, shown in archive.twin_of.items() if shown in home}
    rules: list[RulePage] = []
    while pending:
        found = sorted({t for t in pending if t not in home and t in corpus.by_id})
        pending = []
        for target in found:
            record = corpus.by_id[target]
            if target in home or corpus.entry_of(record) is not None or record.span:
                continue  # already placed, a glossary entry this build leaves out, or an archive version
            root = corpus.page_root(record)
            members = [n for n in [root, *corpus.subtree(root)]
                       if corpus.page_root(n) is root and corpus.entry_of(n) is None]
            placed = {m.id for m in members}
            page = RulePage(root, members, [k for k in corpus.kids.get(root.id, []) if k.id not in placed])
            rules.append(page)
            home.update((m.id, page) for m in members)
            pending += _targets(members, [k.id for k in page.toc])
        if progress:
            progress("rules", len(rules), len(rules))
    rules.sort(key=lambda p: corpus.order(p.root))
    for page in terms:  # the current rules a term's definitions cite
        cited = {id(c): c for d in page.definitions if not d.named for r in [d.record, *d.parts]
                 for ref in r.refs if isinstance(c := home.get(ref.target or ""), CurrentPage)}
        for rule in cited.values():
            rule.cited_by.append(page)
    _assign_paths(terms, rules, current)
    return Site(terms, rules, infos, home, current, alias)


def _current(corpus: _Corpus, archives: Sequence[Archive], home: dict) -> list[CurrentPage]:
    """A page for every section, chapter, rule and subrule in force in each archive's newest
    release, with its examples, its subrules and its history; every version of its lineage has
    its home there (the history lists each)."""
    pages: list[CurrentPage] = []
    for archive in archives:
        by_id = {r.id: r for r in archive.live}
        kids: dict[str, list[Record]] = {}
        for r in archive.live:
            if r.id in archive.parent:
                kids.setdefault(archive.parent[r.id], []).append(r)
        for r in archive.live:
            if r.kind not in RULE_KINDS or not (r.number or r.source in TOURNAMENT_DOCUMENTS):
                continue  # the glossary's section heading: its entries are the term pages (the JAR's are named)
            crumbs, at = [], r.id
            while (at := archive.parent.get(at, "")) in by_id and len(crumbs) < 20:
                crumbs.insert(0, by_id[at])
            mine = kids.get(r.id, [])
            key = r.lineage or r.id
            linked = [corpus.by_id[i] for i in archive.linked.get(key, []) if i in corpus.by_id]
            page = CurrentPage(r, crumbs, [k for k in mine if k.kind in RULE_KINDS],
                               [k for k in mine if k.kind == "example"], archive.steps.get(key, []), linked,
                               archive.release["date"], cards=archive.cards.get(r.id, (0, [])))
            pages.append(page)
            home[r.id] = page
            home.update((e.id, page) for e in page.examples)
        for page in pages:  # older versions: anchored in the history of the rule they became
            for step in page.steps:
                home.setdefault(step.record.id, page)
    return pages


def _assign_paths(terms: list[TermPage], rules: list[RulePage], current: list[CurrentPage]) -> None:
    used: set[str] = set()

    def unique(folder: str, text: str) -> str:
        base = slugify(text)[:80].strip("-") or "x"
        slug, n = base, 1
        while slug in used:
            n += 1
            slug = f"{base}-{n}"
        used.add(slug)
        return f"{folder}/{slug}"

    for page in terms:
        page.path = unique("terms", page.title)
    used.clear()
    for rule in rules:
        rule.path = unique("rules", f"{rule.root.source} {rule.root.number or rule.root.title or rule.root.id}")
    for page in current:
        page.path = unique("rules", f"{page.record.source} {page.record.number or page.record.title}")


def check_format(fmt: str) -> None:
    """A usage error for a format the site is not written in, before anything is read."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}", hint="use --format html or --format md")


def check_editions(editions: Iterable[str] | None, known: Callable[[], Iterable[str]]) -> None:
    """A usage error for an edition label no edition has ("9x"), listing the editions `known()`
    names (asked only then)."""
    unknown = sorted(e for e in editions or () if not is_edition(e))
    if unknown:
        raise UsageError(f"unknown edition {unknown[0]!r}",
                         hint=f"use one of {', '.join(sorted(known(), key=edition_rank))}")


def build_glossary(records: Iterable[Record], sources: Sequence[object], out: Path | str, fmt: str = "html",
                   editions: Iterable[str] | None = None, force: bool = False,
                   progress: Progress | None = None, archives: Sequence[Archive] = (),
                   also_named: Callable[[str], list[str]] | None = None) -> GlossarySummary:
    """Write the glossary site for `records` (and `archives`) into `out` (see the module docstring)."""

    check_format(fmt)
    out = Path(out)
    built = plan(records, sources, editions, progress, archives, also_named)  # pure: bad options fail
    # before OUT is touched
    previous = prepare(out, force)
    files = render.render_site(built, fmt)
    kept = write(out, files, previous, progress)
    pages = sum(1 for name in files if name.endswith("." + fmt))
    return GlossarySummary(out, fmt, pages, len(built.terms), len(built.rules) + len(built.current), len(files) + 1,
                           tuple(kept))


def from_library(library) -> tuple[list[Record], list, list[Archive], Callable[[str], list[str]]]:
    """What the site is built from, out of a `rulebase.library.Library`: the documents' records,
    their sources, the Comprehensive Rules archive (every glossary entry of every release, the
    newest release's rules with their histories) and the curated topics' Hungarian names."""
    # lazy: only a library build reads the curated topics (the pure build_glossary does not)
    from rulebase.core.errors import ManifestError
    from rulebase.rules.cards import used_by
    from rulebase.rules.compare import TOPICS_FILE, load_topics, topic_key
    from rulebase.rules.definitions import curated_names

    sources = library.ensure().report()["sources"]
    store = library.store
    archive_ids = set(store.releases())  # (their versions are read by load_archives)
    # (no card has a page: a rule's page names the cards using it through used_by, below; reading
    # the 58,251 cards and rulings took 5 s of a 20 s build)
    records = [r for source in store.documents() if source not in archive_ids
               for r in store.of_source(source, without=("card", "card-ruling")) if not r.span]
    try:
        topics = load_topics(Path(library.corpus_dir) / TOPICS_FILE)
    except ManifestError:
        topics = []  # (`compare` reports a broken topics file)
    named = {topic_key(a) for t in topics for a in (t.name, *t.aliases)}  # a quick no for most terms

    def also_named(term: str) -> list[str]:
        return curated_names(library.corpus_dir, term, topics) if topic_key(term) in named else []
    archives = load_archives(store, records)
    for archive in archives:  # the cards whose text uses each rule, as lookup names them
        archive.cards = {r.id: found for r in archive.live if r.kind in RULE_KINDS and (found := used_by(store, r))[0]}
    return records, sources, archives, also_named


def build_from_library(library, out: Path | str, fmt: str = "html", editions: Iterable[str] | None = None,
                       force: bool = False, progress: Progress | None = None) -> GlossarySummary:
    """`build_glossary` over a `rulebase.library.Library` (from_library). A format it cannot write
    is refused before the library's records are read (20 s of CPU on the real corpus), and so is
    an edition label no edition has ("9x")."""
    check_format(fmt)
    check_editions(editions, lambda: game_editions(library.sources))
    records, sources, archives, also_named = from_library(library)
    return build_glossary(records, sources, out, fmt, editions, force, progress, archives, also_named)
