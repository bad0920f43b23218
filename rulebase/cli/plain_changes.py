"""Plain-text lines of the views across time (compare, diff, changes, history): piped output, and
what render_changes.py wraps on a terminal. Free of rich, as plain.py."""

from __future__ import annotations

from rulebase.cli.plain import label, snip, span_text
from rulebase.core.errors import bounded
from rulebase.core.sources import release_label

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
    state = "differ" if result.changed else "are identical word for word"
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
