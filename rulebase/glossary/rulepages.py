"""Pages of the newest Comprehensive Rules release: a rule, its examples, its subrules, the glossary
terms that cite it and its history (every version, newest first, with its days in force, what
changed and a word diff against the version before), in HTML and Markdown.

Mixins of site.py's renderers: they use the renderer's `esc`/`md`, `link`, `href` and
`record_block`, so document text is escaped in one place.
"""

from __future__ import annotations

from rulebase.core.eras import span_text
from rulebase.core.records import Record
from rulebase.core.sources import TOURNAMENT_DOCUMENTS
from rulebase.glossary.escape import esc, md
from rulebase.glossary.model import CurrentPage
from rulebase.rules.cards import used_by_phrase
from rulebase.rules.diff import DiffOp
from rulebase.rules.history import Step, change_text


def heading(r: Record) -> str:
    return " ".join(x for x in (r.number, r.title) if x) or r.id


def used_by_text(count: int, names: list[str]) -> str:
    """'Used by 1,240 cards, e.g. Colossal Dreadmaw, ...'."""
    phrase = used_by_phrase(count, names)
    return phrase[0].upper() + phrase[1:]


def document_name(source: str) -> str:
    """What a current page's document is called: 'Comprehensive Rules', 'Magic Infraction
    Procedure Guide (IPG)'."""
    name = TOURNAMENT_DOCUMENTS.get(source)
    return f"{name} ({source.upper()})" if name else "Comprehensive Rules"


def children_name(r: Record) -> str:
    if r.source in TOURNAMENT_DOCUMENTS:
        return "Sections"
    return "Subrules" if r.kind == "rule" else "Rules" if r.kind == "chapter" else "Chapters"


def days(step: Step) -> str:
    return span_text(step.first, step.last)


def numbers(steps: list[Step]) -> list[str]:
    """The numbers a rule has had, oldest first, each once per run: 502.83a, 702.80a, ..."""
    out: list[str] = []
    for step in steps:
        number = step.record.number or ""
        if number and (not out or out[-1] != number):
            out.append(number)
    return out


def shown_text(step: Step) -> list[DiffOp]:
    """The version's text as diff ops against the one before (one equal op when there is no diff):
    the `b` sides join to the version's text exactly."""
    return step.diff or [DiffOp("equal", step.record.text, step.record.text)]


class _CurrentLinks:
    """Both writers' link to a record's page among the current rules' (None: it has none)."""

    def page_href(self, here: str, r: Record) -> str | None:
        page = self.site.home.get(r.id)
        return self.href(here, page) if isinstance(page, CurrentPage) else None


