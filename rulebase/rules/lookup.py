"""Looking things up by reference: rule numbers, record ids, rulebook pages, glossary terms.

Exact lookups are served from the record database alone, so they never import Whoosh.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rulebase.core.eras import OPEN_END, in_force_today, show, today
from rulebase.core.errors import NotFound, UsageError
from rulebase.core.likeness import close_names, slips
from rulebase.core.records import Record, Ref, fold_space, fold_typography, number_key
from rulebase.core.sources import TOURNAMENT_DOCUMENTS
from rulebase.core.value import Value, replace
from rulebase.index.store import RecordStore
from rulebase.index.versions import by_era, in_force, newest_first, text_since
from rulebase.rules import documents
from rulebase.rules.cards import used_by
from rulebase.search.hits import clip

PAGE_REF = re.compile(r"^(?P<edition>\d+e|alpha)\s*(?:p\.?|page)\s*(?P<page>[0-9ivxlc]+)$", re.IGNORECASE)


class Entry(Value):
    """One record with everything a reader wants next to it.

    `expand` gathers everything; a compact lookup (`compact`, the default of `lookup`) cuts the
    lists down and says here what it left out, so the plain, rich and JSON views only render it.
    The defaults are the full entry."""

    __slots__ = ("record", "children", "refs_out", "refs_in", "same", "compact", "era", "outline", "refs", "twins",
                 "copies", "subrules", "leads", "now", "now_same", "upcoming", "cards", "left_out", "days", "since")

    def __init__(self, record: Record, children: list[Record] | None = None, refs_out: list[Record] | None = None,
                 refs_in: list[Record] | None = None, same: list[Record] | None = None, compact: bool = False,
                 era: bool = False, outline: bool = False, refs: list[Ref] | None = None,
                 twins: list[Record] | None = None, copies: dict[str, str] | None = None,
                 subrules: dict[str, int] | None = None, leads: dict[str, str] | None = None,
                 now: Record | None = None, now_same: bool = False, upcoming: Record | None = None,
                 cards: tuple[int, list[str]] | None = None, left_out: dict[str, int] | None = None,
                 days: tuple[int, int] | None = None, since: int | None = None):
        self.record = record
        self.children, self.refs_out, self.refs_in, self.same = ([] if given is None else given
                                                                  for given in (children, refs_out, refs_in, same))
        self.compact = compact  # shown the compact way (below); False: everything in full
        self.era = era  # another era of the number: one line (its releases and first words)
        self.outline = outline  # children one line each (number and first words), not in full
        self.refs = refs  # the record's own references named (None: all of record.refs)
        self.twins = [] if twins is None else twins  # the very same text elsewhere: named, not repeated
        self.copies = {} if copies is None else copies  # child id -> id of the same text shown above it
        self.subrules = {} if subrules is None else subrules  # child id -> its own subrules left out
        self.leads = {} if leads is None else leads  # record id -> first words (outline, era)
        self.now = now  # the version of this rule in force now, if another and not shown
        self.now_same = now_same  # ... and its words are this record's (quotes and dashes aside)
        self.upcoming = upcoming  # the rule's next version, in a release dated after today
        self.cards = cards  # how many cards use the rule, and a few of their names
        self.left_out = {} if left_out is None else left_out  # what is not shown: see LEFT_OUT
        # an archive version's days in force (YYYYMMDD, first to last); for another era of the number,
        # the whole period its lineage held the number, across the versions of that period
        self.days = days
        self.since = since  # a version in force now: the day its words took effect (versions.text_since)

    def cited(self) -> list[Ref]:
        """The record's references shown: all, or what a compact lookup kept."""
        return self.record.refs if self.refs is None else self.refs

    def same_rule(self) -> list[Record]:
        """The same rule elsewhere, named one line each: in a compact entry only where the text
        differs (the identical ones are `twins`, named together on one line)."""
        twins = {t.id for t in self.twins}
        return [s for s in self.same if s.id not in twins]


# What a compact entry leaves out, counted in Entry.left_out (and --json "truncated"): records
# of the full entry's children, references either way and same-rule links, and whole entries
# of other documents with the identical text, folded into this one as `twins`; and characters of
# the record's own text past TEXT_CAP (a 10 MB one-line rule printed whole before).
LEFT_OUT = ("children", "refs_out", "refs_in", "same_rule", "twins", "text")


