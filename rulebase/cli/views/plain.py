"""Plain-text output (piped, NO_COLOR, scripts): the same content as the rich views, as lines.

Kept free of rich so the fast path (`rulebase.fast`) can print a lookup or a search without
paying for rich's import; render.py uses these same functions when its Console is not a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rulebase.core.eras import in_force_today
from rulebase.core.records import Record, fold_typography
from rulebase.core.sources import release_label
from rulebase.search.hits import Results, unmark

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:  # (annotations only: a search does not import the lookup's modules, 2.5 ms)
    from rulebase.rules.lookup import Entry, Lookup

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
    parts = [record.source.upper() if release_label(record) else record.source]
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
        if len(text) > SHOWN_LIMIT:  # (a valid 8 MB rule: --json has it all)
            text = text[:SHOWN_LIMIT] + f" … [{len(text) - SHOWN_LIMIT:,} more characters not shown: --json has them all]"
        out.append((name, text))
    return out


def _item_text(item: dict) -> str:
    """'kind=page key=p46 target=rb4e:... ("Resolving Fast Effects" on p. 46)': the label, words
    and all, last."""
    text = " ".join(f"{k}={v}" for k, v in item.items() if v is not None and k != "label")
    return f"{text} ({item['label']})" if item.get("label") else text


def meta_line(record: Record, days: tuple[int, int] | None = None, since: int | None = None) -> str:
    """A record's kind, era, source and id; an archive version in force now says since when its text
    is (`since`, else its first day): its edition label, the release it first appeared in, read as
    out of date."""
    now = days is not None and record.span and in_force_today(*days)
    released = release_label(record)
    era = f"in force now, {text_since(since or days[0])}" if now else (
        f"release {released}" if released else f"edition {record.edition}")
    bits = [record.kind, era, f"source {record.source}", f"id {record.id}"]
    if record.pages:
        bits.append("page " + ", ".join(record.pages))
    if record.changed:
        bits.append("changed since previous release (+)")
    if record.span:
        first, last = record.span
        bits.append(period(days, record.span) if days and not now else
                    f"in release {first}" if first == last else f"in releases {first} to {last}")
    return " · ".join(bits)


def text_since(first: int) -> str:
    """'text since 2013-07-13': the day the text of a rule in force now took effect."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import show

    return f"text since {show(first)}"


def formerly(number: str, last: int) -> str:
    """'was 702.18 until 2021-04-21': the number a rule in force now had before."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import show

    return f"was {number} until {show(last)}"


def snip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def citation_line(cite) -> str:
    where = f" -> {cite.target}" if cite.target else (f" ({cite.reason})" if cite.reason else "")
    return f"cites {cite.label}{where}"


SHOWN_LIMIT = 100_000  # characters of one record's text a view prints (a valid 8 MB rule is cut, saying so)


def shown_text(record: Record) -> str:
    """The record's text as a view prints it: at most SHOWN_LIMIT characters, and what was cut."""
    if len(record.text) <= SHOWN_LIMIT:
        return record.text
    return (record.text[:SHOWN_LIMIT] + f"\n\n… [{len(record.text) - SHOWN_LIMIT:,} more characters not shown: "
            f"rulebase show {record.id} --json has them all]")


def record_lines(record: Record, indent: str = "", days: tuple[int, int] | None = None,
                 since: int | None = None) -> list[str]:
    lines = [f"{indent}{label(record)}", f"{indent}  [{meta_line(record, days, since)}]"]
    if record.section:
        lines.append(f"{indent}  in: " + " > ".join(record.section))
    lines += [f"{indent}  {para}" for para in shown_text(record).split("\n\n")]
    lines += [f"{indent}  {citation_line(c)}" for c in record.citations]
    lines += [f"{indent}  ! {flag}" for flag in record.flags]
    return lines


def ref_lines(entry: Entry) -> Iterable[str]:
    if entry.compact:
        yield from compact_ref_lines(entry)
        return
    titles = {r.id: label(r) for r in entry.refs_out}
    for ref in entry.record.refs:
        if ref.target in titles:
            yield f"-> {ref.label}: {titles[ref.target]} ({ref.target})"
        elif ref.target:
            yield f"-> {ref.label}: {ref.target}"
        else:
            yield f"-> {ref.label}: unresolved ({ref.reason})"
    for rec in entry.refs_in:
        yield f"<- referenced by {label(rec)} ({rec.id})"
    for rec in entry.same:
        yield f"= same rule in {rec.source}: {rec.id}"
    yield from upcoming_lines(entry)
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
    yield from upcoming_lines(entry)
    if entry.record.lineage:
        yield f"history: rulebase history {entry.record.id}"


