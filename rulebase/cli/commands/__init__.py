"""The commands, one module per family: reading.py (lookup, search, define, show), corpus.py (sources,
ingest, export, index, add, remove), timeline.py (compare, diff, changes, history), site.py (glossary).
cli/app.py registers them."""
