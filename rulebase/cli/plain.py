"""Plain-text output (piped, NO_COLOR, scripts): the same content as the rich views, as lines.

Kept free of rich so the fast path (`rulebase.fast`) can print a lookup or a search without
paying for rich's import; render.py uses these same functions when its Console is not a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rulebase.core.records import Record
from rulebase.rules.lookup import Entry, Lookup
from rulebase.search.hits import Results, unmark

# C0 controls but tab and newline, DEL, C1 (CSI, OSC...) and the bidi embeddings, overrides and
# isolates: what a terminal would act on (clear the screen, retitle the window, reorder a line).
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _shown(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` as it may reach a terminal: control characters shown as escapes ('\\x1b', '\\u202e').

    Added documents, queries and file names can carry any character; printed raw, an ESC from a
    rules file would drive the user's terminal. Both output paths print through this."""
    return CONTROL.sub(_shown, text) if CONTROL.search(text) else text


def label(record: Record) -> str:
    """'cr2008 502.83a', 'rb4e p11 Basic Spellcasting' - how a record is named in lists."""
    parts = [record.source]
    if record.number:
        parts.append(record.number)
    if record.pages:
        parts.append("p" + "-".join(dict.fromkeys([record.pages[0], record.pages[-1]])))
    if record.title and record.title != record.number:
        parts.append(record.title)
    elif not record.number and record.section:  # an untitled paragraph: name its heading
        parts.append(f"({record.section[-1]})")
    return " ".join(parts)


def period(days: tuple[int, int], span: list[str] | None = None) -> str:
    """A version's period as every command words it: 'in force 2021-04-22 to now', with its
    releases when they say more ('releases 2011-06-17 to 2013-05-01')."""
    text = f"in force {span_text(*days)}"
    if span and span[0] != span[1]:
        text += f" (releases {span[0]} to {span[1]})"
    elif span:
        text += f" (release {span[0]})"
    return text


def show_fields(data: dict) -> list[tuple[str, str]]:
    """A record's fields (core.records.to_dict) as (name, text) for `show`: "-" for nothing, a
    section as its path, a span as its days, each reference on a line of its own (name=value,
    the empty ones left out), a raw text's lines under its first. Printed as Python values they
    read "None", "[]" and "[{'kind': ...}]"."""
    out = []
    for name, value in data.items():
        if value is None or value == "" or value == []:
            text = "-"
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            text = "\n".join(_item_text(item) for item in value)
        elif isinstance(value, list):
            text = {"section": " > ", "span": " to "}.get(name, ", ").join(str(v) for v in value)
        else:
            text = str(value)
        out.append((name, text))
    return out


def _item_text(item: dict) -> str:
    """'kind=page key=p46 target=rb4e:... ("Resolving Fast Effects" on p. 46)': the label, words
    and all, last."""
    text = " ".join(f"{k}={v}" for k, v in item.items() if v is not None and k != "label")
    return f"{text} ({item['label']})" if item.get("label") else text


def meta_line(record: Record, days: tuple[int, int] | None = None) -> str:
    bits = [record.kind, f"edition {record.edition}", f"source {record.source}", f"id {record.id}"]
    if record.pages:
        bits.append("page " + ", ".join(record.pages))
    if record.changed:
        bits.append("changed since previous release (+)")
    if record.span:
        bits.append(period(days, record.span) if days else f"in releases {record.span[0]} to {record.span[1]}")
    return " · ".join(bits)


def snip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def citation_line(cite) -> str:
    where = f" -> {cite.target}" if cite.target else (f" ({cite.reason})" if cite.reason else "")
    return f"cites {cite.label}{where}"


def record_lines(record: Record, indent: str = "", days: tuple[int, int] | None = None) -> list[str]:
    lines = [f"{indent}{label(record)}", f"{indent}  [{meta_line(record, days)}]"]
    if record.section:
        lines.append(f"{indent}  in: " + " > ".join(record.section))
    lines += [f"{indent}  {para}" for para in record.text.split("\n\n")]
    lines += [f"{indent}  {citation_line(c)}" for c in record.citations]
    lines += [f"{indent}  ! {flag}" for flag in record.flags]
    return lines