class Lookup(Value):
    __slots__ = ("ref", "kind", "entries", "diff_hint", "full")

    def __init__(self, ref: str, kind: str, entries: list[Entry], diff_hint: str | None = None, full: bool = True):
        self.ref = ref
        self.kind = kind  # "number", "id", "page"
        self.entries = entries
        self.diff_hint = diff_hint  # 'rulebase diff A B' when several documents print the number
        self.full = full  # False: compact (`compact`); `full_hint` says what --full would add

    @property
    def shortened(self) -> bool:
        return any(e.era or e.outline or e.copies or any(e.left_out.values()) for e in self.entries)

    def full_hint(self) -> str | None:
        """'--full shows everything (...)' when the compact lookup shortened anything, else None."""
        if self.full or not self.shortened:
            return None
        def counted(n: int, noun: str, plural: str | None = None) -> str:
            return f"{n:,} {noun if n == 1 else plural or noun + 's'}"
        total = {key: sum(e.left_out.get(key, 0) for e in self.entries if not e.era) for key in LEFT_OUT}
        listed = sum(len(e.children) for e in self.entries if e.outline)
        eras = sum(e.era for e in self.entries)
        copies = sum(len(e.copies) for e in self.entries) + total["twins"]
        cut = [e.record.id for e in self.entries if e.left_out.get("text")]
        parts = [counted(total["text"], "more character") + f" of {cut[0]}'s text" if total["text"] else "",
                 counted(listed, "subrule") + " in full" if listed else "",
                 counted(total["children"], "more subrule") if total["children"] else "",
                 counted(total["refs_out"] + total["refs_in"], "more reference")
                 if total["refs_out"] + total["refs_in"] else "",
                 counted(copies, "identical copy", "identical copies") if copies else "",
                 counted(eras, "other era") + " in full" if eras else ""]
        return "--full shows everything (" + ", ".join(p for p in parts if p) + ")"


def expand(store: RecordStore, record: Record, when: int | None = None) -> Entry:
    """A record with its children, references and twins. An archive version's children are the
    versions in force beside it: on `when`, else on the last day the version itself was in force."""
    children = store.children(record.id)
    day = None
    if record.span:
        day = when if when is not None else store.windows([record.id])[record.id][1]
    if record.number:
        seen = {c.id for c in children}
        for sub in _filed_under(store, record, day):
            rest = sub.number[len(record.number):] if sub.number else ""
            if (rest[:1].isalpha() or rest[:1] == ".") and sub.id not in seen:
                children.append(sub)
                seen.add(sub.id)
        children.sort(key=lambda c: c.order)
    if day is not None:

        children = sorted(in_force(store, children, day), key=lambda c: (number_key(c.number), c.order))
    out_ids = list(dict.fromkeys(r.target for r in record.refs if r.target))
    same_ids = [link.target for link in record.links if link.kind in ("same-rule", "same-text")]
    return Entry(record, children, store.get_many(out_ids), store.get_many(record.refs_in),
                 store.get_many(same_ids))


ARCHIVE_SCAN = 5000  # most archive versions filed under one number that are weighed by id


def _filed_under(store: RecordStore, record: Record, day: int | None) -> list[Record]:
    """The records filed under a record's number in its document (store.by_number_prefix). Of an
    archive's versions only those in force on `day` are read: every era of '502' is ~1,200
    versions, of which a handful are in force. An archive version's id is its number and first
    release ('cr:502.2a@2021-11-15'), so their ids and windows pick them without parsing all."""
    if day is None or not record.number:
        return store.by_number_prefix(record.number or "", record.source)
    ids = store.ids_like(f"{record.source}:{record.number}", ARCHIVE_SCAN + 1)
    if len(ids) > ARCHIVE_SCAN:
        return store.by_number_prefix(record.number, record.source)
    spans = store.windows(ids)
    low = record.number.lower()
    found = store.get_many([i for i in ids if spans[i][0] <= day <= spans[i][1]])
    return [r for r in found if r.number and r.number.lower().startswith(low) and r.number.lower() != low]


