"""What the commands print, free of rich: plain lines (plain.py, plain_changes.py; a terminal's
render.py styles the same lines), the documented --json shapes (shapes.py), a card (card.py), a
citation check (citation.py) and the judge's desk (desk.py)."""