def ref_lines(entry: Entry) -> Iterable[str]:
    if entry.compact:
        yield from compact_ref_lines(entry)
        return
    titles = {r.id: label(r) for r in entry.refs_out}
    for ref in entry.record.refs:
        if ref.target:
            yield f"-> {ref.label}: {titles.get(ref.target, ref.target)} ({ref.target})"
        else:
            yield f"-> {ref.label}: unresolved ({ref.reason})"
    for rec in entry.refs_in:
        yield f"<- referenced by {label(rec)} ({rec.id})"
    for rec in entry.same:
        yield f"= same rule in {rec.source}: {rec.id}"
    if entry.record.lineage:
        yield f"history: rulebase history {entry.record.id}"


def more(names: list[str], left: int) -> str:
    """'a, b, c' and, when some were left out, ' ... and 9 more'."""
    return ", ".join(names) + (f" ... and {left} more" if left else "")


def compact_ref_lines(entry: Entry) -> Iterable[str]:
    """A compact entry's references and copies, one line a kind: what it cites, what cites it,
    where the same text appears, the same rule with other text, its history."""
    titles = {r.id: label(r) for r in entry.refs_out}
    cited = [titles.get(ref.target, ref.target) if ref.target else f"{ref.label} (unresolved)"
             for ref in entry.cited()]
    if cited:
        yield "-> cites " + more(cited, entry.left_out.get("refs_out", 0))
    if entry.refs_in:
        yield "<- cited by " + more([label(r) for r in entry.refs_in], entry.left_out.get("refs_in", 0))
    if entry.twins:
        yield "= same text in " + ", ".join(r.id for r in entry.twins)
    for rec in entry.same_rule():
        yield f"= same rule in {rec.source}: {rec.id}"
    if entry.now:
        yield f"now: {now_note(entry)} ({entry.now.id})"
    if entry.record.lineage:
        yield f"history: rulebase history {entry.record.id}"


def now_note(entry: Entry) -> str:
    """'rule 702.83a, same text': where the rule of a compact entry is in force today."""
    now = entry.now
    name = f"rule {now.number}" if now.number else label(now)
    return f"{name}, {'same text' if entry.now_same else 'text since changed'}"


def child_name(record: Record) -> str:
    """How a compact entry names a subrule: its number ('502.83a'), else its id."""
    return record.number or record.id


def subrules_note(entry: Entry, child: Record) -> str:
    """How many subrules a shown subrule has under it: '(+1 subrule)', in an outline '(+4)'."""
    n = entry.subrules.get(child.id, 0)
    if not n:
        return ""
    return f"(+{n})" if entry.outline else f"(+{n} subrule{'s' if n != 1 else ''})"


def child_lines(entry: Entry, child: Record, indent: str = "    ") -> list[str]:
    """One subrule of a compact entry: number and text (judgebot style), or one line."""
    note = subrules_note(entry, child)
    if entry.outline:
        return [indent + "  ".join(part for part in (child_name(child), entry.leads[child.id], note) if part)]
    if child.id in entry.copies:
        return [f"{indent}{child_name(child)}  = same text as {entry.copies[child.id]}"]
    first, *paras = child.text.split("\n\n")
    lines = [f"{indent}{child_name(child)}  {first}"] + [f"{indent}  {para}" for para in paras]
    lines += [f"{indent}  {citation_line(c)}" for c in child.citations]
    lines += [f"{indent}  ! {flag}" for flag in child.flags]
    return lines + ([f"{indent}  {note}"] if note else [])


def era_head(entry: Entry) -> str:
    """The header over a number's other eras."""
    return f"{entry.record.number or entry.record.id} in other eras:"


def era_line(entry: Entry) -> str:
    """Another era of a number, one line: its releases, its id, its first words."""
    record = entry.record
    first, last = (record.span + ["", ""])[:2]
    when = span_text(*entry.days) if entry.days else first if first == last else f"{first} to {last}"
    now = f" (now {now_note(entry)})" if entry.now else ""
    return f"  {when}  {record.id}{now}  {entry.leads[record.id]}"


