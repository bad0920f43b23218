"""The judge's desk views: a tournament document's contents, an infraction on one screen, and
the note that the newest release held of a document is over a year old; as plain lines (a
terminal prints the same lines) and as the --json additions (shapes.lookup_json documents them)."""

from __future__ import annotations

from rulebase.cli.views.plain import era_head, era_line, label, lookup_lines, meta_line, tail_lines
from rulebase.rules.desk import DeskLookup


def desk_lines(result: DeskLookup) -> list[str]:
    """A lookup's lines: the contents or the infraction's screen where there is one, else the
    lookup's own; then the freshness notes."""
    if result.contents is not None:
        lines = contents_lines(result)
    elif result.infraction is not None:
        lines = infraction_lines(result)
    else:
        lines = lookup_lines(result)
    if result.cited:
        at = len(lines) if result.infraction is not None else next(
            (n for n, line in enumerate(lines) if line.startswith("  history: ")), len(lines))
        lines[at:at] = ["  cited as written: " + "; ".join(c.line() for c in result.cited)]
    return lines + [f"note: {fresh.line()}" for fresh in result.fresh]


def contents_lines(result: DeskLookup) -> list[str]:
    contents = result.contents
    when = "in force now" if contents.now else "in force on the day asked"
    name = contents.source.upper()
    lines = [f"{name} contents: {contents.title}, release {contents.release} ({when})"]
    for depth, section in contents.sections:
        head = f"{section.number}  " if section.number else ""
        lines.append("  " + "  " * depth + head + (section.title or section.id))
    numbered = any((s.number or "")[:1].isdigit() for _, s in contents.sections)
    example = next((f'"{name} {s.number}"' for _, s in contents.sections if "." in (s.number or "")), None) \
        if numbered else next((f'"{name} {s.title.lower()}"' for _, s in contents.sections if s.title), None)
    if example:
        lines.append(f"a section: rulebase lookup {example}")
    return lines


def infraction_lines(result: DeskLookup) -> list[str]:
    found = result.infraction
    entry = result.entries[0]
    record = found.record
    lines = [f"{label(record)}: {found.penalty}", f"  [{meta_line(record, entry.days, entry.since)}]"]
    if record.section:
        lines.append("  in: " + " > ".join(record.section))
    if found.rules:
        lines.append("Upgrades and downgrades")
        width = max(len(r.where) for r in found.rules)
        lines += [f"  {r.where.ljust(width)}  {r.text}" for r in found.rules]
    for part in ("Additional Remedy", "Definition", "Examples", "Philosophy"):
        if found.parts.get(part):
            lines.append(part)
            lines += [f"  {para}" for para in found.parts[part]]
    if found.jar is not None:
        jar = found.jar
        where = " > ".join([*jar.record.section[1:], jar.record.title or ""])
        lines.append(f"At Regular REL: the JAR of {jar.record.span[0]}, {where} (words alike: {jar.likeness:.2f})")
        if jar.problem != jar.record.title:
            lines.append(f"  {jar.problem}")
        lines += [f"  {para}" for para in jar.fix]
    else:
        lines.append("At Regular REL: the JAR names no problem like it")
    lines.append(f"penalty history: {found.history_line()}")
    lines.append(f"history: rulebase history {record.id}")
    lines.append("")
    for n, other in enumerate(result.entries[1:], 1):
        if other.era:
            if not result.entries[n - 1].era:
                lines.append(era_head(other))
            lines.append(era_line(other))
    return lines + tail_lines(result)


def desk_json(result: DeskLookup, data: dict) -> dict:
    """`data` (lookup_json) with the contents, the infraction and the freshness notes."""
    if result.contents is not None:
        c = result.contents
        data["contents"] = {"source": c.source, "title": c.title, "release": c.release, "now": c.now,
                            "sections": [{"depth": d, "id": s.id, "number": s.number, "title": s.title}
                                         for d, s in c.sections]}
    if result.infraction is not None:
        f = result.infraction
        jar = f.jar
        data["infraction"] = {
            "title": f.record.title, "number": f.record.number, "penalty": f.penalty,
            "rules": [{"where": r.where, "text": r.text} for r in f.rules],
            "additional_remedy": f.parts.get("Additional Remedy", []), "definition": f.parts.get("Definition", []),
            "examples": f.parts.get("Examples", []), "philosophy": f.parts.get("Philosophy", []),
            "regular_rel": None if jar is None else {"id": jar.record.id, "title": jar.record.title,
                                                     "problem": jar.problem, "fix": jar.fix,
                                                     "likeness": jar.likeness},
            "penalty_history": [{"penalty": p, "first": _day(a), "last": _day(b)} for p, a, b in f.history],
            "penalty_history_line": f.history_line()}
    data["cited_as_written"] = [{"label": c.label, "then": c.then.id, "number": c.then.number,
                                 "now": c.now.id if c.now else None, "now_number": c.now.number if c.now else None,
                                 "line": c.line()} for c in result.cited]
    data["freshness"] = [{"source": x.source, "newest": x.newest, "days": x.days, "note": x.line()} for x in result.fresh]
    return data


def _day(value: int) -> str:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import show

    return show(value)
