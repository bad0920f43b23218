"""A forum-posted rulebook's lines as pages and blocks (headings, paragraphs, lists, notes, the tip sheet).

`--N` ENDS page N; skipped markers give a two-page span. A paragraph cut by an inserted block
(diagram, boxed text, the tip sheet) goes on after it when the next line starts in lower case.
Words hyphenated at a line end are rejoined only when the joined word occurs elsewhere in the book
or the first part is not a known prefix (see `dehyphenate`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from rulebase.ingest.rulebooks import forum
from rulebase.ingest.rulebooks.lineshapes import (
    BOLD_LINE,
    BOX_OPEN,
    END_PUNCT,
    EQ_HEADING,
    UNDERLINE,
    LineShapes,
    first_word,
)

PREFIXES = {"pre", "non", "anti", "multi", "self", "semi", "post", "half", "well", "one", "two", "three",
            "four", "five", "all", "co", "ex", "sub", "super", "inter", "over", "under", "stress"}


@dataclass(slots=True)
class Item:
    line: forum.Line
    pages: tuple[str, ...] = ()
    flag: str | None = None
    mark: bool = False


@dataclass(slots=True)
class Block:
    kind: str  # heading, section, sub, gloss, para, list, note, table
    items: list[int] = field(default_factory=list)  # indexes into the item sequence
    title: str | None = None
    level: int = 0
    paras: list[list[int]] = field(default_factory=list)  # glossary body / table entries
    flags: list[str] = field(default_factory=list)


def assign_pages(lines: list[forum.Line]) -> list[Item]:
    """Every line with the page(s) it is on: the label of the next `--N` marker (a marker ends its page)."""
    items = [Item(ln, mark=forum.is_mark(ln.text)) for ln in lines]
    pending: list[Item] = []
    previous: str | None = None
    for item in items:
        if not item.mark:
            pending.append(item)
            continue
        label = forum.mark_label(item.line.text)
        pages: tuple[str, ...] = (label,)
        flag = None
        if previous and previous.isdigit() and label.isdigit() and int(label) > int(previous) + 1:
            pages = tuple(str(n) for n in range(int(previous) + 1, int(label) + 1))
            missing = ", ".join(f"--{n}" for n in range(int(previous) + 1, int(label)))
            flag = f"page marker {missing} missing: text spans pages {pages[0]}-{pages[-1]}"
        for p in pending:
            p.pages, p.flag = pages, flag
        item.pages = (label,)
        pending = []
        previous = label
    for p in pending:
        p.pages = (previous,) if previous else ()
        p.flag = f"after the last page marker (--{previous}): placed on page {previous}" if previous else None
    return items


class Segmenter:
    """Cuts a book's content lines into blocks; `lines` is the shape of each content line."""

    def __init__(self, items: list[Item], content: list[int], set_aside: Counter, thread_text: str = "") -> None:
        self.items, self.content, self.set_aside = items, content, set_aside
        self.thread_text = thread_text
        self.lines = LineShapes([items[i].line.text for i in content])

    def text(self, k: int) -> str:
        """The k-th content line with forum BBCode taken out (shapes and widths are judged on this)."""
        return self.lines.texts[k]

    def segment(self) -> list[Block]:
        n = len(self.content)
        shapes, caps_mode = self.lines.shapes, self.lines.caps_mode
        blocks: list[Block] = []
        current: Block | None = None
        pending: Block | None = None  # a paragraph cut by an inserted block
        inserting = False
        glossary = False
        k = 0
        while k < n:
            shape, t = shapes[k], self.text(k)
            idx = self.content[k]
            if shape in ("note", "table", "box-close"):
                if current is not None and current.kind == "para" and not END_PUNCT.search(self.text(k - 1)):
                    pending = current
                current = None
                if shape == "box-close":
                    self.set_aside["transcriber-markup"] += 1
                    inserting = False
                    k += 1
                    continue
                if shape == "table":
                    k = self._table(k, blocks)
                    continue
                block = Block("note", [idx])
                while self._open_bracket(block) and k + 1 < n:
                    k += 1
                    block.items.append(self.content[k])
                blocks.append(block)
                inserting = BOX_OPEN.match(t) is not None or inserting
                k += 1
                continue
            if shape in ("heading", "section"):
                title = EQ_HEADING.match(t).group(1) if EQ_HEADING.match(t) else t
                level = 1 if (caps_mode or EQ_HEADING.match(t) or shape == "section") else 2
                blocks.append(Block(shape if shape == "section" else "heading", [idx], title, level))
                glossary = caps_mode and "GLOSSARY" in t
                current, pending = None, None
                k += 1
                continue
            if shape == "bold":
                m = BOLD_LINE.match(t)
                title = m.group(1) + (f" ({m.group(2)})" if m.group(2) else "")
                if glossary:
                    current = Block("gloss", [idx], title)
                    blocks.append(current)
                else:
                    blocks.append(Block("heading", [idx], title, 2))
                    current = None
                k += 1
                continue
            starts = current is None or (k > 0 and self.lines.breaks(k, current.kind == "list",
                                                                      len(current.items) == 1))
            if current is not None and current.kind == "gloss":
                if starts or len(current.items) == 1:
                    current.paras.append([idx])
                else:
                    current.paras[-1].append(idx)
                current.items.append(idx)
            elif not starts:
                current.items.append(idx)
            elif pending is not None and not inserting and t[:1].islower():
                current = pending
                current.flags.append("continues after an inserted block")
                current.items.append(idx)
                pending = None
            elif shape == "bullet" and current is not None and current.kind == "list":
                current.paras.append([idx])
                current.items.append(idx)
            else:
                if not inserting:
                    pending = None
                current = Block("list" if shape == "bullet" else "para", [idx])
                current.paras.append([idx])
                blocks.append(current)
            if current.kind in ("list", "para") and current.paras and current.paras[-1][-1] != idx:  # idx only grows
                current.paras[-1].append(idx)
            k += 1
        return blocks

    def _open_bracket(self, block: Block) -> bool:
        joined = " ".join(self.items[i].line.text for i in block.items)
        return joined.lstrip().startswith("[") and joined.count("[") > joined.count("]")

    def _table(self, k: int, blocks: list[Block]) -> int:
        """The tip sheet: a spread line, then entries of title, dash underline and body."""
        block = Block("table", [self.content[k]], self._spread_title(self.text(k)))
        if not block.title:
            block.title = "Table"
        k += 1
        n = len(self.content)
        while k + 1 < n and UNDERLINE.match(self.text(k + 1)) and len(self.text(k + 1)) == len(self.text(k)):
            entry = [self.content[k], self.content[k + 1]]
            k += 2
            while k < n:  # the body ends at its first line ending in sentence punctuation
                entry.append(self.content[k])
                k += 1
                if END_PUNCT.search(self.text(k - 1)):
                    break
            block.paras.append(entry)
            block.items.extend(entry)
        blocks.append(block)
        return k

    def _spread_title(self, t: str) -> str:
        """'<twopage spread><check> D O N ' T F O R G E T . . .</spread>' -> "DON'T FORGET...".

        The letter-spacing hid the word gaps; words are found again with the book's own vocabulary.
        """
        inner = re.sub(r"<[^>]+>", " ", t).strip()
        dots = "..." if inner.endswith(".") else ""
        letters = re.sub(r"\s+", "", inner).rstrip(".")
        words = {w.lower() for w in re.findall(r"[A-Za-z]+(?:'[A-Za-z]+)?", self.thread_text)}
        best: list[list[str] | None] = [[]] + [None] * len(letters)
        for end in range(1, len(letters) + 1):  # fewest words wins
            for start in range(max(0, end - 15), end):
                prior = best[start]
                if prior is not None and letters[start:end].lower() in words \
                        and (best[end] is None or len(prior) + 1 < len(best[end])):
                    best[end] = prior + [letters[start:end]]
        found = best[len(letters)]
        return (" ".join(found) if found else letters) + dots


