"""Folding the transcribers' plain-text markup into clean text.

The forum transcriptions mark bold with `_x_` (glossary terms), italic/red with `-x-` (first use
of a term), mana symbols with `<1RR>`, the tap symbol with `<tap>`, and trademarks with `^{TM}`.
Dashes ("--"), hyphenated words, minus signs ("-1/-1") and "+*/+*" are not markup. The forum also
ate `<B>` and `<U>` as HTML tags, leaving gaps ("a casting cost of ."): `lost_symbols` finds them so a
record can be flagged (never repaired: we do not invent the symbol). Reusable by any parser.
"""

from __future__ import annotations

import re

LOST_SYMBOL_FLAG = "mana symbol lost in transcription (probably <B> or <U> eaten as HTML)"

# <1RR>, <XR>, <0>, <BB,Tap>, <tap>, <Tap>, <2G>, <10>
_SYMBOL = re.compile(r"<((?:\d+|[WUBRGXYZ]|[Tt]ap|,)+)>")
_SYMBOL_PART = re.compile(r"\d+|[Tt]ap|[WUBRGXYZ]|,")
_SUPER = {"tm": "\u2122", "r": "\u00ae", "c": "\u00a9"}
_SUPERSCRIPT = re.compile(r"\^\{(TM|tm|R|r|C|c)\}")
_UMLAUT = re.compile(r'\\"([AEIOUaeiouy])')
_UMLAUTS = dict(zip("AEIOUaeiouy", "ÄËÏÖÜäëïöüÿ", strict=True))
_BBCODE = re.compile(r'\[/?(?:EMAIL|URL|B|I|U|QUOTE|SIZE|COLOR|FONT)(?:="?[^\]"]*"?)?\]', re.I)

# `-x-`: opener at start or after space/([" and not followed by space, dash or digit; closer after a
# non-space and not followed by a word character. Spans may cross line breaks (text is folded first).
_ITALIC = re.compile(r'(?<![\w\-+/*])-(?=[^\s\-\d])((?:(?!\s-\s)[^\-]|-(?=\w))+?)(?<=[^\s\-])-(?![\w*/])')
_BOLD = re.compile(r"(?<![\w])_(?=\S)([^_]+?)(?<=\S)_(?![A-Za-z0-9])")
_EITHER = re.compile(f"{_BOLD.pattern}|{_ITALIC.pattern}")  # one pass keeps the terms in text order


def canon_symbols(text: str) -> str:
    """`<1RR>` -> `{1}{R}{R}`, `<tap>`/`<Tap>` -> `{T}`, `^{TM}` -> (TM sign), `\\"a` -> a umlaut."""

    def one(match: re.Match[str]) -> str:
        out = []
        for part in _SYMBOL_PART.findall(match.group(1)):
            if part == ",":
                out.append(",")
            elif part.lower() == "tap":
                out.append("{T}")
            else:
                out.append("{" + part + "}")
        return "".join(out)

    text = _SYMBOL.sub(one, text)
    text = _SUPERSCRIPT.sub(lambda m: _SUPER[m.group(1).lower()], text)
    return _UMLAUT.sub(lambda m: _UMLAUTS[m.group(1)], text)


def strip_bbcode(text: str) -> tuple[str, int]:
    """Remove forum BBCode tags ([EMAIL=...]...[/EMAIL]); returns the text and how many were removed."""
    count = len(_BBCODE.findall(text))
    return _BBCODE.sub("", text), count


def _term(inner: str) -> str | None:
    term = " ".join(inner.split()).strip(" ,.;:!?").lower()
    if not term or "@" in term or len(term.split()) > 5 or not re.search(r"[a-z]", term):
        return None
    return term


def fold_markup(text: str) -> tuple[str, list[str]]:
    """Strip `_x_` and `-x-` markers; return the clean text and the mentioned terms (in order, once)."""
    terms: list[str] = []

    def keep(match: re.Match[str]) -> str:
        inner = match.group(1) if match.group(1) is not None else match.group(2)
        term = _term(inner)
        if term and term not in terms:
            terms.append(term)
        return inner

    return _EITHER.sub(keep, text), terms


def clean(raw: str) -> tuple[str, list[str]]:
    """Raw transcription to display text: BBCode out, symbols canonical, markup folded, spaces folded."""
    text, _ = strip_bbcode(raw)
    text = canon_symbols(" ".join(text.split()))
    return fold_markup(text)


# Gaps left where a <B>/<U> symbol vanished. Checked on text with symbols already canonical.
_GAPS = (
    re.compile(r"\bcosts? of\s*(?=[.,;:)]|$|would\b|and\b|to\b)"),  # "casting cost of ." / "of )"
    re.compile(r"\bcosts\s+(?=to\b|and\b)"),  # "an interrupt that costs to cast"
    re.compile(r"\(\s*\)"),  # "blue (), black ()"
    re.compile(r"\(\s*\{[^()]*?\},(?:\s*,)+"),  # "(<W>, , , <G>, <R>)"
    re.compile(r"\"\s*:\s"),  # "the special ability \": +1/+1"
    re.compile(r"\bevery\s+you\b"),  # "for every you spend"
    re.compile(r"\bwith\s+and\s+\{"),  # "a card with and <R>"
)


def lost_symbols(text: str) -> list[str]:
    """The places in `text` (symbols canonical) where a mana symbol seems to have vanished."""
    found: list[str] = []
    for pattern in _GAPS:
        for match in pattern.finditer(text):
            start = max(0, match.start() - 25)
            found.append(text[start:match.end() + 10].strip())
    return found
