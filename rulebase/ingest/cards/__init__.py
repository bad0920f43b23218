"""Cards: every card's Oracle text read from the bundled card file (oracle.py), its mana cost read
as the rules read it (mana.py), its names as a player types them (names.py), and the rules its own
text uses, found through the Comprehensive Rules' own vocabulary (rules.py)."""
