"""Word diffs between records: `rulebase diff A B`, `diff --term`, and `rulebase changes`.

`changes` lists what Crystal Keep's 2008/10/20 changes-only summary marks as changed (+), grouped
by chapter, each entry beside its official 2008 counterpart (the linker's "same-rule" join) with a
word diff where the two texts differ. Glossary entries have no same-rule join (Crystal Keep numbers
its glossary G1.1, G1.1a...); for them the official glossary entry their parent links to is shown,
and whether the Crystal Keep text appears in it word for word. Pure core: no printing.
"""

from __future__ import annotations

from rulebase.core.errors import NotFound, UsageError
from rulebase.core.records import Record, brief, fold_space
from rulebase.core.value import Value
from rulebase.rules.definitions import define, grouped
from rulebase.rules.diff import DiffOp, changed, record_named, similarity, word_diff
from rulebase.rules.history import typography_only
from rulebase.rules.lookup import suggest

CK_SOURCE = "ck2008"


class RecordDiff(Value):
    __slots__ = ("a", "b", "ops", "similarity", "notes")

    def __init__(self, a: Record, b: Record, ops: list[DiffOp], similarity: float,
                 notes: list[str] | None = None) -> None:
        self.a = a
        self.b = b
        self.ops = ops
        self.similarity = similarity
        self.notes = [] if notes is None else notes  # how a rule number given for a side was read

    @property
    def changed(self) -> bool:
        return changed(self.ops)

    @property
    def typography(self) -> bool:
        """The texts differ only in quotes, dashes or spacing: history's own test (typography_only),
        so `diff` says what `history` and `lookup` say of the same two versions."""
        return self.changed and typography_only("".join(op.a for op in self.ops), "".join(op.b for op in self.ops))


class TermDiff(Value):
    __slots__ = ("term", "definitions", "diffs", "skipped", "parts")

    def __init__(self, term: str, definitions: list[Record], diffs: list[RecordDiff],
                 skipped: list[tuple[str, str, str]] | None = None,
                 parts: dict[str, list[Record]] | None = None) -> None:
        self.term = term
        self.definitions = definitions  # each definition's first record (a titled paragraph: its title)
        self.diffs = diffs
        self.skipped = [] if skipped is None else skipped  # (a id, b id, why not diffed)
        self.parts = {} if parts is None else parts  # first record id -> all of its records

    def text(self, record: Record) -> str:
        """A definition's whole text: its paragraphs, as the document prints them."""
        return "\n\n".join(r.text for r in self.parts.get(record.id, [record]))

    def ids(self, record: Record) -> list[str]:
        return [r.id for r in self.parts.get(record.id, [record])]


class MarkedChange(Value):
    """A record Crystal Keep marks as changed (+), with the official text it corresponds to."""

    __slots__ = ("record", "counterpart", "relation", "diff", "contained")

    def __init__(self, record: Record, counterpart: Record | None, relation: str | None,
                 diff: RecordDiff | None = None, contained: bool | None = None) -> None:
        self.record = record
        self.counterpart = counterpart
        self.relation = relation  # "same-rule", "glossary-entry" or None
        self.diff = diff  # same-rule counterparts whose text differs
        self.contained = contained  # glossary entries: is the Crystal Keep text inside the official one?

    @property
    def identical(self) -> bool:
        return self.relation == "same-rule" and self.diff is None


class ChangeGroup(Value):
    __slots__ = ("chapter", "changes")

    def __init__(self, chapter: Record, changes: list[MarkedChange]) -> None:
        self.chapter = chapter
        self.changes = changes


def resolve(store, ref: str, notes: list[str] | None = None) -> Record:
    """A record by id, or by rule number as `lookup` reads it (diff.record_named): the rule
    in force now, else the official text. How a number naming several records was read is
    appended to `notes`."""
    ref = ref.strip()
    if not ref:
        raise UsageError("empty record reference", hint="give a record id such as cr2008:306.5")
    named = record_named(store, ref)
    if named is None:
        raise NotFound(f"no record with id or rule number {ref!r}", [s for s in suggest(store, ref) if s != ref],
                       hint="record ids look like cr2008:306.5 (see 'rulebase search')")
    if named.note and notes is not None:
        notes.append(named.note)
    return named.record


def diff_records(a: Record, b: Record, a_text: str | None = None, b_text: str | None = None) -> RecordDiff:
    """A word diff of two records' texts (or of the texts given for them: a definition of several
    paragraphs)."""
    a_text = a.text if a_text is None else a_text
    b_text = b.text if b_text is None else b_text
    return RecordDiff(a, b, word_diff(a_text, b_text), round(similarity(a_text, b_text), 4))


