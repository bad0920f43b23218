"""`glossary build` deletes only what it wrote (issue 35, item 12): its marker lists each file with
the SHA-256 of the bytes written, and a stale file is deleted only while it holds them. A marker
this tool did not write (hand-made or planted), or a file changed since, costs no file of the
user's; an output folder it cannot write is a one-line error, not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_glossary import hostile

from rulebase.core.errors import UsageError
from rulebase.glossary.output import MARKER_HEAD, OLD_HEADS
from rulebase.glossary.plan import MARKER, build_glossary

FORGED = OLD_HEADS[0] + "\nprecious.txt\nnotes/diary.md\n"


def test_a_forged_marker_never_costs_the_user_a_file(tmp_path):
    """The marker of issue 35.12 (a name alone under the old head): precious.txt was deleted."""
    out = tmp_path / "d"
    (out / "notes").mkdir(parents=True)
    (out / "precious.txt").write_text("x\n", encoding="utf-8")
    (out / "notes" / "diary.md").write_text("mine\n", encoding="utf-8")
    (out / MARKER).write_text(FORGED, encoding="utf-8")
    summary = build_glossary(*hostile(), out)
    assert (out / "precious.txt").read_text(encoding="utf-8") == "x\n"
    assert (out / "notes" / "diary.md").read_text(encoding="utf-8") == "mine\n"
    assert summary.kept == ("notes/diary.md", "precious.txt")
    lines = (out / MARKER).read_text(encoding="utf-8").splitlines()
    assert lines[0] == MARKER_HEAD and "precious.txt" not in " ".join(lines)


def test_a_forged_checksum_line_is_no_better(tmp_path):
    out = tmp_path / "d"
    out.mkdir()
    (out / "precious.txt").write_text("x\n", encoding="utf-8")
    (out / MARKER).write_text(f"{MARKER_HEAD}\n{'0' * 64}  precious.txt\n", encoding="utf-8")
    assert build_glossary(*hostile(), out).kept == ("precious.txt",)
    assert (out / "precious.txt").is_file()


def test_a_forged_marker_with_the_files_own_checksums_deletes_nothing(tmp_path):
    """A new-format marker naming precious.txt with its true SHA-256 (and a page-shaped file of the
    user's with its own) made `glossary build` delete them: the marker was not sealed, and it
    could name files the site never writes."""
    import hashlib

    out = tmp_path / "d"
    (out / "terms").mkdir(parents=True)
    mine = {"precious.txt": b"x\n", "terms/my-notes.html": b"<p>mine</p>\n"}
    for name, data in mine.items():
        (out / name).write_bytes(data)
    listed = "".join(f"{hashlib.sha256(data).hexdigest()}  {name}\n" for name, data in mine.items())
    (out / MARKER).write_text(f"{MARKER_HEAD}\n{listed}", encoding="utf-8")
    summary = build_glossary(*hostile(), out)
    assert all((out / name).read_bytes() == data for name, data in mine.items())
    assert summary.kept == ("precious.txt", "terms/my-notes.html")


def test_a_sealed_marker_never_names_a_file_outside_the_sites_own(tmp_path, monkeypatch):
    """Even a marker this user's rulebase sealed (its own seal, say for a name it was tricked into
    listing) deletes only names a site build writes."""
    import hashlib

    from rulebase.glossary import output

    out = tmp_path / "d"
    out.mkdir()
    (out / "precious.txt").write_bytes(b"x\n")
    output._write_marker(out, {"precious.txt": hashlib.sha256(b"x\n").hexdigest()})
    assert output.prepare(out, False) == {"precious.txt": hashlib.sha256(b"x\n").hexdigest()}  # sealed
    assert build_glossary(*hostile(), out).kept == ("precious.txt",)
    assert (out / "precious.txt").read_bytes() == b"x\n"
    assert "precious.txt" not in (out / MARKER).read_text(encoding="utf-8")


def test_own_stale_pages_go_and_changed_ones_stay(tmp_path):
    records, sources = hostile()
    out = tmp_path / "site"
    build_glossary(records, sources, out)
    pages = sorted(p.relative_to(out).as_posix() for p in (out / "terms").glob("*.html"))
    assert len(pages) >= 2
    edited, untouched = pages[0], pages[1]
    (out / edited).write_text("my notes on this page\n", encoding="utf-8")
    summary = build_glossary(records, sources, out, editions=["4e"])  # fewer pages: the others are stale
    assert not (out / untouched).exists()  # ours, as written: deleted
    assert (out / edited).read_text(encoding="utf-8") == "my notes on this page\n"
    assert summary.kept == (edited,)


def test_a_path_under_a_file_is_a_one_line_error(tmp_path):
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    with pytest.raises(UsageError) as err:
        build_glossary(*hostile(), tmp_path / "file.txt" / "sub")
    assert str(err.value) == (f"cannot write the glossary to {tmp_path / 'file.txt' / 'sub'} (Not a directory) - "
                              "choose a directory you can write, outside any file")


def test_a_read_only_output_folder_is_a_one_line_error(tmp_path):
    out = tmp_path / "ro"
    out.mkdir()
    env = {**os.environ, "NO_COLOR": "1"}
    code = ("import sys; from pathlib import Path; sys.path.insert(0, 'tests'); from test_glossary import hostile; "
            "from rulebase.cli.common import failure; from rulebase.glossary.plan import build_glossary\n"
            "try:\n    build_glossary(*hostile(), Path(sys.argv[1]))\nexcept Exception as exc:\n"
            "    lines, code = failure(exc); print(lines[0]); sys.exit(code)\n")
    out.chmod(0o555)
    try:
        as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
        tmp_path.chmod(0o755)
        result = subprocess.run([*as_nobody, sys.executable, "-c", code, str(out)], env=env, capture_output=True,
                                text=True, timeout=120, cwd=Path(__file__).resolve().parent.parent)
    finally:
        out.chmod(0o755)
    assert result.returncode == 2, result.stderr
    assert result.stdout == (f"error: cannot write the glossary to {out} (Permission denied) - choose a directory "
                             "you can write, outside any file\n")
