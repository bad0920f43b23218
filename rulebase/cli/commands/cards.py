"""The card command: a card's Oracle text and the rules it uses."""

from __future__ import annotations

from typing import Annotated

import typer

from rulebase.cli.program import AsOfOpt, JsonOpt, answer, app, command, day_asked, funnel, ready_library


@command(app, examples=[
    ('rulebase card "Blood Moon"', "the card and its rules"),
    ("rulebase card urzas saga", "any case, no quotes needed"),
    ('rulebase card "[[Delver of Secrets]]" --json', "a face's name, as JSON"),
    ('rulebase card Exalted Angel --as-of 2008-10-01', "the rules' numbers that day")])
@funnel
def card(name: Annotated[list[str], typer.Argument(metavar="NAME...", help="A card's name, or a face's, or the "
                                                   "part before its comma ('Thalia').")],
         as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """A card's Oracle text, its faces, what the source lacks for it, and the rules its text uses.

    Exit 1 when no card has the name (with the nearest names)."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import card as card_view
    from rulebase.rules.cards import find

    when = day_asked(as_of)
    library = ready_library(json_out)
    found = find(library.store, " ".join(name), when)
    answer(json_out, lambda: card_view.found_json(found), "render.render_found", found)
