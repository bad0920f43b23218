"""`cite` and `check` on the page: as lines (piped, NO_COLOR; render_changes.render_cite and
render_check style them on a terminal) and as JSON (the shapes docs/reference.md documents, which
the MCP server returns too). Free of rich."""

from __future__ import annotations

from rulebase.core.eras import show, span_text, today
from rulebase.core.records import Record, brief
from rulebase.rules.check import Problem, Report
from rulebase.rules.citation import CR, Citation, Status, Version, moves_text

CHANGES = {"same": "same text", "references": "only the rule numbers it cites changed since",
           "changed": "text changed since"}


def name(source: str, number: str) -> str:
    """'702.19b' for the Comprehensive Rules, 'MTR 2.3' for a tournament document's section."""
    return number if source == CR else f"{source.upper()} {number}"


def _titled(citation: Citation, record: Record | None) -> str:
    """'702.19b (Trample)', '702.17 Trample', 'MTR 2.3 Tournament Roles'."""
    if record is None:
        return ""
    text = name(record.source, record.number or "")
    if record.title and record.title != record.number:
        return f"{text} {record.title}"
    if citation.parent is not None and record is citation.then and citation.parent.title:
        return f"{text} ({citation.parent.title})"
    return text


def headline(citation: Citation) -> str:
    """What the citation names now, in one line: '702.17 (2010-06-01) is now 702.19: renumbered
    2011-06-17 and 2013-07-13; text changed since'."""
    status = citation.status
    cited = f"{name(status.source, status.number)} ({show(status.day)})"
    if status.state == "unknown":
        return unknown_text(status, cited)
    if status.state == "removed":
        return f"{cited} was removed on {show(status.removed or 0)}: it was last in force {show(status.last.last)}"  # type: ignore[union-attr]
    text = CHANGES[citation.change]
    if citation.now is not None and citation.then is not None and citation.now.id == citation.then.id:
        text = "the same version"
    if status.state == "renumbered":
        return f"{cited} is now {name(status.source, status.now.number)}: {moves_text(status)}; {text}"  # type: ignore[union-attr]
    return f"{cited} is still {name(status.source, status.number)}: {text}"


def unknown_text(status: Status, cited: str) -> str:
    """A number nobody held that day: never at all, or when it was a rule and what it is now."""
    what = "section" if status.source != CR else "rule"
    if status.then is None:
        doc = "Comprehensive Rules release" if status.source == CR else f"{status.source.upper()} release"
        return f"{cited} was never a {what}: no {doc} has it"
    era = f"{name(status.source, status.then.number)} was {span_text(*(status.era or (0, 0)))}"
    where = (f"now {name(status.source, status.now.number)}" if status.now is not None
             else f"removed on {show(status.removed or 0)}")
    return f"{cited} was not a {what} that day ({era}; {where})"


def _version_line(label_: str, citation: Citation, record: Record, version: Version | None) -> str:
    days = f"in force {span_text(version.first, version.last)}" if version else ""
    return f"  {label_}: {_titled(citation, record)}, {days}  ({record.id})"


def cite_lines(citation: Citation) -> list[str]:
    """The headline, then the version cited and its text, then the rule now: its word diff from
    the text cited, or its text; a removed rule's last text; what the number names now."""
    status = citation.status
    lines = [headline(citation)]
    if citation.then is not None:
        lines.append(_version_line("then" if status.state != "unknown" else "was", citation, citation.then, status.then))
        if citation.then.text != citation.then.title:  # (a heading's text is its title)
            lines.append(f"    {citation.then.text}")
    if citation.now is not None and citation.now.id != (citation.then.id if citation.then else None):
        lines.append(_version_line("now", citation, citation.now, status.now))
        if citation.text_changed and citation.diff:
            # lazy: only a changed text needs it
            from rulebase.cli.views.plain_changes import diff_text

            lines.append(f"    {diff_text(citation.diff)}")
        elif status.state == "unknown" or citation.text_changed:
            lines.append(f"    {citation.now.text}")
    if citation.last is not None and citation.last.id != (citation.then.id if citation.then else None):
        lines.append(_version_line("last", citation, citation.last, status.last))
        lines.append(f"    {citation.last.text}")
    if citation.taken_by is not None:
        lines.append(f"  the number now: {_titled(citation, citation.taken_by)}  ({citation.taken_by.id})")
    return lines


def _record_json(record: Record | None, version: Version | None) -> dict | None:
    if record is None:
        return None
    data = dict(brief(record), text=record.text)
    if version is not None:
        data["in_force"] = {"first": show(version.first), "last": show(version.last)}
        data["in_force_now"] = version.first <= today() <= version.last
    return data


