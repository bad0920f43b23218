"""Page templates for the glossary site: HTML and Markdown from a `glossary.Site`.

Every string that comes from a source (titles, texts, labels, ids, credits) passes through `esc`
(HTML) or `md` (Markdown, which is HTML-escaped too, since wikis pass raw HTML through) before it
is placed in a page. Links are relative, so OUT can be copied anywhere or opened from disk.
"""

from __future__ import annotations

import json
import posixpath
import re
from html import escape
from importlib import resources
from urllib.parse import quote

from rulebase.core.records import Record, fold_accents, fold_space
from rulebase.core.sources import EDITIONS
from rulebase.glossary.model import Definition, RulePage, Site, TermPage
from rulebase.rules.diff import DiffOp

ASSETS = ("search.js", "style.css")
REWRITTEN_NOTE = "Rewritten: the two texts have little wording in common (both are shown in full above)."
SHOWN_KINDS = ("ruling", "example", "note", "term", "quiz", "table")  # labelled; the rest speak for themselves
_MD_CHARS = re.compile(r"([\\`*_\[\]|~])")
_MD_LINE = re.compile(r"^(\s*)([#+-])|^(\s*\d+)([.)])", re.MULTILINE)  # "# x", "- x", "1. x"


def esc(text: str) -> str:
    return escape(text, quote=True)


def md(text: str) -> str:
    """Markdown-safe text: HTML-escaped, inline markers and block markers backslash-escaped."""
    text = _MD_CHARS.sub(r"\\\1", escape(text, quote=False))
    return _MD_LINE.sub(lambda m: "".join(m.group(i) or "" for i in (1, 3)) + "\\" + (m.group(2) or m.group(4)), text)


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


def heading_of(r: Record) -> tuple[str, list[str]]:
    """(heading line, body paragraphs): the title is not repeated when the text is only the title."""
    head = " ".join(x for x in (r.number, r.title) if x)
    same = bool(r.title) and fold_space(r.text) in (fold_space(r.title or ""), fold_space(head))
    paras = [] if same else [p for p in r.text.split("\n\n") if p.strip()]
    return head, paras


class _Renderer:
    def __init__(self, site: Site, fmt: str):
        self.site, self.fmt, self.ext = site, fmt, "." + fmt

    def href(self, here: str, target: TermPage | RulePage | str, record_id: str | None = None) -> str:
        path = target if isinstance(target, str) else target.path + self.ext
        rel = posixpath.relpath(path, posixpath.dirname(here) or ".")
        return quote(rel) + ("#" + quote(record_id, safe=":._-") if record_id else "")

    def record_href(self, here: str, record_id: str | None) -> str | None:
        page = self.site.home.get(record_id or "")
        return self.href(here, page, record_id) if page else None

    def source_line(self, r: Record, edition: bool = True) -> str:
        info = self.site.source(r.source)
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
        out["index" + self.ext] = self.index_page()
        out["credits" + self.ext] = self.credits_page()
        return {name: text.encode("utf-8") for name, text in out.items()}

    def search_entries(self) -> list[dict]:
        return [{"t": p.title, "u": p.path + self.ext, "n": [n for n in p.names if n != p.title],
                 "h": list(dict.fromkeys(t.title or "" for t in p.hungarian)), "e": p.editions}
                for p in self.site.terms]

    def counts(self) -> list[tuple[str, int, int]]:
        rows = []
        for edition in EDITIONS:
            terms = sum(1 for p in self.site.terms if edition in p.editions)
            defs = sum(1 for p in self.site.terms for d in p.definitions if d.record.edition == edition)
            if defs:
                rows.append((edition, terms, defs))
        return rows

    def rule_groups(self) -> list[tuple[str, list[RulePage]]]:
        groups: dict[str, list[RulePage]] = {}
        for page in self.site.rules:
            groups.setdefault(page.root.source, []).append(page)
        return list(groups.items())


class HtmlRenderer(_Renderer):
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
            body.append(f'<article class="definition" id="{esc(r.id)}" data-edition="{esc(r.edition)}"{lang}>\n'
                        f'<h3><span class="edition">{esc(r.edition)}</span> {esc(self.source_line(r, False))}</h3>\n'
                        f'<p class="term">{esc(r.title or head)}</p>\n{self.paras(paras)}')
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
        rows = "".join(f"<tr><td>{esc(e)}</td><td>{t}</td><td>{d}</td></tr>\n" for e, t, d in self.counts())
        body = [f"<h1>Rules glossary</h1>\n<p>{len(terms)} terms from {len(self.site.sources)} sources.</p>\n",
                '<div class="search">\n<label for="search">Search terms</label>\n'
                '<input id="search" type="search" autocomplete="off" placeholder="English or Hungarian term">\n'
                '<ul id="results" aria-live="polite"></ul>\n</div>\n',
                f'<table class="counts">\n<tr><th>Edition</th><th>Terms</th><th>Definitions</th></tr>\n{rows}</table>\n',
                f'<nav class="az">{nav}</nav>\n']
        for x in letters:
            items = [f'<li><a href="{esc(self.href("index.html", p))}">{esc(p.title)}</a> '
                     f'<span class="editions">{esc(" ".join(p.editions))}</span></li>\n'
                     for p in terms if letter(p.title) == x]
            body.append(f'<section id="letter-{"other" if x == "#" else x}">\n<h2>{esc(x)}</h2>\n'
                        f'<ul class="terms">\n{"".join(items)}</ul>\n</section>\n')
        body.append('<section id="rule-pages">\n<h2>Rule pages</h2>\n')
        for source, pages in self.rule_groups():
            items = "".join(f'<li><a href="{esc(self.href("index.html", p))}">'
                            f'{esc(" ".join(x for x in (p.root.number, p.root.title) if x) or p.root.id)}</a></li>\n'
                            for p in pages)
            body.append(f"<h3>{esc(source)}</h3>\n<ul>\n{items}</ul>\n")
        data = json.dumps(self.search_entries(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
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
        out["search-index.json"] = (json.dumps(self.search_entries(), ensure_ascii=False, sort_keys=True,
                                               indent=1) + "\n").encode("utf-8")
        return out


class MarkdownRenderer(_Renderer):
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
            body += [f"### {md(self.source_line(r))}", self.anchor(r.id) + f" **{md(r.title or head)}**",
                     *[md(p) for p in paras], *[self.record_block(here, p, False) for p in d.parts]]
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
        body = ["# Rules glossary", f"{len(terms)} terms from {len(self.site.sources)} sources.",
                "| Edition | Terms | Definitions |\n| --- | --- | --- |\n"
                + "\n".join(f"| {md(e)} | {t} | {d} |" for e, t, d in self.counts()),
                " · ".join(f"[{md(x)}](#letter-{'other' if x == '#' else x})" for x in letters)]
        for x in letters:
            body.append(f'<a id="letter-{"other" if x == "#" else x}"></a>\n\n## {md(x)}')
            body.append("\n".join(f"- [{md(p.title)}]({self.href('index.md', p)}) {md(' '.join(p.editions))}"
                                  for p in terms if letter(p.title) == x))
        body.append("## Rule pages")
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
