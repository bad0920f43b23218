"""The Whoosh full-text index: schema, writing, and ranked search.

English and Hungarian records go to separate stemmed fields (Snowball English / Hungarian, the
Hungarian one accent-folded *before* stemming so "sebzes" and "sebzések" meet); `exact` is an
unstemmed, accent-folded copy of everything for fuzzy matching and spelling suggestions, which
silently fail on stemmed fields.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from pathlib import Path

from rulebase.errors import IndexError_, UsageError
from rulebase.hits import MARK_CLOSE, MARK_OPEN, Hit, Results
from rulebase.records import Record

warnings.filterwarnings("ignore", category=SyntaxWarning, module=r"whoosh(\..*)?")

from whoosh import index as whoosh_index  # noqa: E402
from whoosh import qparser, scoring  # noqa: E402
from whoosh.analysis import (  # noqa: E402
    CharsetFilter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StemmingAnalyzer,
    StopFilter,
)
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema  # noqa: E402
from whoosh.highlight import ContextFragmenter, Formatter, get_text  # noqa: E402
from whoosh.lang import stemmer_for_language  # noqa: E402
from whoosh.query import And, FuzzyTerm, Or, Term  # noqa: E402
from whoosh.support.charset import accent_map  # noqa: E402

KIND_BOOST = {"glossary": 1.6, "rule": 1.2, "ruling": 1.1, "term": 1.3, "heading": 0.9,
              "document": 0.3, "note": 0.3, "section": 0.8, "chapter": 0.9}


def _hungarian_analyzer():
    return (RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)
            | StemFilter(stemfn=stemmer_for_language("hu")))


def _exact_analyzer():
    return RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map) | StopFilter(minsize=2, stoplist=[])


def make_schema() -> Schema:
    english = StemmingAnalyzer()
    hungarian = _hungarian_analyzer()
    return Schema(
        id=ID(stored=True, unique=True),
        number=ID(stored=True),
        source=ID(stored=True),
        edition=ID(stored=True),
        lang=ID(stored=True),
        kind=ID(stored=True),
        pages=KEYWORD(stored=True, commas=True),
        title=TEXT(analyzer=english, field_boost=2.5, stored=True),
        text=TEXT(analyzer=english, stored=True),
        title_hu=TEXT(analyzer=hungarian, field_boost=2.5),
        text_hu=TEXT(analyzer=hungarian),
        exact=TEXT(analyzer=_exact_analyzer(), spelling=True),
        display=STORED,
    )


def _document(record: Record) -> dict:
    title = " ".join([record.title or "", *record.aliases]).strip()
    doc = {
        "id": record.id, "number": (record.number or "").lower() or None, "source": record.source,
        "edition": record.edition, "lang": record.lang, "kind": record.kind,
        "pages": ",".join(record.pages) or None, "exact": f"{title} {record.text}",
        "display": {"title": record.title, "number": record.number, "pages": record.pages,
                    "text": record.text},
        "_boost": KIND_BOOST.get(record.kind, 1.0),
    }
    if record.lang == "hu":
        doc.update(title_hu=title, text_hu=record.text, text=record.text)
    else:
        doc.update(title=title, text=record.text)
    return {k: v for k, v in doc.items() if v is not None}


def write_index(path: Path, records: list[Record],
                progress: Callable[[str, int, int], None] | None = None) -> None:
    path.mkdir(parents=True)
    ix = whoosh_index.create_in(str(path), make_schema())
    writer = ix.writer(limitmb=256)
    total = len(records)
    for n, record in enumerate(records, 1):
        writer.add_document(**_document(record))
        if progress and (n % 500 == 0 or n == total):
            progress("index", n, total)
    writer.commit()


def check(path: Path) -> bool:
    """True when the index opens and every segment file it names is present."""
    try:
        ix = whoosh_index.open_dir(str(path), readonly=True)
        with ix.reader() as reader:
            reader.doc_count()
            for fieldname in ("id", "exact"):
                next(iter(reader.lexicon(fieldname)), None)
    except Exception:  # noqa: BLE001 - any failure to read means unhealthy
        return False
    return True


class _Marker(Formatter):
    between = " … "

    def format_token(self, text, token, replace=False):
        return MARK_OPEN + get_text(text, token, replace) + MARK_CLOSE


FILTER_FIELDS = ("edition", "kind", "lang", "source")


class Searcher:
    """An open, read-only view of the index. Cheap to query repeatedly; close when done."""

    def __init__(self, path: Path, term_pairs: list[tuple[str, list[str]]] | None = None):
        try:
            self.ix = whoosh_index.open_dir(str(path), readonly=True)
            self.searcher = self.ix.searcher(weighting=scoring.BM25F(B=0.75, K1=1.2))
        except Exception as exc:  # noqa: BLE001 - whoosh raises many kinds on a damaged index
            raise IndexError_(f"full-text index unreadable ({type(exc).__name__})", str(path),
                              "run 'rulebase index build' to rebuild it") from None
        fields = ["title", "text", "title_hu", "text_hu"]
        self.parser = qparser.MultifieldParser(fields, self.ix.schema, group=qparser.OrGroup.factory(0.9))
        self.parser.remove_plugin_class(qparser.WildcardPlugin)
        self.parser.add_plugin(qparser.FuzzyTermPlugin())
        self.hu_by_en: dict[str, list[str]] = {}
        self.en_by_hu: dict[str, list[str]] = {}
        for hu, english in term_pairs or []:
            for en in english:
                self.hu_by_en.setdefault(en.lower(), []).append(hu)
                self.en_by_hu.setdefault(_fold(hu), []).append(en)

    def close(self) -> None:
        self.searcher.close()

    def _filter(self, filters: dict[str, list[str]]):
        clauses = []
        for name, values in filters.items():
            if name not in FILTER_FIELDS:
                raise UsageError(f"unknown filter {name!r}", hint="use " + ", ".join(FILTER_FIELDS))
            if values:
                clauses.append(Or([Term(name, v) for v in values]))
        return And(clauses) if clauses else None

    def _parse(self, text: str):
        try:
            return self.parser.parse(text)
        except Exception:  # noqa: BLE001 - fall back to plain words on syntax the parser rejects
            words = re.findall(r"\w+", text)
            return self.parser.parse(" ".join(words)) if words else None

    def _expand(self, text: str):
        """Bilingual expansion: English words pull in the Hungarian terms and vice versa."""
        words = [w.lower() for w in re.findall(r"[\w'-]+", text)]
        extra = []
        lowered = text.lower()
        for en, hus in self.hu_by_en.items():
            if re.search(rf"\b{re.escape(en)}\b", lowered):
                extra += [Term("title_hu", t, boost=0.6) for hu in hus for t in _hu_tokens(hu)]
        for word in words:
            for en in self.en_by_hu.get(_fold(word), []):
                extra += [Term("title", t, boost=0.6) for t in _en_tokens(en)]
        return extra

    def search(self, text: str, filters: dict[str, list[str]] | None = None, limit: int = 10,
               numbers: list[Hit] | None = None) -> Results:
        if limit < 1:
            raise UsageError("--limit must be at least 1")
        text = text.strip()
        filt = self._filter(filters or {})
        numbers = numbers or []
        results = Results(query=text, total=0, hits=list(numbers))
        q = self._parse(text)
        extra = self._expand(text)
        if q is None and not extra:
            results.total = len(results.hits)
            return results
        query = Or([c for c in [q, *extra] if c is not None])
        hits = self.searcher.search(query, limit=limit + len(numbers), filter=filt, terms=True)
        if hits.scored_length() == 0:
            corrected = self._correct(text)
            if corrected and corrected != text:
                results.suggestion = corrected
                fuzzy = self._fuzzy(text)
                if fuzzy is not None:
                    hits = self.searcher.search(fuzzy, limit=limit + len(numbers), filter=filt, terms=True)
        hits.fragmenter = ContextFragmenter(maxchars=160, surround=60)
        hits.formatter = _Marker()
        seen = {h.id for h in results.hits}
        for hit in hits:
            if hit["id"] in seen:
                continue
            snippet = hit.highlights("text", minscore=0) or hit["display"]["text"][:200]
            results.hits.append(Hit(hit["id"], round(hit.score, 4), snippet))
        results.total = max(len(results.hits), len(hits) + len(numbers))
        results.hits = results.hits[:limit]
        return results

    def _fuzzy(self, text: str):
        words = [w for w in re.findall(r"\w+", text.lower()) if len(w) > 2]
        if not words:
            return None
        return Or([FuzzyTerm("exact", _fold(w), maxdist=2 if len(w) > 5 else 1, prefixlength=1)
                   for w in words])

    def _correct(self, text: str) -> str | None:
        corrector = self.searcher.corrector("exact")
        out, changed = [], False
        for word in re.findall(r"\S+", text):
            bare = _fold(re.sub(r"\W", "", word))
            known = bare and self.searcher.doc_frequency("exact", bare) > 0
            if bare and not known and not bare.isdigit():
                suggestions = corrector.suggest(bare, limit=1, maxdist=2)
                if suggestions:
                    out.append(suggestions[0])
                    changed = True
                    continue
            out.append(word)
        return " ".join(out) if changed else None

    def suggest_titles(self, text: str, limit: int = 5) -> list[str]:
        corrector = self.searcher.corrector("exact")
        return corrector.suggest(_fold(text), limit=limit, maxdist=2)


def _fold(text: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def _hu_tokens(text: str) -> list[str]:
    return [t.text for t in _hungarian_analyzer()(text)]


def _en_tokens(text: str) -> list[str]:
    return [t.text for t in StemmingAnalyzer()(text)]
