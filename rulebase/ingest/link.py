"""Cross-document linking: resolve references and citations, join the same rule across
documents, and compute reverse links. Runs once over all records after every parser.

Parsers record what the text says (`Ref.key`); only here do we know what else is in the corpus,
so only here can a reference be resolved or declared unresolvable with a reason.
"""

from __future__ import annotations

import re
from collections import defaultdict

from rulebase.core.records import Citation, Link, Record, Ref, fold_space, number_key
from rulebase.core.sources import Source
from rulebase.core.value import Value

NUMBERED_FORMATS = ("comprules", "crystalkeep-2008", "crystalkeep-1999")
# How citations name rulebooks -> the edition whose rulebook pages they mean.
RULEBOOK_CITES = {"fifth edition": "5e", "fourth edition": "4e"}
_RANGE = re.compile(r"^(?P<start>.+?)-(?P<end>.+)$")
_WORDS = re.compile(r"[a-z0-9]+")
_QUALIFIER = re.compile(r"\s*\((?:obsolete|informal)\)\s*$", re.IGNORECASE)


def bare_title(text: str) -> str:
    """A glossary title without its "(Obsolete)" or "(Informal)": the term it names."""
    return _QUALIFIER.sub("", text).strip()


def fold_term(text: str) -> str:
    """Glossary matching key: case, punctuation and a trailing plural 's' folded."""
    text = bare_title(text)
    words = _WORDS.findall(text.lower().replace("'s ", " "))
    if words and len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def same_text_key(text: str) -> str:
    """Comparison form for 'same rule' texts: whitespace, quotes and markup folded."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'").replace("_", "")
    return fold_space(text).lower()


class LinkReport(Value):
    """What linking found, for the ingest report."""

    __slots__ = ("unresolved", "differences", "joined", "resolved")

    def __init__(self, unresolved: list[tuple[str, str, str]] | None = None,
                 differences: list[tuple[str, str]] | None = None, joined: int = 0, resolved: int = 0) -> None:
        self.unresolved = [] if unresolved is None else unresolved  # (record id, label, reason)
        self.differences = [] if differences is None else differences  # (ck id, official id)
        self.joined = joined
        self.resolved = resolved


class _Linker:
    def __init__(self, records: list[Record], sources: list[Source]):
        self.records = records
        self.by_id = {r.id: r for r in records}
        self.sources = {s.id: s for s in sources}
        self.rank = {s.id: n for n, s in enumerate(sources)}
        self.numbers: dict[str, dict[str, str]] = defaultdict(dict)  # source -> number -> id
        self.terms: dict[str, list[str]] = defaultdict(list)  # folded term -> glossary ids
        self.pages: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for r in records:
            if r.number and r.number not in self.numbers[r.source]:
                self.numbers[r.source][r.number] = r.id
            if r.kind == "glossary" and r.title and (r.parent is None or r.parent not in self.by_id
                                                     or self.by_id[r.parent].kind != "glossary"):
                for name in [r.title, *r.aliases]:
                    key = fold_term(name)
                    if key and r.id not in self.terms[key]:
                        self.terms[key].append(r.id)
            for page in r.pages:
                self.pages[r.source][page].append(r.id)
        self.report = LinkReport()

    # -- scopes -------------------------------------------------------------------------------
    def _scope(self, record: Record) -> list[str]:
        """Own source first, then numbered sources of the same edition, then the rest."""
        own = record.source
        same = [s for s in self.sources.values() if s.id != own and s.edition == record.edition
                and s.format in NUMBERED_FORMATS]
        same.sort(key=lambda s: (s.format != "comprules", self.rank[s.id]))
        return [own] + [s.id for s in same]

    # -- references -----------------------------------------------------------------------------
    def _resolve_number(self, record: Record, ref: Ref) -> list[Ref]:
        scope = self._scope(record)
        match = _RANGE.match(ref.key)
        for source in scope:
            table = self.numbers.get(source, {})
            if match:
                ids = self._range(table, match.group("start"), match.group("end"))
                if ids:
                    return [Ref(ref.label, ref.kind, ref.key, i) for i in ids]
            elif ref.key in table:
                return [Ref(ref.label, ref.kind, ref.key, table[ref.key])]
        where = ", ".join(scope)
        chapter = ref.key.split(".")[0]
        if match is None and chapter != ref.key and not any(
                chapter in self.numbers.get(s, {}) for s in scope):
            return [Ref(ref.label, ref.kind, ref.key, None,
                        f"no {ref.kind} {ref.key} in {where}: they have no chapter {chapter}, "
                        "so it cites a document the corpus lacks")]
        return [Ref(ref.label, ref.kind, ref.key, None, f"no {ref.kind} {ref.key} in {where}")]

    @staticmethod
    def _range(table: dict[str, str], start: str, end: str) -> list[str]:
        if len(end) == 1:  # 601.2g-h: same rule, letters g..h (whatever letters exist)
            end = start[:-1] + end
        lo, hi = number_key(start), number_key(end)
        if start not in table or end not in table:
            return []
        chosen = [n for n in table if lo <= number_key(n) <= hi and len(number_key(n)) == len(lo)]
        return [table[n] for n in sorted(chosen, key=number_key)]

    def _resolve_term(self, record: Record, ref: Ref) -> list[Ref]:
        ids = [i for i in self.terms.get(fold_term(ref.key), []) if i != record.id]
        own = [i for i in ids if self.by_id[i].source == record.source]
        if own:
            return [Ref(ref.label, ref.kind, ref.key, own[0])]
        english = sorted((i for i in ids if self.by_id[i].lang == "en"),
                         key=lambda i: self.rank.get(self.by_id[i].source, 0))
        if english:
            return [Ref(ref.label, ref.kind, ref.key, i) for i in english]
        return [Ref(ref.label, ref.kind, ref.key, None, f"no glossary entry for {ref.key!r} in the corpus")]

    def _resolve_page(self, record: Record, ref: Ref) -> list[Ref]:
        page = ref.key.removeprefix("p")
        ids = self.pages.get(record.source, {}).get(page)
        if ids:
            return [Ref(ref.label, ref.kind, ref.key, ids[0])]
        return [Ref(ref.label, ref.kind, ref.key, None, f"page {page} is not in {record.source}")]

    def resolve_refs(self) -> None:
        for record in self.records:
            resolved: list[Ref] = []
            for ref in record.refs:
                if ref.target is not None or ref.reason is not None:
                    resolved.append(ref)
                elif ref.kind in ("rule", "section"):
                    resolved.extend(self._resolve_number(record, ref))
                elif ref.kind in ("glossary", "term"):
                    resolved.extend(self._resolve_term(record, ref))
                elif ref.kind == "page":
                    resolved.extend(self._resolve_page(record, ref))
                else:
                    resolved.append(Ref(ref.label, ref.kind, ref.key, None, f"unknown reference kind {ref.kind}"))
            record.refs = resolved
            for ref in resolved:
                if ref.target is None:
                    self.report.unresolved.append((record.id, ref.label, ref.reason or "unresolved"))
                else:
                    self.report.resolved += 1

    # -- citations -----------------------------------------------------------------------------
    def _rulebook_pages(self, edition: str) -> tuple[str | None, dict[str, list[str]]]:
        for source in self.sources.values():
            if source.edition == edition and source.format == "forum-rulebook":
                return source.id, self.pages.get(source.id, {})
        return None, {}

    def resolve_citations(self) -> None:
        for record in self.records:
            for cite in record.citations:
                if cite.target is not None:
                    continue
                edition = RULEBOOK_CITES.get(cite.source.lower())
                if edition and cite.page:
                    self._cite_page(cite, edition)
                elif cite.source.lower() == "comprules":
                    self._cite_comprules(record, cite)

    def _cite_page(self, cite: Citation, edition: str) -> None:
        source, pages = self._rulebook_pages(edition)
        if pages.get(cite.page):
            cite.target = pages[cite.page][0]
            cite.reason = None
            return
        held = ", ".join(pages) if pages else "none"
        cite.reason = (f"page {cite.page} of the {cite.source} rulebook is not in the corpus "
                       f"({source or 'no rulebook of that edition'}; pages held: {_span(list(pages)) if pages else held})")

    def _cite_comprules(self, record: Record, cite: Citation) -> None:
        for source in self.sources.values():
            if source.format == "comprules" and source.date == cite.date:
                target = self.numbers.get(source.id, {}).get(record.number or "")
                if target:
                    cite.target = target
                else:
                    cite.reason = f"no rule {record.number} in {source.id}"
                return
        cite.reason = f"Comprehensive Rules of {cite.date} are not in the corpus"

    # -- joins ---------------------------------------------------------------------------------
    def join_same_rules(self) -> None:
        """A Crystal Keep 2008 entry is the official rule of the same number: link both ways."""
        for record in self.records:
            src = self.sources.get(record.source)
            if not src or src.format != "crystalkeep-2008" or not record.number:
                continue
            if record.kind not in ("rule", "chapter", "section"):
                continue
            for other in self._scope(record)[1:]:
                if self.sources[other].format != "comprules":
                    continue
                target = self.numbers.get(other, {}).get(record.number) or self._same_text(record, other)
                if target:
                    official = self.by_id[target]
                    _add_link(record, "same-rule", target)
                    _add_link(official, "same-rule", record.id)
                    self.report.joined += 1
                    if record.kind == "rule" and same_text_key(record.text) != same_text_key(official.text):
                        self.report.differences.append((record.id, target))
                    break

    def _same_text(self, record: Record, source: str) -> str | None:
        """The official rule with the same text in the same chapter, for numbers printed
        differently (the 2008 rules misprint 306.1b as '306.b'; Crystal Keep prints 306.1b)."""
        chapter = record.number.split(".")[0] + "."
        text = same_text_key(record.text)
        for number, rid in self.numbers.get(source, {}).items():
            if number.startswith(chapter) and same_text_key(self.by_id[rid].text) == text:
                return rid
        return None

    def join_glossaries(self) -> None:
        """Glossary entries of the same term in different sources know each other."""
        for ids in self.terms.values():
            for a in ids:
                for b in ids:
                    if a != b and self.by_id[a].source != self.by_id[b].source:
                        _add_link(self.by_id[a], "glossary", b)

    def reverse(self) -> None:
        for record in self.records:
            for ref in record.refs:
                if ref.target and ref.target in self.by_id:
                    target = self.by_id[ref.target]
                    if record.id not in target.refs_in and record.id != target.id:
                        target.refs_in.append(record.id)


def _add_link(record: Record, kind: str, target: str) -> None:
    if not any(k.kind == kind and k.target == target for k in record.links):
        record.links.append(Link(kind, target))


def _span(pages: list[str]) -> str:
    return f"{pages[0]}-{pages[-1]}" if len(pages) > 1 else pages[0]


def link(records: list[Record], sources: list[Source]) -> LinkReport:
    """Resolve and join in place; returns what the ingest report shows."""
    linker = _Linker(records, sources)
    linker.resolve_refs()
    linker.resolve_citations()
    linker.join_same_rules()
    linker.join_glossaries()
    linker.reverse()
    return linker.report
