"""The record model every parser produces and every command reads.

One record is one addressable piece of text (a rule, a ruling, a glossary entry, a paragraph
of a rulebook...). Records are plain values (core/value.py) so they round-trip through JSON unchanged:
`to_dict`/`from_dict` are the only (de)serialisers, and `export` order is `sort_key`.
"""

from __future__ import annotations

from rulebase.core.pattern import lazy
from rulebase.core.value import Value

# The one place the record kinds are documented.
KINDS: dict[str, str] = {
    "document": "metadata of a source document (title, date, edition statement)",
    "note": "front or back matter that is not a rule: credits, disclaimers, contents, contacts",
    "section": "a top-level division: '1. The Game', 'A - Abilities', a rulebook part",
    "chapter": "a numbered chapter or heading of rules: '100. General', '502.83 - Exalted'",
    "heading": "a titled division of a rulebook: 'BASIC SPELLCASTING', 'Summary of Play'",
    "passage": "a paragraph of prose in a rulebook or guide",
    "rule": "a numbered rule or subrule: '502.83a', 'A.5.2'",
    "ruling": "a Crystal Keep ruling attached to a rule: '502.83.Ruling.1'",
    "example": "an example attached to the record before it",
    "glossary": "a glossary definition of a term",
    "term": "a bilingual term-map entry: a Hungarian term with the English term it names",
    "table": "a table, list or tip sheet reproduced as text",
    "quiz": "a quiz question and its answer in a rulebook",
    "index": "an entry of a book's index: a term, pointing (refs) to the records that treat it",
    "card": "a card's Oracle text; its other characteristics and the rules it uses are in `card`",
    "card-ruling": "an official ruling on a card, dated in its title; `parent` is the card",
}



class Ref(Value):
    """An outgoing reference as written in the text, and where it leads. `kind` is one of
    rule, section, page, glossary, term.

    `key` is the parser's normalised form of the label ("306.5", "p11", "damage prevention");
    `target` is the resolved record id, or None with `reason` saying why.
    """

    __slots__ = ("label", "kind", "key", "target", "reason")

    def __init__(self, label: str, kind: str, key: str, target: str | None = None, reason: str | None = None):
        self.label, self.kind, self.key, self.target, self.reason = label, kind, key, target, reason


class Citation(Value):
    """A source the text cites: '[CompRules 2008/10/01]', '[Fifth Edition, Page 52]'."""

    __slots__ = ("label", "source", "date", "page", "target", "reason")

    def __init__(self, label: str, source: str, date: str | None = None, page: str | None = None,
                 target: str | None = None, reason: str | None = None):
        self.label, self.source, self.date, self.page = label, source, date, page
        self.target, self.reason = target, reason


class Link(Value):
    """A join computed at ingest time (not written in the text): `kind` "same-rule" (the same
    number in another document) or "glossary" (the same term in another source's glossary)."""

    __slots__ = ("kind", "target")

    def __init__(self, kind: str, target: str):
        self.kind, self.target = kind, target


class Record(Value):
    """One addressable piece of text. The list fields are the record's own (never shared)."""

    __slots__ = ("id", "source", "edition", "lang", "kind", "text", "raw", "number", "title", "pages", "section",
                 "parent", "refs", "citations", "flags", "order", "line", "aliases", "terms", "links", "refs_in",
                 "changed", "span", "lineage", "card")

    def __init__(self, id: str, source: str, edition: str, lang: str, kind: str, text: str, raw: str,
                 number: str | None = None, title: str | None = None, pages: list[str] | None = None,
                 section: list[str] | None = None, parent: str | None = None, refs: list[Ref] | None = None,
                 citations: list[Citation] | None = None, flags: list[str] | None = None, order: int = 0,
                 line: int | None = None, aliases: list[str] | None = None, terms: list[str] | None = None,
                 links: list[Link] | None = None, refs_in: list[str] | None = None, changed: bool = False,
                 span: list[str] | None = None, lineage: str | None = None, card: dict | None = None):
        self.id, self.source, self.edition, self.lang, self.kind = id, source, edition, lang, kind
        self.text, self.raw, self.number, self.title, self.parent = text, raw, number, title, parent
        self.pages = [] if pages is None else pages
        self.section = [] if section is None else section
        self.refs = [] if refs is None else refs
        self.citations = [] if citations is None else citations
        self.flags = [] if flags is None else flags
        self.order, self.line, self.changed = order, line, changed
        self.aliases = [] if aliases is None else aliases
        self.terms = [] if terms is None else terms
        self.links = [] if links is None else links
        self.refs_in = [] if refs_in is None else refs_in
        # A Comprehensive Rules archive version: the first and last release it is in force in, and
        # the lineage it belongs to (the same rule across edits and renumberings). Empty elsewhere.
        self.span = [] if span is None else span
        self.lineage = lineage
        # A card: mana cost, type line, faces, what the source lacks, the rules its text uses
        # (ingest/cards). None for every other kind, and then absent from the JSON.
        self.card = card


FIELD_ORDER = (
    "id", "source", "edition", "lang", "kind", "number", "title", "text", "pages", "section",
    "parent", "refs", "citations", "flags", "raw", "order", "line", "aliases", "terms", "links",
    "refs_in", "changed", "span", "lineage",
)
_FIELDS = frozenset((*FIELD_ORDER, "card"))