def entry_lines(entry: Entry) -> list[str]:
    if entry.era:
        return [era_line(entry)]
    lines = record_lines(entry.record, days=entry.days)
    for child in entry.children:
        lines += child_lines(entry, child) if entry.compact else record_lines(child, indent="    ")
    lines += ["  " + line for line in ref_lines(entry)]
    return lines + [""]


def list_lines(title: str, records: list[Record]) -> list[str]:
    return [title] + [f"  {r.id}  {snip(r.text, 90)}" for r in records]


def lookup_lines(result: Lookup) -> list[str]:
    if result.kind == "page":
        return list_lines(f"{result.ref}: {len(result.entries)} records", [e.record for e in result.entries])
    lines: list[str] = []
    for n, entry in enumerate(result.entries):
        if entry.era and not (n and result.entries[n - 1].era):
            lines.append(era_head(entry))
        lines += entry_lines(entry)
        if entry.era and (n + 1 == len(result.entries) or not result.entries[n + 1].era):
            lines.append("")
    return lines + tail_lines(result)


def tail_lines(result: Lookup) -> list[str]:
    """What follows the entries: the diff to compare versions, what --full would add."""
    lines = [f"compare the versions: {result.diff_hint}"] if result.diff_hint else []
    hint = result.full_hint()
    return lines + [hint] if hint else lines


def results_header(results: Results) -> str:
    return f"{results.total} result{'s' if results.total != 1 else ''} for {results.query!r}"


def search_lines(results: Results) -> list[str]:
    lines = [f"Did you mean: {results.suggestion}"] if results.suggestion else []
    if not results.hits:
        return lines + [f"No results for {results.query!r}."]
    lines.append(results_header(results))
    for n, hit in enumerate(results.hits, 1):
        record = results.records[hit.id]
        lines.append(f"{n:>2}. {label(record)}  [{record.edition} · {era_note(hit.id, results)} · {record.kind} · {hit.id}]")
        lines.append(f"    {snip(unmark(hit.snippet), 240)}")
        if hit.also:
            lines.append(printable(f"    = same text in {also_text(hit.also)}"))
    return lines


def era_note(hit_id: str, results: Results) -> str:
    """Whether a hit is the rule in force today or a text of an earlier era (its edition says which)."""
    return "in force now" if hit_id in results.now else "history"


def also_text(ids: list[str], shown: int = 3) -> str:
    """Ids of records printing a hit's text, a few by name and the rest counted."""
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


# --- edition comparison and diffs (rulebase compare / diff / changes) ---

NOT_FOUND_IN_EDITION = "no passages found in this edition"


def pages_note(pages) -> str:
    """' p11' or ' p36-38' for rulebook records; '' when the source has no pages."""
    pages = list(pages)
    if not pages:
        return ""
    return " p" + "-".join(dict.fromkeys([pages[0], pages[-1]]))


def compare_title(comparison) -> str:
    if comparison.curated:
        return f"{comparison.topic}: how the editions compare"
    return f"{comparison.topic}: search results per edition (not a curated topic)"


def definitions_head(found) -> str:
    """define's first line: the term and how many definitions, in which order."""
    return (f"{found.term}: {len(found.entries)} definition(s), in force "
            f"{'now' if found.when is None else 'then'} first, then history newest to oldest")


def defined_note(entry, when: int | None = None) -> str:
    """The line over one of define's definitions: in force (now, or on the day asked) or history,
    the rule a glossary entry cites, its era, its days in force, the same text elsewhere."""
    from rulebase.core.eras import show  # (only define needs it)

    state = ("in force now" if when is None else f"in force on {show(when)}") if entry.now else "history"
    parts = [state] + (["the rule it cites"] if entry.cited else [])
    parts += [entry.era, f"{show(entry.first)} to {show(entry.last)}"]
    if entry.same_text:
        parts.append("= same text in " + ", ".join(entry.same_text))
    return "-- " + " · ".join(parts)


