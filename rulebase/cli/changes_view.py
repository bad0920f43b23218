"""`changes` of a tournament document for people: per section its number and title, then only
the sentences that changed (a changed one as its words' diff, cut to the words around each edit;
short list items added or removed in one flow), wrapped to the terminal's width; the document's
own changes appendix first; `--summary` one line a section. `--full` is the word diff of whole
sections (plain_changes.changes_between_lines)."""

from __future__ import annotations

import re
import shutil
import textwrap

from rulebase.cli.plain import snip
from rulebase.cli.plain_changes import change_parts, diff_pieces
from rulebase.rules.diff import ITEM_WORDS, SentenceChange, sentence_diff

CONTEXT_WORDS = 4  # words kept on each side of an edit in a changed sentence
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
        for edit, group in _same_edit(changed):
            if len(group) == 1:
                lines += _wrap(f"~ {windowed(group[0].ops)}", columns, "  ", "    ")
            else:
                named = " · ".join(_lead(each.ops) for each in group)
                lines += _wrap(f"~ {edit} in {len(group)} sentences: {named}", columns, "  ", "    ")
        for each in diffed:
            if each.kind == "changed":
                continue
            if change in own and each.kind == "added":
                lines += _wrap(f"+ {each.new}", columns, "  ", "    ")
            elif len((each.new or each.old).split()) > ITEM_WORDS:
                sign = "+" if each.kind == "added" else "-"
                after = f"(after “…{' '.join(each.before.split()[-CONTEXT_WORDS:])}”) " if each.before else ""
                lines += _wrap(f"{sign} {after}{each.new or each.old}", columns, "  ", "    ")
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
