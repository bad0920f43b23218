"""The glossary site: what it holds (model), which pages it gets (plan), and how they are written (site)."""