# How judges and players cite a rule: "rule 702.19b", "CR 702.19b", "Comprehensive Rules 702.19b",
# "§702.19b", "702.19 b"
_RULE_PREFIX = re.compile(r"^(?:(?:comprehensive\s+rules?|cr)\s*)?(?:rules?\s*)?(?:§\s*)?(?=\d)", re.IGNORECASE)
_NUMBER_SPACE = re.compile(r"^(\d{3}\.\d+)\s+([a-z])$")


def cited_number(ref: str) -> str:
    """A rule number as cited ("CR 702.19b.", "rule 702.19 b") as the rules print it (702.19b)."""
    return _NUMBER_SPACE.sub(r"\1\2", _RULE_PREFIX.sub("", ref.strip())).rstrip(".")


def lookup(store: RecordStore, ref: str, when: int | None = None, full: bool = False,
           spell_out: Callable[[str], str] | None = None) -> Lookup:
    """What `ref` names, compact (the rule, its direct subrules, one line for each copy elsewhere
    and each other era: see `compact`) or, with `full`, every record in full. `spell_out` reads a
    judge's shorthand ("IPG HCE") as the words it stands for (Library.spelled_out)."""
    result = _lookup(store, ref, when, spell_out)
    result = result if full else compact(store, result, when)
    _date(store, result)
    if when is None:
        _upcoming(store, result)
    for entry in result.entries:
        if not entry.era and entry.record.span and entry.record.kind in ("rule", "chapter"):
            count, names = used_by(store, entry.record)
            entry.cards = (count, names) if count else None
    return result


def _upcoming(store: RecordStore, result: Lookup) -> None:
    """The next version of each entry's rule in a release dated after today (eras.today): not in
    force yet, named so that nobody reads today's text as the last word."""
    now = today()
    for entry in result.entries:
        if entry.record.span and entry.record.lineage and not entry.era:
            versions = [v for v in store.lineage(entry.record.lineage) if v.span]
            spans = store.windows([v.id for v in versions])
            entry.upcoming = next((v for v in versions if spans[v.id][0] > now), None)


def _date(store: RecordStore, result: Lookup) -> None:
    """Each archive entry's days in force, the way `history` gives them (first day to last day);
    another era's the whole period its rule held the number (every version of it under that
    number: Unearth was 702.83a from 2013 to 2021, over several versions)."""
    dated = [e for e in result.entries if e.record.span]
    if not dated:
        return
    spans = store.windows([e.record.id for e in dated if not e.era])
    for entry in dated:
        if not entry.era:
            entry.days = spans.get(entry.record.id)
            if entry.days and in_force_today(*entry.days):
                entry.since = text_since(store, entry.record, entry.days[0])
            continue
        record = entry.record
        group = [r.id for r in store.by_number(record.number or "")
                 if r.span and r.source == record.source and r.lineage == record.lineage] or [record.id]
        windows = store.windows(group).values()
        entry.days = (min(a for a, _ in windows), max(b for _, b in windows))


def _lookup(store: RecordStore, ref: str, when: int | None = None,
            spell_out: Callable[[str], str] | None = None) -> Lookup:
    ref = ref.strip()
    if not ref:
        raise UsageError("empty reference", hint="give a rule number (502.83a), a record id or a page (4e p17)")
    page = PAGE_REF.match(ref)
    if page:
        edition = page["edition"].lower()
        records = store.by_page(edition, page["page"].lower())
        if not records:
            held = store.pages_of(edition)
            hint = (f"the {edition} text in the corpus covers pages {held[0]}-{held[-1]}" if held
                    else f"no {edition} rulebook with page numbers is in the corpus")
            raise NotFound(f"no {page['edition']} record is printed on page {page['page']}", hint=hint)
        return Lookup(ref, "page", [Entry(r) for r in records])
    if ":" in ref:
        record = store.get(ref)
        if record is None and "@" not in ref:  # 'cr:702.83a': that rule in the archive, now or then
            source, local = ref.split(":", 1)
            versions = [r for r in store.by_number(local) if r.source == source and r.span]
            if not versions:  # 'cr:glossary.trample': an archive id without its '@DATE'
                versions = [r for r in store.get_many(store.ids_like(ref + "@")) if r.span]
            record = next(iter(by_era(store, versions, when)), None)
        if record:
            return Lookup(ref, "id", [expand(store, record, when)])
    inside = documents.scoped(store, ref)  # 'MTR 2.2', 'ipg missed trigger'
    if inside is not None:
        return _in_document(store, ref, *inside, when, spell_out)
    number = cited_number(ref)
    records = store.by_number(number)
    if records:
        records = newest_first(records, store.documents())  # official text first, newest first
        records = by_era(store, records, when)
        if records:
            return Lookup(ref, "number", [expand(store, r, when) for r in records], diff_hint(records))

        raise NotFound(f"no rule {ref} was in force on {show(when or 0)}",
                       hint=f"'rulebase history {ref}' shows when it was")
    raise unknown(store, ref, f"no rule, record or page matches {ref!r}")