def period_note(stance) -> str:
    """A column's days in force ("in force 2009-07-11 to now"), and the curated column it shows
    when the era asked for lies inside another's ("the cr2009 column: ...")."""
    from rulebase.core.eras import show  # (only compare needs it)

    if stance.period is None:
        return ""
    note = f"in force {show(stance.period.first)} to {show(stance.period.last)}"
    return f"the {stance.column} column, {note}" if stance.column else note


def removed_lines(stance) -> list[str]:
    """Each rule a Comprehensive Rules era no longer has: since when, and the last release with it."""
    from rulebase.core.eras import show  # (only compare needs it)

    return [f"gone from {show(r.gone)}: rule {r.number} was last in the release of {r.last_release} ({r.id})"
            for r in stance.removed]


def compare_lines(comparison) -> list[str]:
    """One block per edition: its period, the summary (curated only), the rules it no longer has,
    then each quote with its source."""
    lines = [compare_title(comparison)]
    for stance in comparison.editions:
        note = period_note(stance)
        lines.append(f"[{stance.edition}]" + (f"  {note}" if note else ""))
        if stance.summary:
            lines.append(f"  {stance.summary}")
        elif not stance.citations:
            lines.append(f"  {NOT_FOUND_IN_EDITION}")
        lines += [f"  {line}" for line in removed_lines(stance)]
        for quote in stance.citations:
            lines.append(f'  "{quote.quote}"')
            lines.append(f"    - {quote.id}{pages_note(quote.pages)}")
    return lines


def diff_pieces(ops) -> list[tuple[str, str]]:
    """The pieces of `diff_text`, each with its kind ("equal", "delete", "insert"): what a
    terminal colours, markers included."""
    out = []
    for op in ops:
        if op.op == "equal":  # with the space before words only the newer text has ('burn." See')
            trail = op.a[len(op.a.rstrip()):] or op.b[len(op.b.rstrip()):]
            out.append(("equal", op.a.rstrip() + trail))
            continue
        if op.a.strip():
            out.append(("delete", f"[-{op.a.rstrip()}-]" + op.a[len(op.a.rstrip()):]))
        if op.b.strip():
            out.append(("insert", f"{{+{op.b.rstrip()}+}}" + op.b[len(op.b.rstrip()):]))
    return out


def diff_text(ops) -> str:
    """wdiff style: [-deleted-] {+inserted+}; equal text as is."""
    return "".join(piece for _, piece in diff_pieces(ops))


def diff_header(result) -> str:
    state = "differ" if result.changed else "are identical word for word"
    return f"{result.a.id} -> {result.b.id}: texts {state} (similarity {result.similarity:.2f})"


def diff_lines(result) -> list[str]:
    lines = [diff_header(result)]
    if result.changed:
        lines.append("  " + " ".join(diff_text(result.ops).split()))
    return lines


def term_diff_lines(result) -> list[str]:
    lines = [f"{result.term}: {len(result.definitions)} definition(s), in edition order"]
    lines += [f"  {r.edition:>3}  {label(r)} ({r.id})" for r in result.definitions]
    for diff in result.diffs:
        lines += diff_lines(diff)
    lines += [f"{a} -> {b}: not diffed, {why}" for a, b, why in result.skipped]
    return lines


def change_note(change) -> str:
    """What the official 2008 text says about one Crystal Keep change."""
    if change.counterpart is None:
        return "no official counterpart (a Crystal Keep ruling or note, or a rule the 2008 text lacks)"
    if change.relation == "same-rule":
        return f"official {change.counterpart.id}: " + ("identical" if change.identical else "differs")
    inside = "appears word for word in it" if change.contained else "differs from it"
    return f"official glossary entry {change.counterpart.id}: the Crystal Keep text {inside}"


def changes_lines(groups) -> list[str]:
    total = sum(len(g.changes) for g in groups)
    lines = [f"{total} entries marked changed (+) in Crystal Keep's 2008/10/20 summary, by chapter"]
    for group in groups:
        chapter = group.chapter
        lines.append(" ".join(p for p in (chapter.number, chapter.title) if p) or chapter.id)
        for change in group.changes:
            lines.append(f"  + {change.record.id}: {snip(change.record.text, 160)}")
            lines.append(f"    {change_note(change)}")
            if change.diff is not None:
                lines.append("    " + " ".join(diff_text(change.diff.ops).split()))
    return lines


