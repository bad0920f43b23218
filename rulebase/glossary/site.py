"""Page templates for the glossary site: HTML and Markdown from a `glossary.Site`.

Every string that comes from a source (titles, texts, labels, ids, credits) passes through `esc`
(HTML) or `md` (Markdown, which is HTML-escaped too, since wikis pass raw HTML through) before it
is placed in a page. Links are relative, so OUT can be copied anywhere or opened from disk.
"""

from __future__ import annotations

import json
import posixpath
from importlib import resources
from urllib.parse import quote

from rulebase.core.eras import span_text
from rulebase.core.records import Record, fold_accents, fold_space
from rulebase.core.sources import TOURNAMENT_DOCUMENTS, edition_rank
from rulebase.glossary.escape import esc, json_safe, md
from rulebase.glossary.model import CurrentPage, Definition, RulePage, Site, TermPage
from rulebase.glossary.rulepages import HtmlCurrent, MarkdownCurrent, document_name, heading, numbers
from rulebase.rules.diff import DiffOp
from rulebase.rules.history import change_text

__all__ = ["esc", "md", "render_site", "rewritten"]

ASSETS = ("search.js", "style.css")
REWRITTEN_NOTE = "Rewritten: the two texts have little wording in common (both are shown in full above)."
SHOWN_KINDS = ("ruling", "example", "note", "term", "quiz", "table")  # labelled; the rest speak for themselves


def letter(title: str) -> str:
    first = fold_accents(title).strip()[:1].upper()
    return first if "A" <= first <= "Z" else "#"


def label(r: Record) -> str:
    if r.number:
        return f"{r.source} {r.number}"
    return f"{r.source}: {r.title}" if r.title else r.id


def rewritten(ops: list[DiffOp]) -> bool:
    """No run of words in common worth marking (see diff.merge_short_equals)."""
    return not any(o.op == "equal" for o in ops)


def snippet(text: str, limit: int = 140) -> str:
    text = fold_space(text)
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def naming(d: Definition) -> str:
    """What a definition at home elsewhere is, said under it."""
    return "A paragraph opening with the term" if d.opening else "A sentence naming the term"


def heading_of(r: Record) -> tuple[str, list[str]]:
    """(heading line, body paragraphs): the title is not repeated when the text is only the title."""
    head = " ".join(x for x in (r.number, r.title) if x)
    same = bool(r.title) and fold_space(r.text) in (fold_space(r.title or ""), fold_space(head))
    paras = [] if same else [p for p in r.text.split("\n\n") if p.strip()]
    return head, paras