def unknown(store: RecordStore, ref: str, what: str) -> NotFound:
    """The error for a reference that names nothing: a term's name ('trample') is sent to `define`
    and `search`, as its near spellings were no help; anything else gets its candidates."""
    candidates = suggest(store, ref)
    if ref.lower() in candidates:  # a term's name, not a reference: its definitions are `define`'s
        term = f'"{ref}"' if " " in ref else ref
        return NotFound(what, [], hint=f"it is a term: 'rulebase define {term}' gives its definitions, "
                                       f"'rulebase search {term}' its rules")
    return NotFound(what, candidates, hint="try 'rulebase search' for free text")


def _in_document(store: RecordStore, ref: str, source: str, rest: str, when: int | None,
                 spell_out: Callable[[str], str] | None = None) -> Lookup:
    """A tournament document's section by its number ('IPG 2.1'), its title ('ipg missed
    trigger') or a judge's shorthand for its title ('IPG HCE', read by `spell_out`): the version
    in force now (or on `when`) first, then what the number meant before."""
    number = documents.number_of(rest)
    if number is not None:
        records = [r for r in store.by_number(number) if r.source == source]
        kind = "number"
    else:
        records = documents.sections_titled(store, source, rest, spell_out)
        kind = "title"
    chosen = by_era(store, records, when)
    if kind == "title" and when is None:  # the sections named so now, not every title they once had
        live = [r for r in chosen if r.lineage and store.lineage(r.lineage, OPEN_END)]
        chosen = live or chosen
    if chosen:
        return Lookup(ref, kind, [expand(store, r, when) for r in chosen])
    name = source.upper()
    if records:
        raise NotFound(f"no {name} section {rest} was in force on {show(when or 0)}",
                       hint=f"'rulebase history {ref}' shows when it was")
    held = sorted({n for n in store.numbers_like(f"{(number or rest)[:1]}%", 400)
                   if any(r.source == source for r in store.by_number(n))}, key=number_key)[:5] if number else []
    raise NotFound(f"no {name} section matches {rest!r}", held,
                   hint=f"give a section number ('{name} 2.2') or words of its title, or try 'rulebase search --source {source}'")


# A compact lookup: what a judge reads first. Everything else is one line, or a count.
REF_CAP = 6  # records named per direction of reference ('... and N more')
OUTLINE_COUNT = 20  # more direct subrules than this, or
OUTLINE_TEXT = 6000  # more characters of them than this, and they are listed one line each
LEAD = 80  # at most this many characters of a text in a one-line listing, cut at a word ('…')
TEXT_CAP = 20_000  # a record's own text past this is cut ('…'): the longest real one is 8,000


