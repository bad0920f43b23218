"""A card on the page: as lines (piped, NO_COLOR, and the compact form search prints first; a
terminal's view, render.render_found, styles them) and as JSON (the shape docs/reference.md documents).

The Oracle text is printed as the source holds it, reminder text set apart on its own line;
what the source lacks for the card is said, never filled in.
"""

from __future__ import annotations

import re

from rulebase.core.eras import show as day_text
from rulebase.rules.cards import Card, Found

_REMINDER = re.compile(r"\s*(\([^()]*\))")
RULE_WIDTH = 9


def oracle_lines(text: str, indent: str = "  ") -> list[str]:
    """Each line of Oracle text without its reminder text, then the reminder text under it."""
    out = []
    for line in text.split("\n"):
        reminders = _REMINDER.findall(line)
        bare = _REMINDER.sub("", line).strip()
        if bare:
            out.append(indent + bare)
        out += [indent + ("  " if bare else "") + reminder for reminder in reminders]
    return out


def stats(facts: dict) -> str:
    """'3/3', 'loyalty 4', or '' for a card with neither."""
    if facts.get("power") is not None or facts.get("toughness") is not None:
        return f"{facts.get('power') or '-'}/{facts.get('toughness') or '-'}"
    if facts.get("loyalty"):
        return f"loyalty {facts['loyalty']}"
    return ""


def head_line(card: Card) -> str:
    facts = card.record.card or {}
    cost = facts.get("mana_cost") or ""
    return f"{card.name}  {cost}".rstrip()


def type_line(card: Card) -> str:
    facts = card.record.card or {}
    extra = [part for part in (stats(facts), f"mana value {facts.get('mana_value', 0)}") if part]
    label = " (Arena-only rebalanced version)" if facts.get("arena") else ""
    return f"  {facts.get('type_line', '')}{label}  ·  " + "  ·  ".join(extra)


def card_lines(card: Card, compact: bool = False) -> list[str]:
    """The card: name and cost, type line, text (or each face's), what the source lacks, then the
    rules it uses. `compact` (search's cards first): the rules on one line."""
    facts = card.record.card or {}
    lines = [head_line(card), type_line(card)]
    faces = facts.get("faces") or []
    if faces:
        for face in faces:
            if face.get("missing"):
                lines.append(f"  // {face['name']}: its text is not in the source")
                continue
            cost = f"  {face['mana_cost']}" if face.get("mana_cost") else ""
            lines.append(f"  // {face['name']}{cost}  ·  {face.get('type_line', '')}"
                         + (f"  ·  {stats(face)}" if stats(face) else ""))
            lines += oracle_lines(face.get("text") or "", "     ")
    else:
        lines += oracle_lines(card.record.text) or ["  (no rules text)"]
    if facts.get("missing"):
        lines.append("  the source lacks: " + "; ".join(facts["missing"]))
    if compact:
        shown = [f"{r.rule or r.now} {r.title}".strip() for r in card.rules]
        if shown:
            lines.append("  rules: " + ", ".join(shown))
        return lines
    lines.append("")
    when = f" (the rules of {day_text(card.day)})" if card.day is not None else ""
    if not card.rules:
        lines.append(f"Rules it uses{when}: none found in its text")
        return lines
    lines.append(f"Rules it uses{when}:")
    for rule in card.rules:
        number = rule.rule or f"({rule.now})"
        moved = f" [now {rule.now}]" if rule.rule and rule.rule != rule.now else ""
        absent = " [not in the rules of that day]" if rule.rule is None else ""
        lines.append(f"  {number:<{RULE_WIDTH}} {rule.title}{moved}{absent}  <- {rule.reason}")
    first = card.rules[0].rule or card.rules[0].now
    lines.append(f"  (a rule's text: rulebase lookup {first})")
    return lines


def found_lines(found: Found) -> list[str]:
    if not found.several:
        return card_lines(found.cards[0])
    lines = [f"{len(found.cards)} cards are called {found.query!r}:"]
    for card in found.cards:
        lines.append(f"  {card.name}  ·  {(card.record.card or {}).get('type_line', '')}")
    lines.append(f"  (one of them: rulebase card \"{found.cards[0].name}\")")
    return lines


def card_json(card: Card) -> dict:
    """The documented shape of one card."""
    facts = dict(card.record.card or {})
    links = [{"rule": r.rule, "id": r.id, "title": r.title, "lineage": r.lineage, "reason": r.reason,
              **({"now": r.now} if r.rule != r.now else {})} for r in card.rules]
    return {"id": card.record.id, "name": card.name, "mana_cost": facts.get("mana_cost"),
            "mana_value": facts.get("mana_value"), "type_line": facts.get("type_line"),
            "supertypes": facts.get("supertypes", []), "types": facts.get("types", []),
            "subtypes": facts.get("subtypes", []), "power": facts.get("power"), "toughness": facts.get("toughness"),
            "loyalty": facts.get("loyalty"), "text": card.record.text, "layout": facts.get("layout"),
            "faces": facts.get("faces", []), "keywords": facts.get("keywords", []),
            "aliases": list(card.record.aliases), "arena": facts.get("arena", False),
            "missing": facts.get("missing", []), "as_of": day_text(card.day) if card.day is not None else None,
            "links": links}


def found_json(found: Found) -> dict:
    if not found.several:
        return card_json(found.cards[0])
    return {"query": found.query, "several": True, "cards": [card_json(card) for card in found.cards]}