# --- rule history across Comprehensive Rules releases (rulebase history / changes --from --to) ---


def span_text(first: int, last: int) -> str:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import show

    end = show(last)
    return f"{show(first)} to {end}" if end != "now" else f"{show(first)} to now"


def step_head(step) -> str:
    """'2009-07-11 to 2011-06-16  702.80a  renumbered from 502.83a  (cr:702.80a@2009-07-11)'."""
    return "  ".join(step_parts(step)[:3]) + f"  ({step.record.id})"


def step_parts(step) -> tuple[str, str, str]:
    """A history step's period, number and what changed: '2009-07-11 to 2011-06-16', '702.80a',
    'renumbered from 502.83a'."""
    # lazy: history imports difflib, which a cold lookup or search must not pay for
    from rulebase.rules.history import change_text

    what = change_text(step)
    number = step.record.number or step.record.title or ""
    return span_text(step.first, step.last), number, what


def lineage_title(lineage, n: int) -> str:
    """'502.83a -> 702.80a (8 versions, in force now)'; the lineages after the first say they are
    another rule once numbered so."""
    steps = lineage.steps
    now = "in force now" if lineage.current else f"last in force {span_text(steps[-1].first, steps[-1].last)}"
    numbers = " -> ".join(dict.fromkeys(s.record.number or s.record.title or "" for s in steps))
    title = "" if n == 0 else "another rule once numbered so: "
    return f"{title}{numbers} ({len(steps)} version{'s' if len(steps) != 1 else ''}, {now})"


def step_text(step) -> str | None:
    """The text under a history step: none for characters a file lost (one line: `rulebase diff`
    still shows them), the word diff if it has one, else the text, cut."""
    if step.change == "lost":
        return None
    if step.diff:
        return " ".join(diff_text(step.diff).split())
    return snip(step.record.text, 400 if step.change == "added" else 160)


def linked_line(record) -> str:
    return f"= same text in {record.source}: {record.id}"


def history_lines(found) -> list[str]:
    lines: list[str] = []
    for n, lineage in enumerate(found.lineages):
        if not lineage.steps:
            continue
        lines.append(lineage_title(lineage, n))
        for step in lineage.steps:
            lines.append(f"  {step_head(step)}")
            text = step_text(step)
            if text is not None:
                lines.append("    " + text)
        for record in lineage.linked:
            lines.append(f"  {linked_line(record)}")
        lines.append("")
    return lines


def between_title(found) -> str:
    """'cr 2009-05-01 -> 2009-07-11: 524 added, 241 removed, ...'."""
    old, new = found.old_release, found.new_release
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.history import KINDS as kinds
    counts = ", ".join(f"{found.count(k)} {k}" for k in kinds)
    return f"{found.source} {old['date']} -> {new['date']}: {counts}"


def change_parts(change) -> tuple[str, str, str, str]:
    """One change between two releases: its sign ('+', '-', '~'), its name (a number, a term, or
    'old -> new'), what it says (the text added or removed, cut, or the kind of change) and the
    id of the version shown."""
    def name(record) -> str:  # a rule's number, a glossary entry's term
        return record.number or record.title or record.id

    if change.kind == "added":
        return "+", name(change.new), snip(change.new.text, 160), change.new.id
    if change.kind == "removed":
        return "-", name(change.old), snip(change.old.text, 160), change.old.id
    move = f"{name(change.old)} -> {name(change.new)}" if name(change.old) != name(change.new) else name(change.new)
    return "~", move, change.kind, change.new.id


def changes_between_lines(found) -> list[str]:
    lines = [between_title(found)]
    for change in found.changes:
        sign, name, what, rid = change_parts(change)
        lines.append(f"{sign} {name}  {what}  ({rid})")
        if sign == "~" and change.diff:
            lines.append("    " + " ".join(diff_text(change.diff).split()))
    return lines