def brief(record: Record) -> dict[str, object]:
    """The fields that name a record where JSON points at one (references, copies, changes)."""
    return {"id": record.id, "source": record.source, "edition": record.edition, "kind": record.kind,
            "number": record.number, "title": record.title, "pages": record.pages}


def to_dict(record: Record) -> dict[str, object]:
    """Serialise in the documented field order (export and --json rely on it). Written out rather
    than dataclasses.asdict, whose deep copy made serialising the archive's 32,000 versions a
    tenth of the build."""
    data = {name: getattr(record, name) for name in FIELD_ORDER}
    for name in ("pages", "section", "flags", "aliases", "terms", "refs_in", "span"):
        data[name] = list(data[name])
    data["refs"] = [{"label": r.label, "kind": r.kind, "key": r.key, "target": r.target, "reason": r.reason}
                    for r in record.refs]
    data["citations"] = [{"label": c.label, "source": c.source, "date": c.date, "page": c.page,
                          "target": c.target, "reason": c.reason} for c in record.citations]
    data["links"] = [{"kind": k.kind, "target": k.target} for k in record.links]
    if record.card is not None:
        data["card"] = record.card
    return data


_ALWAYS = frozenset(("id", "source", "edition", "lang", "kind", "text", "raw"))


def stored_form(record: Record) -> dict[str, object]:
    """to_dict without the fields at their defaults (empty lists, None, False, 0): how records.db
    keeps a record (from_dict restores the defaults). A card's empty rule fields, a version's
    empty pages and flags: a third of the database."""
    return {name: value for name, value in to_dict(record).items()
            if name in _ALWAYS or value not in (None, False, 0, "", [], {})}


_SCALARS = {"order": 0, "changed": False}  # FIELD_ORDER's defaults that are not None or a list
_LISTS = frozenset(("pages", "section", "refs", "citations", "flags", "aliases", "terms", "links", "refs_in", "span"))


def exported(data: dict) -> dict[str, object]:
    """to_dict(from_dict(data)) of a stored_form, without the Record between: what `export`
    writes for each of a corpus's 95,000 records (building them was a third of its time)."""
    out = {name: data[name] if name in data else [] if name in _LISTS else _SCALARS.get(name)
           for name in FIELD_ORDER}
    if data.get("card") is not None:
        out["card"] = data["card"]
    return out


def from_dict(data: dict) -> Record:
    values = dict(data)
    values["refs"] = [Ref(**r) for r in values.get("refs", [])]
    values["citations"] = [Citation(**c) for c in values.get("citations", [])]
    values["links"] = [Link(**k) for k in values.get("links", [])]
    return Record(**{k: v for k, v in values.items() if k in _FIELDS})  # (a set: 0.4 s of the archive's load)


_NUM_PART = lazy(r"\d+|[A-Za-z]+")


def number_key(number: str | None) -> tuple:
    """Sort rule numbers numerically: 701.10 after 701.9, 'Ruling.2' after 'Ruling.1'."""
    if not number:
        return ()
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p.lower()) for p in _NUM_PART.findall(number))


def sort_key(record: Record, source_rank: dict[str, int] | None = None) -> tuple:
    """Deterministic export order: manifest order of sources, then document order."""
    rank = (source_rank or {}).get(record.source, 0)
    return (rank, record.source, record.order, record.id)


_SLUG_STRIP = lazy(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """A readable, filesystem- and URL-safe id fragment (accents folded, never empty)."""
    # lazy: only this rarer path needs it
    import unicodedata

    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    slug = _SLUG_STRIP.sub("-", folded).strip("-")
    return slug or "x"


# Power/toughness and its changes as one word ("+1/+1", "-1/-1", "0/0", "x/x", "*/*"): the index
# (index/schema.py) and the query (search/question.py) both read it whole, so "+1/+1 counter"
# and "-1/-1 counter" are not the same "1 1 counter".
POWER_TOUGHNESS = r"[+-]?[\dxX*]+/[+-]?[\dxX*]+(?!\w)"


def fold_accents(text: str) -> str:
    """Accent- and case-insensitive form: 'Sebzések kiosztása' -> 'sebzesek kiosztasa' (ő, ű too)."""
    if text.isascii():  # NFKD leaves ASCII as it is: most texts, and a build folds 75,000 of them
        return text.lower()
    # lazy: only this rarer path needs it
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def fold_space(text: str) -> str:
    """Collapse runs of whitespace: the form quotes are compared in."""
    return " ".join(text.split())


_TYPOGRAPHY = (("\u201c", '"'), ("\u201d", '"'), ("\u2018", "'"), ("\u2019", "'"), ("\u2014", "-"),
               ("\u2013", "-"), ("_", ""))


def fold_typography(text: str) -> str:
    """Quotes, apostrophes, dashes, markup and spacing folded: the Comprehensive Rules switched
    between straight and curly quotes three times (2014, January and May 2019), which changes
    no rule. (A str.replace per character present: three times faster than str.translate with a
    table, 0.2 s against 0.56 s over the archive's 30,000 versions, twice in a fold.)"""
    for char, folded in _TYPOGRAPHY:
        if char in text:
            text = text.replace(char, folded)
    return fold_space(text).lower()
