"""Plain-text lines of the views across time (compare, diff, changes, history): piped output, and
what render_changes.py wraps on a terminal. Free of rich, as plain.py."""

from __future__ import annotations

import re
import shutil
import textwrap
from collections import Counter

from rulebase.cli.views.plain import label, snip, span_text
from rulebase.core.errors import bounded
from rulebase.core.sources import release_label
from rulebase.rules.diff import ITEM_WORDS, SentenceChange, sentence_diff

NOT_FOUND_IN_EDITION = "no passages found in this edition"


def pages_note(pages) -> str:
    """' p11' or ' p36-38' for rulebook records; '' when the source has no pages."""
    pages = list(pages)
    if not pages:
        return ""
    return " p" + "-".join(dict.fromkeys([pages[0], pages[-1]]))


def compare_title(comparison) -> str:
    if comparison.curated:
        return f"{bounded(comparison.topic)}: how the editions compare"
    return f"{bounded(comparison.topic)}: search results per edition (not a curated topic)"


def period_note(stance) -> str:
    """A column's days in force ("in force 2009-07-11 to now"), and the curated column it shows
    when the era asked for lies inside another's ("the cr2009 column: ...")."""

    if stance.period is None:
        return ""
    note = f"in force {span_text(stance.period.first, stance.period.last)}"
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
    state = ("differ in quotes, dashes or spacing only" if result.typography
             else "differ" if result.changed else "are identical word for word")
    return f"{result.a.id} -> {result.b.id}: texts {state} (similarity {result.similarity:.2f})"


def diff_lines(result) -> list[str]:
    lines = [diff_header(result)]
    if result.changed:
        lines.append("  " + " ".join(diff_text(result.ops).split()))
    return lines


def term_diff_lines(result) -> list[str]:
    lines = [f"{result.term}: {len(result.definitions)} definition(s), in edition order"]
    lines += [definition_line(result, r) for r in result.definitions]
    for diff in result.diffs:
        lines += diff_lines(diff)
    lines += [f"{a} -> {b}: not diffed, {why}" for a, b, why in result.skipped]
    return lines


def definition_line(result, record) -> str:
    """One definition of `diff --term`: its edition, its name and the ids of its paragraphs."""
    return f"  {record.edition:>3}  {label(record)} ({', '.join(result.ids(record))})"


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
    newest = steps[-1].record
    if release_label(newest):  # 'IPG 2.1 Game Play Error — Missed Trigger'
        numbers = " ".join(x for x in (newest.source.upper(), numbers, newest.title if newest.number else "") if x)
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


# --- `changes` of a tournament document for people: per section its number and title, then only
# the sentences that changed (a changed one as its words' diff, cut to the words around each edit;
# short list items added or removed in one flow), wrapped to the terminal's width; the document's
# own changes appendix first; `--summary` one line a section. `--full` is the word diff of whole
# sections (plain_changes.changes_between_lines).

CONTEXT_WORDS = 3  # words kept on each side of an edit in a changed sentence
_APPENDIX = re.compile(r"changes?\s+from\s+previous", re.IGNORECASE)


def width() -> int:
    """The terminal's width ($COLUMNS first), 80 when piped; at least 40."""
    return max(40, shutil.get_terminal_size((80, 24)).columns)