def compact(store: RecordStore, result: Lookup, when: int | None = None) -> Lookup:
    """The compact form of a full lookup. Per entry: the record, its direct subrules (in full, or
    one line each when they are many or long), references as capped lists, and the same text
    elsewhere named once. An entry of another document with the identical text (Crystal Keep's
    copy of a 2008 rule) is folded into the first as a twin; a subrule identical to one shown
    above says so instead of repeating it; other eras of the number are one line each."""
    if result.kind == "page":  # already one line a record
        return Lookup(result.ref, result.kind, result.entries, result.diff_hint, full=False)
    entries = result.entries
    gone: set[str] = set()
    if when is None and result.kind == "number":  # after the first match, archive versions no

        spans, now = store.windows([e.record.id for e in entries[1:] if e.record.span]), today()
        gone = {rid for rid, (first, last) in spans.items() if not first <= now <= last}  # (or upcoming)
    folded: dict[int, int] = {}  # entry -> the earlier entry it is a copy of
    for j, entry in enumerate(entries):
        if entry.record.id not in gone:
            host = next((i for i in range(j) if i not in folded and entries[i].record.id not in gone
                         and _copy_of(entry, entries[i])), None)
            if host is not None:
                folded[j] = host
    shown: dict[tuple[str, str], str] = {}  # (number, text) shown in full -> the record showing it
    out: list[Entry] = []
    for j, entry in enumerate(entries):
        if j in folded:
            continue
        if entry.record.id in gone:
            out.append(_era(entry))
        else:
            out.append(_compact_entry(entry, [entries[k].record for k, i in folded.items() if i == j], shown))
    named = {r.id for e in out for r in (e.record, *e.twins)}
    for entry in out:
        _now(store, entry, named)
    hint = diff_hint([e.record for e in out]) if result.diff_hint else None
    return Lookup(result.ref, result.kind, out, hint, full=False)


def _now(store: RecordStore, entry: Entry, named: set[str]) -> None:
    """Where the rule is now: the version of its lineage in force today, unless it is the entry
    itself or named elsewhere in the lookup (a twin, another entry)."""
    if not entry.record.lineage:
        return

    live = store.lineage(entry.record.lineage, today())
    if live and not named & {v.id for v in live}:
        entry.now = live[-1]
        entry.now_same = fold_typography(live[-1].text) == fold_typography(entry.record.text)


def _key(record: Record) -> tuple[str, str]:
    return ((record.number or "").lower(), fold_space(record.text))


def _copy_of(entry: Entry, host: Entry) -> bool:
    """`entry` says nothing `host` does not: the same text, and each child the same as one of its."""
    if entry.record.source == host.record.source or _key(entry.record)[1] != _key(host.record)[1]:
        return False
    have = {_key(c) for c in host.children}
    return all(_key(c) in have for c in entry.children)


def lead(record: Record, width: int = LEAD) -> str:
    """The first words of a record's first paragraph, spaces folded; '…' marks a cut. A titled
    section of a tournament document ('4.1 Unsporting Conduct — Minor') is named by its title."""
    named = record.kind == "section" and record.title and record.source in TOURNAMENT_DOCUMENTS
    return clip(fold_space(record.title if named else record.text.split("\n\n")[0]), width)


def direct(record: Record, children: list[Record]) -> tuple[list[Record], dict[str, int]]:
    """The children directly under `record` (502 -> 502.1, not 502.1a), and how many records
    each has under it in turn."""
    numbered = {c.number.lower(): c for c in children if c.number}
    ids = {c.id for c in children}
    top: dict[str, str] = {}  # child id -> the direct child it is filed under
    for child in children:
        if child.number:
            number = child.number.lower()
            for cut in range(len(record.number or ""), len(number)):
                if number[:cut] in numbered and (number[cut].isalpha() or number[cut] == "."):
                    top[child.id] = numbered[number[:cut]].id
                    break
        elif child.parent in ids:
            top[child.id] = child.parent
    for cid in top:  # an unnumbered grandchild: up to the direct child
        for _ in range(len(top)):  # (a parent loop in a broken document ends here)
            if top[cid] not in top:
                break
            top[cid] = top[top[cid]]
    under: dict[str, int] = {}
    for parent in top.values():
        under[parent] = under.get(parent, 0) + 1
    return [c for c in children if c.id not in top], under


def _capped(records: list[Record]) -> list[Record]:
    """The first REF_CAP records with distinct names (an archive's versions of one rule once)."""
    out, names = [], set()
    for record in records:
        name = (record.source, record.kind, record.number, record.title)
        if name not in names and len(out) < REF_CAP:
            names.add(name)
            out.append(record)
    return out


