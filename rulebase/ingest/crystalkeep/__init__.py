"""Crystal Keep's rules summaries: the 2008 rulings summary (summary2008.py) and the April 1999 Fifth
Edition summary (summary1999.py); the sources their rulings cite (citations.py)."""
