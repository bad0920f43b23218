"""The command line: the fast entry point, the typer app, and the three output forms (rich, plain, --json)."""