def capped_text(record: Record) -> tuple[Record, int]:
    """The record with its text (and raw text) cut to TEXT_CAP characters at a word, and how many
    characters of the text were cut (0: the record as it is)."""
    if len(record.text) <= TEXT_CAP and len(record.raw) <= TEXT_CAP:
        return record, 0
    text, cut = record.text, 0
    if len(text) > TEXT_CAP:
        at = text.rfind(" ", TEXT_CAP // 2, TEXT_CAP)
        kept = text[: at if at > 0 else TEXT_CAP].rstrip()
        text, cut = kept + " …", len(record.text) - len(kept)
    raw = record.raw if len(record.raw) <= TEXT_CAP else record.raw[:TEXT_CAP] + " …"
    return replace(record, text=text, raw=raw), cut


def _compact_entry(entry: Entry, folded: list[Record], shown: dict[tuple[str, str], str]) -> Entry:
    record, cut = capped_text(entry.record)
    children, under = direct(record, entry.children)
    outline = len(children) > OUTLINE_COUNT or sum(len(c.text) for c in children) > OUTLINE_TEXT
    copies = {}
    if not outline:
        for child in children:
            if child.number and _key(child) in shown:
                copies[child.id] = shown[_key(child)]
            elif child.number:
                shown[_key(child)] = child.id
    refs: list[Ref] = []
    for ref in record.refs:  # each target once, as the text first cites it
        if len(refs) < REF_CAP and all((r.target or r.label) != (ref.target or ref.label) for r in refs):
            refs.append(ref)
    targets = {r.target for r in refs}
    refs_in = _capped(entry.refs_in)
    text = _key(entry.record)[1]
    twins = list({r.id: r for r in [*(s for s in entry.same if fold_space(s.text) == text), *folded]}.values())
    left_out = {"children": len(entry.children) - len(children), "refs_out": len(record.refs) - len(refs),
                "refs_in": len(entry.refs_in) - len(refs_in), "same_rule": 0, "twins": len(folded), "text": cut}
    return Entry(record, children, [r for r in entry.refs_out if r.id in targets], refs_in, entry.same, compact=True,
                 outline=outline, refs=refs, twins=twins, copies=copies, subrules=under,
                 leads={c.id: lead(c) for c in children} if outline else {}, left_out=left_out)


def _era(entry: Entry) -> Entry:
    """Another era of the number: the record alone, named by its releases and first words."""
    left_out = {"children": len(entry.children), "refs_out": len(entry.record.refs),
                "refs_in": len(entry.refs_in), "same_rule": len(entry.same), "twins": 0}
    return Entry(entry.record, compact=True, era=True, refs=[], leads={entry.record.id: lead(entry.record)},
                 left_out=left_out)


def diff_hint(records: list[Record]) -> str | None:
    """'rulebase diff A B' for the two newest versions of one rule from different documents, if
    any: not two rules that only share the number (2008's 502 is Keyword Abilities, today's the
    Untap Step), told apart by their lineage where both have one."""
    first = records[0] if records else None
    other = next((r for r in records[1:] if first and r.source != first.source
                  and not (r.lineage and first.lineage and r.lineage != first.lineage)), None)
    return f"rulebase diff {other.id} {first.id}" if first and other else None


def suggest(store: RecordStore, ref: str, limit: int = 5) -> list[str]:
    """'Did you mean' candidates. A number that runs past a real one ('502.83z') gets that rule's
    numbers; a slip inside one ('520.83a', '5028.3a') gets the numbers one or two slips away;
    anything else gets close ids or titles (core.likeness: what the user may have meant to type)."""
    from difflib import get_close_matches  # only when a lookup fails

    ref = ref.strip()
    shared: list[str] = []
    for cut in range(len(ref), max(2, len(ref) // 2) - 1, -1):  # longest shared prefix first
        shared = store.numbers_like(ref[:cut].lower() + "%", limit * 4)
        if shared:
            if cut >= len(ref) - 1:
                return sorted(shared, key=number_key)[:limit]
            break
    if ":" in ref:
        return get_close_matches(ref, store.ids_like(ref.split(":")[0] + ":"), n=limit)
    if any(c.isdigit() for c in ref):
        wanted, most = ref.lower(), 1 if len(ref) <= 4 else 2  # in a short number two slips is anything
        near = [(slips(wanted, n.lower()), number_key(n), n) for n in store.numbers() if abs(len(n) - len(ref)) <= most]
        close = [n for d, _, n in sorted(near) if d <= most][:limit]
        if close or shared:
            return close or sorted(shared, key=number_key)[:limit]
    return close_names(ref, store.titles(), limit)