class _Renderer:
    def __init__(self, site: Site, fmt: str):
        self.site, self.fmt, self.ext = site, fmt, "." + fmt

    def href(self, here: str, target: TermPage | RulePage | CurrentPage | str, record_id: str | None = None) -> str:
        path = target if isinstance(target, str) else target.path + self.ext
        folder, target_folder = posixpath.dirname(here), posixpath.dirname(path)
        if folder == target_folder:  # (relpath is a tenth of the build; most links stay in a folder)
            rel = posixpath.basename(path)
        elif not folder:
            rel = path
        else:
            rel = posixpath.relpath(path, folder)
        return quote(rel) + ("#" + quote(record_id, safe=":._-@") if record_id else "")

    def record_href(self, here: str, record_id: str | None) -> str | None:
        record_id = self.site.alias.get(record_id or "", record_id)
        page = self.site.home.get(record_id or "")
        return self.href(here, page, record_id) if page else None

    def source_line(self, r: Record, edition: bool = True, d: Definition | None = None) -> str:
        info = self.site.source(r.source)
        if d is not None and d.step is not None:  # an archive version: its days in force, what changed
            period = f"in force {span_text(d.step.first, d.step.last)}, {change_text(d.step)}"
            return " · ".join(x for x in (r.edition if edition else "", f"Comprehensive Rules ({r.source})",
                                          period) if x)
        where = r.number or (f"p. {', '.join(r.pages)}" if r.pages else "")
        name = f"{info.title if info else r.source} ({r.source})"
        return " · ".join(x for x in (r.edition if edition else "", name, where) if x)

    def credit(self, r: Record) -> str:
        info = self.site.source(r.source)
        return info.credit if info else ""

    def see_also(self, d: Definition) -> list[tuple[str, str | None, str | None]]:
        """(label, record id or None, reason) for the entry's own references, de-duplicated."""
        seen: dict[tuple[str, str | None], str | None] = {}
        for r in [d.record, *d.parts]:
            for ref in r.refs:
                seen.setdefault((ref.label, ref.target), ref.reason)
        return [(lab, target, reason) for (lab, target), reason in seen.items()]

    def files(self) -> dict[str, bytes]:
        out = {p.path + self.ext: self.term_page(p) for p in self.site.terms}
        out.update({p.path + self.ext: self.rule_page(p) for p in self.site.rules})
        out.update({p.path + self.ext: self.current_page(p) for p in self.site.current})
        out["index" + self.ext] = self.index_page()
        out["credits" + self.ext] = self.credits_page()
        return {name: text.encode("utf-8") for name, text in out.items()}

    def search_entries(self) -> list[dict]:
        """Every term (by its names, English and Hungarian) and every current rule (by its number)."""
        terms = [{"t": p.title, "u": p.path + self.ext, "n": [n for n in p.names if n != p.title],
                  "h": list(dict.fromkeys(t.title or "" for t in p.hungarian)), "e": p.editions}
                 for p in self.site.terms]
        rules = []
        for p in self.site.current:
            # the numbers the rule had before (702.19 Trample was 702.17 and 702.18): found by them,
            # as `cite` resolves an old number to the rule it is now
            former = [n for n in numbers(p.steps) if n.lower() != (p.record.number or "").lower()]
            was = f"was {', '.join(former)} · " if former else ""
            rules.append({"t": heading(p.record), "u": p.path + self.ext, "n": former, "h": [], "e": [],
                          "d": f"{'section' if p.record.source in TOURNAMENT_DOCUMENTS else 'rule'} in force now · "
                               f"{was}{snippet(p.record.text, 80)}"})
        return terms + rules

    def counts(self) -> list[tuple[str, list[str], int, int]]:
        """(edition, its sources, terms, definitions) for every edition the term pages hold."""
        rows = []
        for edition in sorted({e for p in self.site.terms for e in p.editions}, key=edition_rank):
            defs = [d for p in self.site.terms for d in p.definitions if d.record.edition == edition]
            terms = sum(1 for p in self.site.terms if edition in p.editions)
            rows.append((edition, sorted({d.record.source for d in defs}), terms, len(defs)))
        return rows

    def totals(self) -> tuple[list[str], int]:
        """The sources the term pages quote, and their definitions in all."""
        defs = [d for p in self.site.terms for d in p.definitions]
        return sorted({d.record.source for d in defs}), len(defs)

    def summary_line(self) -> str:
        sources, _ = self.totals()
        line = f"{len(self.site.terms)} terms from {len(sources)} sources; {len(self.site.rules)} rule pages of those sources"
        for source, release, pages in self.current_groups():
            line += (f"; {len(pages)} pages of the {document_name(source)} in force now "
                     f"(release of {release}), each with its history")
        return line + "."

    def current_groups(self) -> list[tuple[str, str, list[CurrentPage]]]:
        """Each dated document's current pages (source, newest release, pages): the
        Comprehensive Rules first, then the tournament documents."""
        groups: dict[str, list[CurrentPage]] = {}
        for page in self.site.current:
            groups.setdefault(page.record.source, []).append(page)
        order = sorted(groups, key=lambda s: (s in TOURNAMENT_DOCUMENTS, list(TOURNAMENT_DOCUMENTS).index(s)
                                               if s in TOURNAMENT_DOCUMENTS else 0, s))
        return [(s, groups[s][0].release, groups[s]) for s in order]

    def contents(self, pages: list[CurrentPage]) -> list[CurrentPage]:
        """A document's current sections and chapters, for the index page (the Comprehensive
        Rules' rules are a click further; a tournament document's sections are all listed)."""
        return [p for p in pages if p.record.kind in ("section", "chapter")]

    def rule_groups(self) -> list[tuple[str, list[RulePage]]]:
        groups: dict[str, list[RulePage]] = {}
        for page in self.site.rules:
            groups.setdefault(page.root.source, []).append(page)
        return list(groups.items())