def upcoming_lines(entry: Entry) -> Iterable[str]:
    """'upcoming: rule 103.4 from 2031-03-03, text changes (id)': the rule's version in a release
    dated after today, not in force until its day."""
    nxt = entry.upcoming
    if nxt is not None:
        name = f"rule {nxt.number}" if nxt.number else label(nxt)
        same = fold_typography(nxt.text) == fold_typography(entry.record.text)
        yield f"upcoming: {name} from {nxt.span[0]}, {'same text' if same else 'text changes'} ({nxt.id})"


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
    first, *paras = shown_text(child).split("\n\n")
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
    lines = record_lines(entry.record, days=entry.days, since=entry.since)
    for child in entry.children:
        lines += child_lines(entry, child) if entry.compact else record_lines(child, indent="    ")
    lines += ["  " + line for line in ref_lines(entry)]
    if entry.cards:
        lines.append("  " + cards_line(entry))
    return lines + [""]


def cards_line(entry: Entry) -> str:
    """'used by 1,240 cards, e.g. Colossal Dreadmaw, ...': the cards whose text uses the rule."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.cards import used_by_phrase

    return used_by_phrase(*(entry.cards or (0, [])))


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


def cards_named_lines(results: Results) -> list[str]:
    """The cards a question names, compactly, before the rules: each card's name, type line,
    text and the rules it uses."""
    if not results.cards:
        return []
    # lazy: only a question naming cards needs them
    from rulebase.cli.views.card import card_lines
    from rulebase.rules.cards import as_linked

    lines = ["Cards named:"]
    for record in results.cards:
        lines += card_lines(as_linked(record), compact=True)
    return lines + [""]


def search_lines(results: Results) -> list[str]:
    lines = cards_named_lines(results)
    lines += [f"Did you mean: {results.suggestion}"] if results.suggestion else []
    if not results.hits:
        return lines + [f"No results for {results.query!r}."]
    lines.append(results_header(results))
    for n, hit in enumerate(results.hits, 1):
        record = results.records[hit.id]
        lines.append(f"{n:>2}. {label(record)}  [{era_note(hit.id, results)} · {record.kind} · {hit.id}]")
        lines.append(f"    {snip(unmark(hit.snippet), 240)}")
        if hit.also:
            lines.append(printable(f"    = same text in {also_text(hit.also)}"))
    return lines + rulings_lines(results)


def rulings_lines(results: Results) -> list[str]:
    """The cards' rulings that answer the query, after the rules: each named by its card and date."""
    if not results.rulings:
        return []
    lines = ["", "Card rulings (more: rulebase search --kind card-ruling WORDS):"]
    for n, hit in enumerate(results.rulings, 1):
        record = results.records[hit.id]
        more = f" (and {len(record.refs_in)} more card{'s' if len(record.refs_in) > 1 else ''})" if record.refs_in else ""
        lines.append(printable(f"{n:>2}. {record.title}{more}  [{hit.id}]"))
        lines.append(f"    {snip(unmark(hit.snippet), 240)}")
    return lines


def era_note(hit_id: str, results: Results) -> str:
    """A hit in force today and since when its text is ('in force now, text since 2013-07-13'; a
    tournament document's also names the release read: 'in force now (release 2024-09-23)'), or a
    text of an earlier era, which its edition names ('4e · history')."""
    record = results.records[hit_id]
    if hit_id in results.now:
        released = f" (release {record.span[1]})" if release_label(record) else ""  # a tournament document's
        was = results.formerly.get(hit_id)
        return f"in force now{released}, {text_since(results.now[hit_id])}" + (f", {formerly(*was)}" if was else "")
    if record.kind == "card":
        return "Oracle text"  # today's card text: no era of its own
    if record.kind == "card-ruling":
        return "official ruling"  # dated in its title
    return f"{release_label(record) or record.edition} · history"


def also_text(ids: list[str], shown: int = 3) -> str:
    """Ids of records printing a hit's text, a few by name and the rest counted."""
    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return ", ".join(ids[:shown]) + more


# --- edition comparison and diffs (rulebase compare / diff / changes) ---


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
    parts += [entry.era, span_text(entry.first, entry.last)]
    if entry.same_text:
        parts.append("= same text in " + ", ".join(entry.same_text))
    return "-- " + " · ".join(parts)


def span_text(first: int, last: int) -> str:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import span_text as days

    return days(first, last)
