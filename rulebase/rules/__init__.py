"""Answers built from the record store: lookup, history, changes, diff, definitions, compare, the term map."""
