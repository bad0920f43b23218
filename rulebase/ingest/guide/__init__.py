"""The Hungarian quick rules guide (quickguide.py) and its Hungarian-English term pairings (terms.py)."""
