"""`rulebase add` of a tournament document's release: dated by its own text, it joins that
document's timeline as a Comprehensive Rules release joins the archive's.

The fixtures are the MTR of 2025-11-10 and the JAR of 2024-09-23 as text copied from their PDFs
(the lines of the archive's PDF-converted HTML in reading order, page numbers included). The MTR
copy stands for the next release: its date line reads 'Effective February 27, 2026' and one
sentence of 2.2 reads 'their opening hand' (the only two changes), so that it is newer than every
release of the MTR the archive holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
NEXT = FIXTURES / "tournament-mtr-next.txt"
JAR = FIXTURES / "tournament-jar-2024-09-23.txt"


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, str]:
    """A corpus of the five tournament documents alone (the tarball and their [[source]]s)."""
    import shutil

    root = tmp_path_factory.mktemp("tournament")
    corpus = root / "corpus"
    corpus.mkdir()
    shutil.copy(ROOT / "corpus" / "tournament-rules-2013-2025.tar.xz", corpus)
    manifest = (ROOT / "corpus" / "sources.toml").read_text(encoding="utf-8")
    blocks = [b for b in manifest.split("[[source]]")[1:] if 'format = "tournament-archive"' in b]
    (corpus / "sources.toml").write_text("".join("[[source]]" + b for b in blocks), encoding="utf-8")
    out = {k: v for k, v in os.environ.items() if k != "RULEBASE_INDEX"}
    out.update(RULEBASE_CORPUS=str(corpus), RULEBASE_INDEX=str(root / "index"), NO_COLOR="1",
               RULEBASE_USER_CORPUS=str(root / "users"))
    return out


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebase", *args], env=env, capture_output=True, text=True,
                          timeout=900)


def _lookup(env, ref: str, *more: str) -> dict:
    done = run(env, "lookup", ref, "--json", *more)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # (the first match; the others under "also")


def test_a_newer_release_joins_its_documents_timeline(env):
    before, other = _lookup(env, "MTR 2.2"), _lookup(env, "MTR 2.1")
    assert before["id"].startswith("mtr:2.2@") and before["span"][1] == "2025-11-10"
    added = run(env, "add", str(NEXT))
    assert added.returncode == 0, added.stderr
    assert "mtr2026" in added.stdout and "2026-02-27" in added.stdout
    now = _lookup(env, "MTR 2.2")
    assert now["id"] == "mtr:2.2@2026-02-27" and "looking at their opening hand" in now["text"]
    assert _lookup(env, "MTR 2.2", "--as-of", "2026-01-31")["id"] == before["id"]
    assert _lookup(env, "MTR 2.1")["id"] == other["id"]  # unchanged (the same words): the same version goes on
    shown = run(env, "history", "MTR 2.2")
    assert shown.returncode == 0, shown.stderr
    last = shown.stdout.split("\n  2026-02-27 to now", 1)[1]
    assert "{+opening+}" in last.split("\n  ", 2)[1]
    changed = json.loads(run(env, "changes", "--source", "mtr", "--from", "2026-01", "--to", "2026-03", "--json").stdout)
    assert (changed["from"], changed["to"]) == ("2025-11-10", "2026-02-27")
    assert [c["new_number"] for c in changed["changes"] if c["kind"] == "changed"] == ["2.2"]
    sources = {s["id"]: s for s in json.loads(run(env, "sources", "--json").stdout)}
    assert sources["mtr2026"]["records"] == 0 and "joined mtr's timeline" in sources["mtr2026"]["notes"][0]
    removed = run(env, "remove", "mtr2026")
    assert removed.returncode == 0, removed.stderr
    assert _lookup(env, "MTR 2.2")["id"] == before["id"]


def test_a_release_dated_like_one_held_with_other_text_is_kept_apart(env):
    """an added release dated like a bundled one was merged into it (`~printing2`
    sections served as the bundled document's, in force now). A copy with other text (this one:
    page numbers among its lines) is now the user's own document: the bundled text is untouched."""
    before = _lookup(env, "JAR common issues")
    added = run(env, "add", str(JAR))
    assert added.returncode == 0, added.stderr
    sources = {s["id"]: s for s in json.loads(run(env, "sources", "--json").stdout)}
    jar, mine = sources["jar"], next(k for k in sources if k.startswith("jar2024"))
    assert len(jar["meta"]["releases"]) == 5 and not any("another printing" in n for n in jar["notes"])
    assert sources[mine]["records"] > 0 and "kept apart as your own document" in sources[mine]["notes"][0]
    after = _lookup(env, "JAR common issues")
    assert (after["id"], after["text"]) == (before["id"], before["text"])
    assert "~printing" not in run(env, "lookup", "JAR common issues", "--full").stdout
    assert run(env, "remove", mine).returncode == 0


def test_a_release_held_re_added_is_refused(env, tmp_path):
    """The archive's own file of a release, as UTF-16 with trailing spaces: the same release."""
    import tarfile

    with tarfile.open(ROOT / "corpus" / "tournament-rules-2013-2025.tar.xz", "r:xz") as tar:
        member = next(m for m in tar.getmembers() if m.isfile() and "/jar" in m.name.lower()
                      and m.name.endswith((".md", ".txt", ".html")))
        data = tar.extractfile(member).read()
    doc = tmp_path / ("copy" + Path(member.name).suffix)
    doc.write_bytes(data.decode("utf-8").replace("\n", "  \n").encode("utf-16"))
    done = run(env, "add", str(doc))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: {doc} is already in the corpus as 'jar' (its release {Path(member.name).name})\n"


def test_a_date_that_does_not_exist_is_a_usage_error(env, tmp_path):
    bad = tmp_path / "mtr-bad.txt"
    bad.write_text(NEXT.read_text(encoding="utf-8").replace("February 27, 2026", "February 30, 2026"),
                   encoding="utf-8")
    done = run(env, "add", str(bad))
    assert done.returncode == 2
    assert "line 2: 'Effective February 30, 2026' is not a real date" in done.stderr
    assert "Traceback" not in done.stderr