class HtmlRenderer(HtmlCurrent, _Renderer):
    def frame(self, here: str, title: str, body: str, lang: str = "en") -> str:
        up = "../" * here.count("/")
        return (f'<!DOCTYPE html>\n<html lang="{esc(lang)}">\n<head>\n<meta charset="utf-8">\n'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
                f"<title>{esc(title)} · Rules glossary</title>\n"
                f'<link rel="stylesheet" href="{up}assets/style.css">\n</head>\n<body>\n'
                f'<header><nav><a href="{up}index.html">Glossary index</a> · '
                f'<a href="{up}credits.html">Credits</a></nav></header>\n<main>\n{body}</main>\n</body>\n</html>\n')

    def link(self, here: str, text: str, record_id: str | None, reason: str | None = None) -> str:
        href = self.record_href(here, record_id)
        if href:
            return f'<a href="{esc(href)}">{esc(text)}</a>'
        return f'<span class="unlinked" title="{esc(reason or "not in this site")}">{esc(text)}</span>'

    def paras(self, texts: list[str]) -> str:
        return "".join(f"<p>{esc(t)}</p>\n" for t in texts)

    def record_block(self, here: str, r: Record, css: str, refs_too: bool = True) -> str:
        head, paras = heading_of(r)
        lang = f' lang="{esc(r.lang)}"' if r.lang != "en" else ""
        kind = f'<span class="kind">{esc(r.kind)}</span> ' if r.kind in SHOWN_KINDS else ""
        top = f'<p class="head">{kind}{esc(head)}</p>\n' if head or kind else ""
        refs = [self.link(here, ref.label, ref.target, ref.reason) for ref in r.refs if refs_too]
        see = f'<p class="see-also">See: {", ".join(refs)}</p>\n' if refs else ""
        return f'<div class="{css}" id="{esc(r.id)}"{lang}>\n{top}{self.paras(paras)}{see}</div>\n'

    def term_page(self, page: TermPage) -> str:
        here = page.path + self.ext
        body = [f"<h1>{esc(page.title)}</h1>\n"]
        others = [n for n in page.names if n != page.title]
        if others:
            body.append(f'<p class="names">Also: {esc(", ".join(others))}</p>\n')
        if page.hungarian:
            links = [self.link(here, t.title or t.id, t.id) for t in page.hungarian]
            body.append(f'<p class="hungarian">Hungarian: <span lang="hu">{", ".join(links)}</span></p>\n')
        if page.english:
            links = [f'<a href="{esc(self.href(here, p))}">{esc(en)}</a>' if p else esc(en) for en, p in page.english]
            body.append(f'<p class="english">English: {", ".join(links)}</p>\n')
        body.append('<section class="definitions">\n<h2>Definitions</h2>\n')
        for d in page.definitions:
            r = d.record
            lang = f' lang="{esc(r.lang)}"' if r.lang != "en" else ""
            head, paras = heading_of(r)
            credits = self.href(here, "credits" + self.ext, f"source-{r.source}")
            mine = self.site.home.get(r.id) is page
            anchor = f'id="{esc(r.id)}"' if mine else f'data-record="{esc(r.id)}"'
            css = "definition named" if d.named else "definition"
            body.append(f'<article class="{css}" {anchor} data-edition="{esc(r.edition)}"{lang}>\n'
                        f'<h3><span class="edition">{esc(r.edition)}</span> {esc(self.source_line(r, False, d))}</h3>\n'
                        f'<p class="term">{esc(r.title or head)}</p>\n{self.paras(paras)}')
            if d.named:
                where = esc(label(r)) if mine else self.link(here, label(r), r.id)
                body.append(f'<p class="named-in">{naming(d)}, in {where}</p>\n')
            body += [self.record_block(here, p, f"part kind-{p.kind}", False) for p in d.parts]
            see = [self.link(here, lab, target, reason) for lab, target, reason in self.see_also(d)]
            if see:
                body.append(f'<p class="see-also">See also: {", ".join(see)}</p>\n')
            body.append(f'<p class="credit"><a href="{esc(credits)}">{esc(self.credit(r))}</a></p>\n</article>\n')
        body.append("</section>\n")
        if page.diffs:
            body.append('<section class="diffs">\n<h2>Differences between editions</h2>\n')
            body += [self.diff(old, new, ops) for old, new, ops in page.diffs]
            body.append("</section>\n")
        if page.referrers:
            items = [f"<li>{self.link(here, label(r), r.id)} <span class=\"snippet\">{esc(snippet(r.text))}"
                     f"</span></li>\n" for r in page.referrers]
            body.append(f'<section class="referrers">\n<h2>Referenced by</h2>\n<ul>\n{"".join(items)}</ul>\n</section>\n')
        lang = page.definitions[0].record.lang
        return self.frame(here, page.title, "".join(body), lang)

    def diff(self, old: Definition, new: Definition, ops: list[DiffOp]) -> str:
        left = "".join(esc(o.a) if o.op == "equal" else f"<del>{esc(o.a)}</del>" for o in ops if o.a)
        right = "".join(esc(o.b) if o.op == "equal" else f"<ins>{esc(o.b)}</ins>" for o in ops if o.b)
        if rewritten(ops):
            left, right = esc(old.text), esc(new.text)
        a, b = old.record, new.record
        note = f"<caption>{REWRITTEN_NOTE}</caption>" if rewritten(ops) else ""
        return (f'<table class="diff">{note}\n<tr><th>{esc(a.edition)} · {esc(a.source)}</th>'
                f"<th>{esc(b.edition)} · {esc(b.source)}</th></tr>\n"
                f'<tr><td class="old">{left}</td><td class="new">{right}</td></tr>\n</table>\n')

    def rule_page(self, page: RulePage) -> str:
        here = page.path + self.ext
        root = page.root
        title = " ".join(x for x in (root.number, root.title) if x) or root.id
        info = self.site.source(root.source)
        crumbs = " › ".join(root.section)
        body = [f"<h1>{esc(title)}</h1>\n",
                f'<p class="source">{esc(info.title if info else root.source)} ({esc(root.edition)})</p>\n']
        if crumbs:
            body.append(f'<p class="section">{esc(crumbs)}</p>\n')
        body += [self.record_block(here, r, f"record kind-{r.kind}") for r in page.records]
        if page.toc:
            items = [f"<li>{self.link(here, ' '.join(x for x in (k.number, k.title) if x) or k.id, k.id)}</li>\n"
                     for k in page.toc]
            body.append(f'<ul class="toc">\n{"".join(items)}</ul>\n')
        if info:
            body.append(f'<p class="credit">{esc(info.credit)}</p>\n')
        return self.frame(here, title, "".join(body), root.lang)

    def index_page(self) -> str:
        terms = self.site.terms
        letters = sorted({letter(p.title) for p in terms}, key=lambda x: (x == "#", x))
        nav = " ".join(f'<a href="#letter-{"other" if x == "#" else x}">{esc(x)}</a>' for x in letters)
        rows = "".join(f"<tr><td>{esc(e)}</td><td>{esc(' '.join(s))}</td><td>{t}</td><td>{d}</td></tr>\n"
                       for e, s, t, d in self.counts())
        sources, defs = self.totals()
        rows += (f'<tr class="total"><td>all</td><td>{len(sources)} sources</td><td>{len(terms)}</td>'
                 f"<td>{defs}</td></tr>\n")
        body = [f'<h1>Rules glossary</h1>\n<p class="summary">{esc(self.summary_line())}</p>\n',
                '<div class="search">\n<label for="search">Search terms</label>\n'
                '<input id="search" type="search" autocomplete="off" placeholder="English or Hungarian term">\n'
                '<ul id="results" aria-live="polite"></ul>\n</div>\n',
                '<table class="counts">\n<tr><th>Edition</th><th>Sources</th><th>Terms</th><th>Definitions</th></tr>\n'
                f"{rows}</table>\n",
                f'<nav class="az">{nav}</nav>\n']
        for x in letters:
            items = [f'<li><a href="{esc(self.href("index.html", p))}">{esc(p.title)}</a> '
                     f'<span class="editions">{esc(" ".join(p.editions))}</span></li>\n'
                     for p in terms if letter(p.title) == x]
            body.append(f'<section id="letter-{"other" if x == "#" else x}">\n<h2>{esc(x)}</h2>\n'
                        f'<ul class="terms">\n{"".join(items)}</ul>\n</section>\n')
        body.append('<section id="rule-pages">\n<h2>Rule pages</h2>\n')
        for source, release, pages in self.current_groups():
            items = "".join(f'<li class="kind-{esc(p.record.kind)}"><a href="{esc(self.href("index.html", p))}">'
                            f"{esc(heading(p.record))}</a></li>\n" for p in self.contents(pages))
            anchor = "current-rules" if source not in TOURNAMENT_DOCUMENTS else f"current-{source}"
            body.append(f'<h3 id="{esc(anchor)}">{esc(document_name(source))} in force now (release of '
                        f'{esc(release)})</h3>\n<ul class="contents">\n{items}</ul>\n')
        for source, pages in self.rule_groups():
            items = "".join(f'<li><a href="{esc(self.href("index.html", p))}">'
                            f'{esc(" ".join(x for x in (p.root.number, p.root.title) if x) or p.root.id)}</a></li>\n'
                            for p in pages)
            body.append(f"<h3>{esc(source)}</h3>\n<ul>\n{items}</ul>\n")
        data = json.dumps(self.search_entries(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        data = json_safe(data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
        body.append(f'</section>\n<script type="application/json" id="search-data">{data}</script>\n'
                    '<script src="assets/search.js"></script>\n')
        return self.frame("index.html", "Index", "".join(body))

    def credits_page(self) -> str:
        body = ["<h1>Credits</h1>\n<p>Where each source comes from and the credit its author asks for.</p>\n"]
        for s in self.site.sources:
            rows = [("Source id", s.id), ("Edition", s.edition), ("Date", s.date), ("Language", s.lang),
                    ("Provenance", s.provenance), ("Credit", s.credit), ("Edition note", s.edition_note or "")]
            dl = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>\n" for k, v in rows if v)
            body.append(f'<section id="{esc("source-" + s.id)}">\n<h2>{esc(s.title)}</h2>\n<dl>\n{dl}</dl>\n</section>\n')
        return self.frame("credits.html", "Credits", "".join(body))

    def files(self) -> dict[str, bytes]:
        out = super().files()
        for name in ASSETS:
            out[f"assets/{name}"] = resources.files("rulebase").joinpath("assets", name).read_bytes()
        return out


class MarkdownRenderer(MarkdownCurrent, _Renderer):
    """The same pages for wikis: anchors as inline <a id>, diffs inline (~~old~~ **new**)."""

    def frame(self, here: str, body: list[str]) -> str:
        up = "../" * here.count("/")
        nav = f"[Glossary index]({up}index.md) · [Credits]({up}credits.md)\n\n"
        return nav + "\n\n".join(b.strip("\n") for b in body if b.strip()) + "\n"

    def link(self, here: str, text: str, record_id: str | None) -> str:
        href = self.record_href(here, record_id)
        return f"[{md(text)}]({href})" if href else md(text)

    def anchor(self, record_id: str) -> str:
        return f'<a id="{esc(record_id)}"></a>'

    def record_block(self, here: str, r: Record, refs_too: bool = True) -> str:
        head, paras = heading_of(r)
        kind = f"*{r.kind}* " if r.kind in SHOWN_KINDS else ""
        lines = [self.anchor(r.id) + (f" {kind}**{md(head)}**" if head else f" {kind}".rstrip())]
        lines += [md(p) for p in paras]
        if r.refs and refs_too:
            lines.append("See: " + ", ".join(self.link(here, ref.label, ref.target) for ref in r.refs))
        return "\n\n".join(lines)

    def term_page(self, page: TermPage) -> str:
        here = page.path + self.ext
        body = [f"# {md(page.title)}"]
        others = [n for n in page.names if n != page.title]
        if others:
            body.append("Also: " + md(", ".join(others)))
        if page.hungarian:
            body.append("Hungarian: " + ", ".join(self.link(here, t.title or t.id, t.id) for t in page.hungarian))
        if page.english:
            body.append("English: " + ", ".join(f"[{md(en)}]({self.href(here, p)})" if p else md(en)
                                                for en, p in page.english))
        body.append("## Definitions")
        for d in page.definitions:
            r = d.record
            head, paras = heading_of(r)
            mine = self.site.home.get(r.id) is page
            body += [f"### {md(self.source_line(r, True, d))}",
                     (self.anchor(r.id) + " " if mine else "") + f"**{md(r.title or head)}**",
                     *[md(p) for p in paras], *[self.record_block(here, p, False) for p in d.parts]]
            if d.named:
                body.append(f"{naming(d)}, in {md(label(r)) if mine else self.link(here, label(r), r.id)}")
            see = [self.link(here, lab, target) for lab, target, _reason in self.see_also(d)]
            if see:
                body.append("See also: " + ", ".join(see))
            credits = self.href(here, "credits" + self.ext, f"source-{r.source}")
            body.append(f"*Credit: [{md(self.credit(r))}]({credits})*")
        if page.diffs:
            body.append("## Differences between editions")
            for old, new, ops in page.diffs:
                body += [f"### {md(old.record.edition)} ({md(old.record.source)}) → "
                         f"{md(new.record.edition)} ({md(new.record.source)})", self.diff(ops)]
        if page.referrers:
            body.append("## Referenced by")
            body.append("\n".join(f"- {self.link(here, label(r), r.id)} — {md(snippet(r.text))}"
                                  for r in page.referrers))
        return self.frame(here, body)

    def diff(self, ops: list[DiffOp]) -> str:
        if rewritten(ops):
            return f"*{REWRITTEN_NOTE}*"
        words = []
        for o in ops:
            a, b = md(fold_space(o.a)), md(fold_space(o.b))
            if o.op == "equal":
                words.append(b)
            else:
                words += [f"~~{a}~~" if a else "", f"**{b}**" if b else ""]
        return " ".join(w for w in words if w)

    def rule_page(self, page: RulePage) -> str:
        here = page.path + self.ext
        root = page.root
        info = self.site.source(root.source)
        body = [f"# {md(' '.join(x for x in (root.number, root.title) if x) or root.id)}",
                f"{md(info.title if info else root.source)} ({md(root.edition)})"]
        if root.section:
            body.append(md(" › ".join(root.section)))
        body += [self.record_block(here, r) for r in page.records]
        if page.toc:
            body.append("\n".join(f"- {self.link(here, ' '.join(x for x in (k.number, k.title) if x) or k.id, k.id)}"
                                  for k in page.toc))
        if info:
            body.append(f"*{md(info.credit)}*")
        return self.frame(here, body)

    def index_page(self) -> str:
        terms = self.site.terms
        letters = sorted({letter(p.title) for p in terms}, key=lambda x: (x == "#", x))
        sources, defs = self.totals()
        body = ["# Rules glossary", md(self.summary_line()),
                "| Edition | Sources | Terms | Definitions |\n| --- | --- | --- | --- |\n"
                + "\n".join(f"| {md(e)} | {md(' '.join(s))} | {t} | {d} |" for e, s, t, d in self.counts())
                + f"\n| all | {len(sources)} sources | {len(terms)} | {defs} |",
                " · ".join(f"[{md(x)}](#letter-{'other' if x == '#' else x})" for x in letters)]
        for x in letters:
            body.append(f'<a id="letter-{"other" if x == "#" else x}"></a>\n\n## {md(x)}')
            body.append("\n".join(f"- [{md(p.title)}]({self.href('index.md', p)}) {md(' '.join(p.editions))}"
                                  for p in terms if letter(p.title) == x))
        body.append("## Rule pages")
        for source, release, pages in self.current_groups():
            body.append(f"### {md(document_name(source))} in force now (release of {md(release)})")
            body.append("\n".join(f"- [{md(heading(p.record))}]({self.href('index.md', p)})" for p in self.contents(pages)))
        for source, pages in self.rule_groups():
            body.append(f"### {md(source)}")
            body.append("\n".join(f"- [{md(' '.join(x for x in (p.root.number, p.root.title) if x) or p.root.id)}]"
                                  f"({self.href('index.md', p)})" for p in pages))
        return self.frame("index.md", body)

    def credits_page(self) -> str:
        body = ["# Credits", "Where each source comes from and the credit its author asks for."]
        for s in self.site.sources:
            rows = [("Source id", s.id), ("Edition", s.edition), ("Date", s.date), ("Language", s.lang),
                    ("Provenance", s.provenance), ("Credit", s.credit), ("Edition note", s.edition_note or "")]
            body.append(f"{self.anchor('source-' + s.id)}\n\n## {md(s.title)}")
            body.append("\n".join(f"- **{k}:** {md(v)}" for k, v in rows if v))
        return self.frame("credits.md", body)


def render_site(site: Site, fmt: str) -> dict[str, bytes]:
    """Every file of the site: relative path under OUT -> bytes."""
    renderer = MarkdownRenderer(site, fmt) if fmt == "md" else HtmlRenderer(site, fmt)
    return renderer.files()
