"""rulebase: a searchable knowledge base of Magic: The Gathering rules documents."""

__version__ = "0.1.0"