def short_title(found) -> str:
    """'mtr 2023-12-04 -> 2024-12-16: 2 removed, 26 changed': the kinds that occur."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.history import KINDS as kinds

    counts = ", ".join(f"{found.count(k)} {k}" for k in kinds if found.count(k)) or "no changes"
    return f"{found.source} {found.old_release['date']} -> {found.new_release['date']}: {counts}"


def ordered(found) -> list:
    """The changes with the document's own changes appendix ('Changes From Previous Versions')
    first: what the document says changed, before what the comparison found."""
    own = [c for c in found.changes if c.new is not None and _APPENDIX.search(c.new.title or "")]
    return own + [c for c in found.changes if c not in own]


def heading(change) -> str:
    """'~ 2.7  Deck Registration' (the version's id is --full's, --json's)."""
    record = change.new or change.old
    sign = {"added": "+", "removed": "-"}.get(change.kind, "~")
    return f"{sign} " + "  ".join(p for p in (record.number, record.title) if p)


def summary_line(change, found_sentences: list[SentenceChange] | None) -> str:
    """'~ 6.3  Standard Format Deck Construction: 2 changed, 19 added, 1 removed sentences'."""
    record = change.new or change.old
    name = "  ".join(p for p in (record.number, record.title) if p)
    sign = {"added": "+", "removed": "-"}.get(change.kind, "~")
    if found_sentences is None:
        return f"{sign} {name}: {change.kind}"
    counts = {k: sum(s.kind == k for s in found_sentences) for k in ("changed", "added", "removed")}
    said = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or change.kind
    return f"{sign} {name}: {said} sentence{'s' if sum(counts.values()) != 1 else ''}"


def windowed(ops) -> str:
    """A changed sentence's word diff with each unchanged run longer than twice CONTEXT_WORDS cut
    to the words beside the edits ('…')."""
    pieces = diff_pieces(ops)
    out: list[str] = []
    for n, (kind, text) in enumerate(pieces):
        words = text.split()
        if kind == "equal" and len(words) > 2 * CONTEXT_WORDS:
            head = words[:CONTEXT_WORDS] if n else []
            tail = words[-CONTEXT_WORDS:] if n + 1 < len(pieces) else []
            text = " ".join([*head, "…", *tail]) + " "
        out.append(text)
    return " ".join(" ".join(out).split())


def reader_lines(found, summary: bool = False, columns: int | None = None) -> list[str]:
    """The changes as a reader of a policy update wants them (see the module docstring)."""
    columns = columns or width()
    lines = _wrap(short_title(found), columns, "", "    ")
    changes = ordered(found)
    own = [c for c in changes if c.new is not None and _APPENDIX.search(c.new.title or "")]
    for change in changes:
        diffed = sentence_diff(change.old.text, change.new.text) if change.kind not in ("added", "removed") \
            and change.old is not None and change.new is not None else None
        if summary:
            lines += _wrap(summary_line(change, diffed), columns, "", "    ")
            continue
        if diffed is None:
            what = change_parts(change)[2] if change.kind not in ("added", "removed") else \
                snip((change.new or change.old).text, columns - len(heading(change)) - 4)
            lines += _wrap(f"{heading(change)}  {what}", columns, "", "    ")
            continue
        lines += _wrap(heading(change), columns, "", "    ")
        if change in own:  # the document's own list of changes: what it adds (the older entries roll off)
            diffed = [s for s in diffed if s.kind == "added"]
        items = {"added": [], "removed": []}
        for each in diffed:
            text = each.new if each.kind == "added" else each.old
            if each.kind != "changed" and len(text.split()) <= ITEM_WORDS and change not in own:
                items[each.kind].append(text)
        for kind, sign in (("added", "+"), ("removed", "-")):
            if items[kind]:
                lines += _wrap(f"{sign} {kind}: " + " · ".join(items[kind]), columns, "  ", "    ")
        changed = [each for each in diffed if each.kind == "changed"]
        short = [each for each in changed if max(len(each.old.split()), len(each.new.split())) <= ITEM_WORDS]
        if len(short) > 1:  # a list's items edited: in one flow
            lines += _wrap("~ changed: " + " · ".join(windowed(each.ops) for each in short), columns, "  ", "    ")
            changed = [each for each in changed if each not in short]
        led = None  # the last group's leads: a table's next column edited alike is not listed again
        above = None  # the new text of the sentence shown last, when it stands alone
        for edit, group in _same_edit(changed):
            above = group[0].new if len(group) == 1 else None
            if len(group) == 1:
                lines += _wrap(f"~ {windowed(group[0].ops)}", columns, "  ", "    ")
            else:
                named = _leads([_lead(each.ops) for each in group])
                said = " as above" if named == led else f": {named}"
                lines += _wrap(f"~ {edit} in {len(group)} sentences{said}", columns, "  ", "    ")
                led = named
        for each in diffed:
            if each.kind == "changed":
                continue
            if change in own and each.kind == "added":
                lines += _wrap(f"+ {each.new}", columns, "  ", "    ")
            elif len((each.new or each.old).split()) > ITEM_WORDS:
                sign = "+" if each.kind == "added" else "-"
                after = f"(after “…{' '.join(each.before.split()[-CONTEXT_WORDS:])}”) " \
                    if each.before and each.before != above else ""  # (the line above says where)
                lines += _wrap(f"{sign} {after}{each.new or each.old}", columns, "  ", "    ")
                above = each.new
    return lines


def _wrap(text: str, columns: int, first: str, rest: str) -> list[str]:
    """Wrapped at word boundaries (a word longer than the line, a web address, stands whole)."""
    return textwrap.wrap(text, columns, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def edit_of(ops) -> str:
    """A changed sentence's edits alone: '[-Ravnica-] {+Innistrad+}'."""
    return " ".join(" ".join(text.split()) for kind, text in diff_pieces(ops) if kind != "equal")


def _same_edit(changed: list[SentenceChange]) -> list[tuple[str, list[SentenceChange]]]:
    """Runs of changed sentences that make the same edit ('draft' -> 'play' in six sentences):
    the edit named once, each sentence by its first words."""
    out: list[tuple[str, list[SentenceChange]]] = []
    for each in changed:
        edit = edit_of(each.ops)
        if out and out[-1][0] == edit:
            out[-1][1].append(each)
        else:
            out.append((edit, [each]))
    return out


def _leads(leads: list[str]) -> str:
    """The leads of sentences making one edit, each once, with how often it leads ('(2)')."""
    counted = Counter(leads)
    return " · ".join(lead + (f" ({counted[lead]})" if counted[lead] > 1 else "") for lead in counted)


def _lead(ops) -> str:
    """Where in a sentence its edit stands: the words before the first edit (the last
    CONTEXT_WORDS of them), or after it when it opens the sentence."""
    pieces = diff_pieces(ops)
    first = next((n for n, (kind, _) in enumerate(pieces) if kind != "equal"), 0)
    if first and pieces[first - 1][0] == "equal":
        words = pieces[first - 1][1].split()
        return ("… " if len(words) > CONTEXT_WORDS else "") + " ".join(words[-CONTEXT_WORDS:]) + " …"
    after = next((text.split() for kind, text in pieces[first:] if kind == "equal"), [])
    return "… " + " ".join(after[:CONTEXT_WORDS]) + (" …" if len(after) > CONTEXT_WORDS else "")


def sentences_json(change) -> list[dict] | None:
    """A changed section's sentences for --json: [{"kind", "old", "new", "before"}]."""
    if change.old is None or change.new is None:
        return None
    return [{"kind": s.kind, "old": s.old, "new": s.new, "before": s.before}
            for s in sentence_diff(change.old.text, change.new.text)]


def render_reader(console, found, summary: bool = False) -> None:
    """reader_lines into a console (already wrapped: printed as they are)."""
    for line in reader_lines(found, summary=summary):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
