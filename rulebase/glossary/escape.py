"""The two escapes every page uses for document text: `esc` (HTML) and `md` (Markdown, which is
HTML-escaped too, since wikis pass raw HTML through). Both show control characters (ESC, BEL, C1,
bidi overrides) as escapes ('\\x1b'), as the command line does: an added document's ESC written
raw into a page would drive the terminal of whoever runs `cat rules/ipg-2.md`."""

from __future__ import annotations

import re
from html import escape

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # as cli/views/plain.py's
_MD_CHARS = re.compile(r"([\\`*_\[\]|~])")
_MD_LINE = re.compile(r"^(\s*)([#+-])|^(\s*\d+)([.)])", re.MULTILINE)  # "# x", "- x", "1. x"


def _shown(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with its control characters written as escapes (none reaches a page raw)."""
    return _CONTROL.sub(_shown, text) if _CONTROL.search(text) else text


def esc(text: str) -> str:
    return escape(visible(text), quote=True)


def md(text: str) -> str:
    """Markdown-safe text: HTML-escaped, inline markers and block markers backslash-escaped."""
    text = _MD_CHARS.sub(r"\\\1", escape(visible(text), quote=False))
    return _MD_LINE.sub(lambda m: "".join(m.group(i) or "" for i in (1, 3)) + "\\" + (m.group(2) or m.group(4)), text)


def json_safe(data: str) -> str:
    """JSON text with every control character (the C1 and bidi ones json.dumps keeps) as a
    \\u escape: the same string to a parser, no raw control character in the page."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", data) if _CONTROL.search(data) else data
