"""The common terms' postings stored at build time read back exactly as Whoosh's own."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rulebase.index import postings
from rulebase.index.postings import BM25_B, BM25_K1, Stored
from rulebase.index.scorer import Scorer


def test_every_stored_term_equals_its_postings_read_from_whoosh(library):
    searcher = library._open("searcher")
    reader = searcher.reader
    table = json.loads(Path(searcher.path, postings.TABLE).read_text(encoding="utf-8"))
    assert len(table) > 100  # "rule", "spell", "ability"... in every field that has them
    stored, plain = Stored(searcher.path), Scorer(reader, B=BM25_B, K1=BM25_K1)
    for key in table:
        field, token = key.split("\t")
        assert reader.doc_frequency(field, token) >= postings.COMMON
        positional = reader.schema[field].format.supports("positions")
        ids, scores, values = stored.get(field, token, positional)
        expected = plain._read(field, token, positional)
        assert (list(ids), list(scores)) == (expected.ids, expected.scores), key
        if positional:
            decode = reader.schema[field].format.decoder("positions")
            assert [values.positions(i) for i in range(len(values))] == [decode(v) for v in expected.values], key
    stored.close()


def test_a_common_terms_frequencies_are_whooshs_weights(library):
    """Scorer.frequencies reads a common term of a positional field from the stored positions (a
    term occurs as often as it has positions there): the same documents and counts as Whoosh's."""
    searcher = library._open("searcher")
    reader = searcher.reader
    stored, plain = Scorer(reader, stored=Stored(searcher.path)), Scorer(reader)
    table = json.loads(Path(searcher.path, postings.TABLE).read_text(encoding="utf-8"))
    keys = [key.split("\t") for key in table if reader.schema[key.split("\t")[0]].format.supports("positions")]
    assert len(keys) > 100
    for field, token in keys:
        ids, counts = stored.frequencies(field, token)
        assert (list(ids), counts) == plain.frequencies(field, token), (field, token)
    stored.close()


def test_a_rare_term_is_not_stored(library):
    searcher = library._open("searcher")
    assert searcher.reader.doc_frequency("text", "exalt") < postings.COMMON
    assert Stored(searcher.path).get("text", "exalt", True) is None


def test_without_the_files_search_reads_whoosh_and_ranks_the_same(library, tmp_path):
    from rulebase.search.searcher import Searcher

    searcher = library._open("searcher")
    copy = tmp_path / "whoosh"
    shutil.copytree(searcher.path, copy)
    (copy / postings.FILE).unlink()
    (copy / postings.TABLE).unlink()
    bare = Searcher(copy, None, searcher._vocabulary_file)  # (the same vocabulary: only the files differ)
    try:
        for query in ["damage prevention", "what happens if I draw from an empty library", '"mana burn"']:
            texts = lambda ids: {r.id: r for r in library.store.get_many(ids)}  # noqa: E731
            ours = searcher.search(query, {}, 20, texts=texts, current_first=True)
            theirs = bare.search(query, {}, 20, texts=texts, current_first=True)
            assert [(h.id, h.score) for h in ours.hits] == [(h.id, h.score) for h in theirs.hits], query
    finally:
        bare.close()
