"""Printed rulebooks: the 1993 Alpha rulebook (alpha.py) and the 1995/1997 rulebooks posted in a forum
thread (rulebook.py, reading the thread with forum.py, paragraphs.py, lineshapes.py and markup.py)."""
