import pytest

from rulebase.core.errors import SourceError
from rulebase.ingest.text import decode, read_source


def test_bom_crlf_and_bare_cr_become_lf():
    decoded = decode(b"\xef\xbb\xbfa\r\nb\rc\n", "f.txt")
    assert decoded.text == "a\nb\nc\n"
    assert decoded.encoding == "utf-8"
    assert decoded.repairs == ["removed UTF-8 byte-order mark", "converted 1 CRLF line endings",
                               "converted 1 bare CR line endings"]


def test_cp1252_fallback_for_legacy_bytes():
    decoded = decode("Dan\u2019s \u201cquote\u201d".encode("cp1252"), "f.txt")
    assert decoded.encoding == "cp1252"
    assert decoded.text == "Dan\u2019s \u201cquote\u201d"


def test_utf16_with_bom():
    assert decode("Könyvtár".encode("utf-16"), "f.txt").text == "Könyvtár"


def test_empty_file_is_a_clear_error():
    with pytest.raises(SourceError) as err:
        decode(b"  \n", "corpus/x.txt")
    assert err.value.message == "corpus/x.txt: file is empty - restore the file or remove it from sources.toml"


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "bin.txt"
    path.write_bytes(b"abc\x00def")
    with pytest.raises(SourceError, match="NUL bytes"):
        read_source(path)


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(SourceError, match="file not found"):
        read_source(tmp_path / "nope.txt")
