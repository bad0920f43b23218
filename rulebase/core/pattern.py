"""Regular expressions compiled when first used.

A module-level `re.compile` runs when its module is imported, whether or not the command uses
the pattern: `re`'s compiler is Python code, and a pattern costs 0.05-0.7 ms to compile (a long
alternation more). A cold `rulebase lookup 502.83a` compiled 18 patterns and used 6, a search 49
of which it used 36. A pattern that most commands never use is declared with `lazy` instead.

A pattern each of whose matches holds one of a few words ("used to", "old rules", "obsolete")
can name them as `needs`: `search` of a text holding none of them (in any case) returns None at
once, without compiling the pattern. A question reader's patterns are tried on every query and
most queries hold none of their words.
"""

from __future__ import annotations

import re


class LazyPattern:
    """Stands for `re.compile(source, flags)` and compiles it on first use. Each use costs one
    more call than the compiled pattern's own, so loops over many texts keep `re.compile`."""

    __slots__ = ("source", "flags", "needs", "_compiled")

    def __init__(self, source: str, flags: int = 0, needs: tuple[str, ...] = ()):
        self.source, self.flags, self.needs, self._compiled = source, flags, needs, None

    @property
    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def match(self, text: str, *args) -> re.Match | None:
        return self.compiled.match(text, *args)

    def fullmatch(self, text: str, *args) -> re.Match | None:
        return self.compiled.fullmatch(text, *args)

    def search(self, text: str, *args) -> re.Match | None:
        if self.needs and not self.may_match(text):
            return None
        return self.compiled.search(text, *args)

    def may_match(self, text: str) -> bool:
        """False when `text` holds none of the words every match needs."""
        folded = text.lower()
        return any(word in folded for word in self.needs)

    def findall(self, text: str, *args) -> list:
        return self.compiled.findall(text, *args)

    def finditer(self, text: str, *args):
        return self.compiled.finditer(text, *args)

    def sub(self, repl, text: str, count: int = 0) -> str:
        return self.compiled.sub(repl, text, count)

    def split(self, text: str, maxsplit: int = 0) -> list:
        return self.compiled.split(text, maxsplit)


def lazy(source: str, flags: int = 0, needs: tuple[str, ...] = ()) -> LazyPattern:
    """A pattern compiled on first use; with `needs` (lower case), one that `search` tries only
    on a text holding one of those words (see the module's note)."""
    return LazyPattern(source, flags, needs)