def diff_refs(store, ref_a: str, ref_b: str) -> RecordDiff:
    notes: list[str] = []
    result = diff_records(resolve(store, ref_a, notes), resolve(store, ref_b, notes))
    result.notes = notes
    return result


def term_diffs(store, term: str) -> TermDiff:
    """A glossary term's definitions oldest first (each era's, as `define` lists them newest
    first, without the rules they cite), each diffed against the one before it. Definitions in
    different languages are listed but not diffed (a word diff would be noise)."""

    found = define(store, term)
    groups = [[e.record for e in group] for group in reversed(grouped([e for e in found.entries if not e.cited]))]
    definitions = [records[0] for records in groups]
    result = TermDiff(found.term, definitions, [], parts={records[0].id: records for records in groups})
    for a, b in zip(definitions, definitions[1:], strict=False):
        if a.lang != b.lang:
            result.skipped.append((a.id, b.id, f"different languages ({a.lang}, {b.lang})"))
        else:
            result.diffs.append(diff_records(a, b, result.text(a), result.text(b)))
    return result


def _chapter(store, record: Record, cache: dict[str, Record | None]) -> Record:
    """The nearest chapter (or section) above a record; the record itself if it has none."""
    current = record
    while current.parent:
        if current.parent not in cache:
            cache[current.parent] = store.get(current.parent)
        parent = cache[current.parent]
        if parent is None:
            break
        if parent.kind in ("chapter", "section"):
            return parent
        current = parent
    return record


def _counterpart(store, record: Record) -> tuple[Record | None, str | None]:
    same = [link.target for link in record.links if link.kind == "same-rule"]
    if same:
        return store.get(same[0]), "same-rule"
    if record.kind == "glossary" and record.parent:
        parent = store.get(record.parent)
        targets = [link.target for link in (parent.links if parent else []) if link.kind == "glossary"]
        if targets:
            return store.get(targets[0]), "glossary-entry"
    return None, None


def changes(store, source: str = CK_SOURCE) -> list[ChangeGroup]:
    """Every record of `source` marked changed, grouped by chapter in document order."""
    marked = sorted((r for r in store.of_source(source) if r.changed), key=lambda r: r.order)
    groups: dict[str, ChangeGroup] = {}
    cache: dict[str, Record | None] = {}
    for record in marked:
        chapter = _chapter(store, record, cache)
        official, relation = _counterpart(store, record)
        entry = MarkedChange(record, official, relation if official else None)
        if official is not None and relation == "same-rule":
            result = diff_records(record, official)
            entry.diff = result if result.changed else None
        elif official is not None:
            entry.contained = fold_space(record.text) in fold_space(official.text)
        groups.setdefault(chapter.id, ChangeGroup(chapter, [])).changes.append(entry)
    return list(groups.values())


def ops_json(ops: list[DiffOp]) -> list[dict]:
    return [{"op": op.op, "a": op.a, "b": op.b} for op in ops]


def _side(record: Record) -> dict:

    return {**brief(record), "text": record.text}


def record_diff_json(result: RecordDiff) -> dict:
    return {"a": _side(result.a), "b": _side(result.b), "changed": result.changed,
            "typography_only": result.typography, "similarity": result.similarity, "ops": ops_json(result.ops)}


def term_diff_json(result: TermDiff) -> dict:
    return {"term": result.term,
            "definitions": [{**brief(r), "text": result.text(r), "parts": result.ids(r)} for r in result.definitions],
            "diffs": [{"a": d.a.id, "b": d.b.id, "changed": d.changed, "typography_only": d.typography,
                       "similarity": d.similarity,
                       "ops": ops_json(d.ops)} for d in result.diffs],
            "skipped": [{"a": a, "b": b, "reason": why} for a, b, why in result.skipped]}


def changes_json(groups: list[ChangeGroup]) -> dict:
    chapters = []
    for group in groups:
        entries = []
        for c in group.changes:
            entries.append({
                **_side(c.record), "relation": c.relation,
                "counterpart": _side(c.counterpart) if c.counterpart else None,
                "identical": c.identical, "contained": c.contained,
                "ops": ops_json(c.diff.ops) if c.diff else None,
            })
        chapters.append({"id": group.chapter.id, "number": group.chapter.number, "title": group.chapter.title,
                         "entries": entries})
    return {"total": sum(len(g.changes) for g in groups), "chapters": chapters}