def cite_json(citation: Citation) -> dict:
    """`cite --json`: {"ref", "source", "number", "as_of", "state", "holds", "then", "now", "last",
    "renumbered": [{"on", "to"}], "text_changed", "change", "diff", "removed", "taken_by", "headline"};
    "then", "now", "last" are brief records with "text", "in_force" {"first", "last"} and
    "in_force_now" (or null)."""
    # lazy: only a changed text needs it
    from rulebase.cli.views.plain_changes import diff_text

    status = citation.status
    return {"ref": citation.ref, "source": status.source, "number": status.number, "as_of": show(status.day),
            "state": status.state, "holds": status.holds,
            "then": _record_json(citation.then, status.then), "now": _record_json(citation.now, status.now),
            "last": _record_json(citation.last, status.last),
            "renumbered": [{"on": show(first), "to": number} for first, number in status.moves],
            "text_changed": citation.text_changed, "change": citation.change, "diff": diff_text(citation.diff) if citation.diff else None,
            "removed": show(status.removed) if status.removed else None,
            "taken_by": brief(citation.taken_by) if citation.taken_by else None,
            "headline": headline(citation)}


# -- check -------------------------------------------------------------------------------------


def problem_text(problem: Problem) -> str:
    """'702.17 -> now 702.19 (renumbered 2011-06-17 and 2013-07-13; text changed since)'."""
    status = problem.status
    cited = name(status.source, problem.found.written if status.source != CR else status.number)
    if status.state == "renumbered":
        text = CHANGES[problem.change]
        return f"{cited} -> now {name(status.source, status.now.number)} ({moves_text(status)}; {text})"  # type: ignore[union-attr]
    if status.state == "removed":
        return f"{cited} -> removed {show(status.removed or 0)} (last in force {show(status.last.last)}, {status.last.id})"  # type: ignore[union-attr]
    if status.then is None:
        return f"{cited} -> never a {'rule' if status.source == CR else 'section'}"
    where = (f"now {name(status.source, status.now.number)}" if status.now is not None
             else f"removed {show(status.removed or 0)}")
    return f"{cited} -> not a {'rule' if status.source == CR else 'section'} on {show(status.day)} " \
           f"(was {span_text(*(status.era or (0, 0)))}; {where})"


def summary_line(report: Report) -> str:
    """'3 citations in 1 file as of 2010-12-31: 0 hold, 1 renumbered, 0 removed, 2 unknown'."""
    files = f"{report.files:,} file{'s' if report.files != 1 else ''}"
    line = (f"{report.citations:,} citation{'s' if report.citations != 1 else ''} in {files} as of "
            f"{show(report.day)}: {report.holding:,} hold, {report.count('renumbered'):,} renumbered, "
            f"{report.count('removed'):,} removed, {report.count('unknown'):,} unknown")
    skipped = sum(len(paths) for paths in report.skipped.values())
    if skipped:
        why = ", ".join(f"{len(paths)} {reason}" for reason, paths in sorted(report.skipped.items()))
        line += f" ({skipped} file{'s' if skipped != 1 else ''} skipped: {why})"
    return line


def check_lines(report: Report) -> list[str]:
    return [f"{p.path}:{p.found.line}: {problem_text(p)}" for p in report.problems] + [summary_line(report)]


def check_json(report: Report) -> dict:
    """`check --json`: {"as_of", "files", "citations", "holding", "counts": {"renumbered",
    "removed", "unknown"}, "problems": [{"path", "line", "column", "written", "source", "number",
    "state", "then", "now", "now_number", "renumbered", "text_changed", "change", "removed", "message"}],
    "skipped": {reason: [paths]}}; "then" and "now" are record ids (null: none)."""
    return {"as_of": show(report.day), "files": report.files, "citations": report.citations,
            "holding": report.holding,
            "counts": {state: report.count(state) for state in ("renumbered", "removed", "unknown")},
            "problems": [{"path": p.path, "line": p.found.line, "column": p.found.column, "written": p.found.written,
                          "source": p.status.source, "number": p.status.number, "state": p.status.state,
                          "then": p.status.then.id if p.status.then else None,
                          "now": p.status.now.id if p.status.now else None,
                          "now_number": p.status.now.number if p.status.now else None,
                          "renumbered": [{"on": show(first), "to": number} for first, number in p.status.moves],
                          "text_changed": p.text_changed, "change": p.change,
                          "removed": show(p.status.removed) if p.status.removed else None,
                          "message": problem_text(p)} for p in report.problems],
            "skipped": {reason: paths for reason, paths in sorted(report.skipped.items())}}
