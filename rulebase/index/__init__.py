"""A built generation, read side: its layout and record database, versions in force, schema, postings and scorer."""
