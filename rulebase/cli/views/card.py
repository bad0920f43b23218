"""A card on the page: as lines (piped, NO_COLOR, and the compact form search prints first; a
terminal's view, render.render_found, styles them) and as JSON (the shape docs/reference.md documents).

The Oracle text is printed as the source holds it, reminder text set apart on its own line;
what the source lacks for the card is said, never filled in.
"""

from __future__ import annotations

import re

from rulebase.core.cardnames import ORACLE_MONTH
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
    """'3/3', 'loyalty 4', 'defense 5', or '' for a card with none."""
    if facts.get("power") is not None or facts.get("toughness") is not None:
        return f"{facts.get('power') or '-'}/{facts.get('toughness') or '-'}"
    if facts.get("loyalty"):
        return f"loyalty {facts['loyalty']}"
    if facts.get("defense"):
        return f"defense {facts['defense']}"
    return ""


def value_text(facts: dict) -> str:
    """'mana value 4', as the rules define it for the card's layout (a split card's: its halves'
    total, 709.4b); said unknown where a half's cost is in neither card file."""
    if facts.get("mana_value") is None:
        return "mana value unknown (a half's cost is in neither card file)"
    faces = len(facts.get("faces") or [])
    summed = f" (its {'halves' if faces == 2 else 'parts'}' total, 709.4b)" \
        if facts.get("layout") in ("split", "aftermath") and faces > 1 else ""
    return f"mana value {facts['mana_value']}{summed}"


def head_line(card: Card) -> str:
    facts = card.record.card or {}
    cost = facts.get("mana_cost") or ""
    return f"{card.name}  {cost}".rstrip()


def type_line(card: Card) -> str:
    facts = card.record.card or {}
    extra = [part for part in (stats(facts), value_text(facts)) if part]
    label = " (Arena-only rebalanced version)" if facts.get("arena") else ""
    return f"  {facts.get('type_line', '')}{label}  ·  " + "  ·  ".join(extra)


def card_lines(card: Card, compact: bool = False) -> list[str]:
    """The card: name and cost, type line, text (or each face's), what the sources lack, its
    rulings with their dates, then the rules it uses. `compact` (search's cards first): the
    rulings counted and the rules on one line."""
    facts = card.record.card or {}
    lines = [head_line(card), type_line(card)]
    if facts.get("text_of"):
        lines.append(f"  (the text of {facts['text_of']}: the current Oracle file does not hold this card)")
    faces = facts.get("faces") or []
    if faces:
        for face in faces:
            lines += face_lines(face)
    else:
        lines += oracle_lines(card.record.text) or ["  (no rules text)"]
    if facts.get("missing"):
        lines.append("  the sources lack: " + "; ".join(facts["missing"]))
    if compact:
        if facts.get("rulings"):
            lines.append(f"  rulings: {len(facts['rulings'])} (rulebase card \"{card.name}\")")
        shown = [f"{r.rule or r.now} {r.title}".strip() for r in card.rules]
        if shown:
            lines.append("  rules: " + ", ".join(shown))
        return lines
    if card.rulings:
        lines += ["", f"Rulings ({len(card.rulings)}):"]
        for ruling in card.rulings:
            lines.append(f"  {ruling['date']}  {ruling['text']}")
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


def face_lines(face: dict) -> list[str]:
    """One face: its name, cost, type line, P/T (loyalty, defense) and mana value, then its text;
    where its text came from when not the current file; said missing when neither file has it."""
    if face.get("missing"):
        return [f"  // {face['name']}: its text is in neither card file"]
    cost = f"  {face['mana_cost']}" if face.get("mana_cost") else ""
    parts = [face.get("type_line", ""), stats(face)]
    if face.get("mana_value") is not None:
        parts.append(f"mana value {face['mana_value']}")
    older = f"  (text of {face['from']}: the current file lacks this face)" \
        if face.get("from") not in (None, ORACLE_MONTH) else ""
    return [f"  // {face['name']}{cost}  ·  " + "  ·  ".join(p for p in parts if p) + older,
            *oracle_lines(face.get("text") or "", "     ")]


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
            "rulings": card.rulings, "foreign_names": facts.get("foreign", {}),
            "text_of": facts.get("text_of"),
            "aliases": list(card.record.aliases), "arena": facts.get("arena", False),
            "missing": facts.get("missing", []), "as_of": day_text(card.day) if card.day is not None else None,
            "links": links}


def found_json(found: Found) -> dict:
    if not found.several:
        return card_json(found.cards[0])
    return {"query": found.query, "several": True, "cards": [card_json(card) for card in found.cards]}