def join_lines(lines: list[str], vocab: Counter, flags: list[str]) -> str:
    """Lines to one string: de-hyphenate line-end breaks, fold whitespace, keep markup."""
    out = ""
    for line in lines:
        t = line.strip()
        if not out:
            out = t
            continue
        m = re.search(r"(?:^|(?<=[\s(\"]))([A-Za-z]+(?:-[A-Za-z]+)*)-$", out)
        if m and t[:1].islower() and not re.search(r"(?:^|\s)-[^\s-][^-]*-$", out.split("\n")[-1]):
            word = dehyphenate(m.group(1), first_word(t), vocab, flags)
            out = out[: m.start()] + word + t[len(first_word(t)):]
        elif re.search(r"\d-$", out) and t[:1].isdigit():
            out += t
        else:
            out += " " + t
    return out


def dehyphenate(first: str, second: str, vocab: Counter, flags: list[str]) -> str:
    """`first-` at a line end + `second`: one word, or a hyphenated one, judged by the book's `vocab`."""
    head = re.match(r"[A-Za-z]+", second)
    tail_word = head.group(0) if head else second
    joined = (first + tail_word).lower()
    last = first.split("-")[-1].lower()
    if vocab.get(joined) and "-" not in first:
        return first + second
    if f"{first}-{tail_word}".lower() in vocab or last in PREFIXES or "-" in first:
        return f"{first}-{second}"
    if vocab.get(last) and vocab.get(tail_word.lower()) and len(last) >= 3:
        flags.append(f"line-end hyphen kept in '{first}-{tail_word}' (uncertain)")
        return f"{first}-{second}"
    flags.append(f"line-end hyphen removed in '{first}{tail_word}' (uncertain)")
    return first + second
