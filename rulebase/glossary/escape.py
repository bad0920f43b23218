"""The two escapes every page uses for document text: `esc` (HTML) and `md` (Markdown, which is
HTML-escaped too, since wikis pass raw HTML through)."""

from __future__ import annotations

import re
from html import escape

_MD_CHARS = re.compile(r"([\\`*_\[\]|~])")
_MD_LINE = re.compile(r"^(\s*)([#+-])|^(\s*\d+)([.)])", re.MULTILINE)  # "# x", "- x", "1. x"


def esc(text: str) -> str:
    return escape(text, quote=True)


def md(text: str) -> str:
    """Markdown-safe text: HTML-escaped, inline markers and block markers backslash-escaped."""
    text = _MD_CHARS.sub(r"\\\1", escape(text, quote=False))
    return _MD_LINE.sub(lambda m: "".join(m.group(i) or "" for i in (1, 3)) + "\\" + (m.group(2) or m.group(4)), text)