class HtmlCurrent(_CurrentLinks):
    def current_page(self, page: CurrentPage) -> str:
        here = page.path + self.ext
        r = page.record
        title = heading(r)
        crumbs = " › ".join(f'<a href="{esc(self.page_href(here, c) or "")}">{esc(heading(c))}</a>'
                            for c in page.crumbs)
        body = [f"<h1>{esc(title)}</h1>\n",
                f'<p class="source">{esc(document_name(r.source))}, release of {esc(page.release)}: in force now</p>\n']
        if crumbs:
            body.append(f'<nav class="section">{crumbs}</nav>\n')
        body.append(self.record_block(here, r, f"record current kind-{r.kind}"))
        body += [self.record_block(here, e, "record kind-example") for e in page.examples]
        if page.children:
            items = "".join(f'<li><a href="{esc(self.page_href(here, k) or "")}">{esc(k.number or k.id)}</a>'
                            f'{" " + esc(k.title) if k.title else ""}'
                            f'{self.paras([p for p in k.text.split(chr(10) * 2) if p.strip()]) if not k.title else ""}'
                            "</li>\n" for k in page.children)
            name = children_name(r)
            body.append(f'<section class="subrules">\n<h2>{name}</h2>\n<ul>\n{items}</ul>\n</section>\n')
        if page.cited_by:
            links = ", ".join(f'<a href="{esc(self.href(here, t))}">{esc(t.title)}</a>' for t in page.cited_by)
            body.append(f'<p class="cited-by">Glossary terms citing it: {links}</p>\n')
        if page.cards[0]:
            body.append(f'<p class="used-by">{esc(used_by_text(*page.cards))}</p>\n')
        body.append(self.history(here, page))
        info = self.site.source(r.source)
        if info:
            body.append(f'<p class="credit">{esc(info.credit)}</p>\n')
        return self.frame(here, title, "".join(body), r.lang)

    def history(self, here: str, page: CurrentPage) -> str:
        steps = page.steps
        seen = " → ".join(esc(n) for n in numbers(steps))
        items = []
        for step in reversed(steps):
            v = step.record
            anchor = "" if v.id == page.record.id else f' id="{esc(v.id)}"'
            text = "".join(esc(o.b) if o.op == "equal" else
                           (f"<del>{esc(o.a)}</del>" if o.a else "") + (f"<ins>{esc(o.b)}</ins>" if o.b else "")
                           for o in shown_text(step))
            items.append(f'<li class="version change-{esc(step.change)}"{anchor}>\n'
                         f'<p class="period"><span class="days">{esc(days(step))}</span> · '
                         f'<span class="number">{esc(heading(v) if v.kind != "rule" else v.number or "")}</span> · '
                         f'{esc(change_text(step))} <span class="id">({esc(v.id)})</span></p>\n'
                         f'<p class="text">{text}</p>\n</li>\n')
        same = [self.link(here, f"{x.source} {x.number or x.title or x.id}", x.id) for x in page.linked]
        also = f'<p class="same-text">Same text in: {", ".join(same)}</p>\n' if same else ""
        return (f'<section class="history" id="history">\n<h2>History</h2>\n'
                f'<p class="lineage">{seen} ({len(steps)} version{"s" if len(steps) != 1 else ""})</p>\n'
                f'<ol class="versions">\n{"".join(items)}</ol>\n{also}</section>\n')


class MarkdownCurrent(_CurrentLinks):
    def current_page(self, page: CurrentPage) -> str:
        here = page.path + self.ext
        r = page.record
        body = [f"# {md(heading(r))}", f"{md(document_name(r.source))}, release of {md(page.release)}: in force now"]
        if page.crumbs:
            body.append(" › ".join(f"[{md(heading(c))}]({self.page_href(here, c)})" for c in page.crumbs))
        body.append(self.record_block(here, r))
        body += [self.record_block(here, e) for e in page.examples]
        if page.children:
            body.append("## " + children_name(r))
            body.append("\n".join(f"- [{md(k.number or k.id)}]({self.page_href(here, k)}) "
                                  + md(k.title or " ".join(k.text.split())) for k in page.children))
        if page.cited_by:
            body.append("Glossary terms citing it: " + ", ".join(f"[{md(t.title)}]({self.href(here, t)})"
                                                                 for t in page.cited_by))
        if page.cards[0]:
            body.append(md(used_by_text(*page.cards)))
        body.append(self.anchor("history") + "\n\n## History")
        body.append(f"{md(' → '.join(numbers(page.steps)))} ({len(page.steps)} "
                    f"version{'s' if len(page.steps) != 1 else ''})")
        for step in reversed(page.steps):
            v = step.record
            anchor = "" if v.id == page.record.id else self.anchor(v.id) + " "
            body.append(f"{anchor}**{md(days(step))}** · {md(v.number or heading(v))} · {md(change_text(step))} "
                        f"({md(v.id)})")
            rewritten = not any(o.op == "equal" for o in step.diff)
            body.append(md(v.text) if rewritten else self.diff(step.diff))
        if page.linked:
            body.append("Same text in: " + ", ".join(self.link(here, f"{x.source} {x.number or x.title or x.id}", x.id)
                                                     for x in page.linked))
        info = self.site.source(r.source)
        if info:
            body.append(f"*{md(info.credit)}*")
        return self.frame(here, body)
