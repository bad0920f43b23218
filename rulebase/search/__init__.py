"""Ranked full-text search: the request, the searcher, the query's language, the hits."""
