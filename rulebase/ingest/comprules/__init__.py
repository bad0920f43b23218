"""The Comprehensive Rules: one release (release.py, its glossary in glossary.py), every release of
the bundled archives (archive.py), and which rules of consecutive releases are the same rule
(lineage.py)."""
