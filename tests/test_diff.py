from hypothesis import given
from hypothesis import strategies as st

from rulebase.rules.diff import DiffOp, changed, merge_short_equals, similarity, tokens, word_diff


def test_replace_insert_and_equal_runs_carry_their_slices():
    assert word_diff("the cat sat", "the dog sat down") == [
        DiffOp("equal", "the ", "the "),
        DiffOp("replace", "cat ", "dog "),
        DiffOp("equal", "sat", "sat "),
        DiffOp("insert", "", "down"),
    ]


def test_delete():
    assert word_diff("Bury the card now", "Bury the card") == [
        DiffOp("equal", "Bury the card ", "Bury the card"),
        DiffOp("delete", "now", ""),
    ]


def test_whitespace_only_differences_are_equal():
    ops = word_diff("a  b\n\nc", "a b c")
    assert ops == [DiffOp("equal", "a  b\n\nc", "a b c")]
    assert not changed(ops)


def test_punctuation_is_part_of_the_word():
    assert word_diff("the game.", "the game") == [DiffOp("equal", "the ", "the "), DiffOp("replace", "game.", "game")]


def test_empty_and_blank_sides():
    assert word_diff("", "") == []
    assert word_diff("", "x y") == [DiffOp("insert", "", "x y")]
    assert word_diff("x", "") == [DiffOp("delete", "x", "")]
    assert word_diff("  ", "x") == [DiffOp("insert", "  ", "x")]
    assert word_diff(" ", "\n") == [DiffOp("equal", " ", "\n")]


def test_leading_whitespace_stays_with_the_first_run():
    assert word_diff("  a b", "a c") == [DiffOp("equal", "  a ", "a "), DiffOp("replace", "b", "c")]


def test_no_autojunk_on_long_texts():
    # difflib's autojunk would treat "the" (over 1% of 200+ words) as junk and split the match
    a = " ".join(["the word"] * 150)
    b = a + " extra"
    assert word_diff(a, b) == [DiffOp("equal", a, a + " "), DiffOp("insert", "", "extra")]


def test_tokens_and_similarity():
    assert tokens("  one two\nthree ") == (["one", "two", "three"], [0, 6, 10])
    assert similarity("a b c d", "a b c d") == 1.0
    assert similarity("", "") == 1.0
    assert similarity("a b", "c d") == 0.0
    assert similarity("a b c d", "a b x y") == 0.5


def test_merge_short_equals_absorbs_stray_common_words():
    ops = word_diff("The cat is on a mat today", "The dog sat on a rug yesterday and slept")
    assert [o.op for o in ops] == ["equal", "replace", "equal", "replace"]
    assert merge_short_equals(ops) == [
        DiffOp("equal", "The ", "The "),
        DiffOp("replace", "cat is on a mat today", "dog sat on a rug yesterday and slept"),
    ]
    kept = word_diff("one two three four five", "one two three FOUR five")
    assert merge_short_equals(kept) == kept  # the trailing 'five' is not between two changes
    assert merge_short_equals(word_diff("x a b y", "p a b q"), min_words=2) == word_diff("x a b y", "p a b q")
    assert merge_short_equals(word_diff("x a y", "a")) == [DiffOp("replace", "x a y", "a")]
    assert merge_short_equals(word_diff("a x b", "b")) == [DiffOp("delete", "a x ", ""), DiffOp("equal", "b", "b")]
    assert merge_short_equals([]) == []


@given(st.text(alphabet="ab \n", max_size=30), st.text(alphabet="abc \n", max_size=30))
def test_ops_rebuild_both_texts_exactly(a, b):
    for ops in (word_diff(a, b), merge_short_equals(word_diff(a, b))):
        check_ops(ops, a, b)


def check_ops(ops, a, b):
    assert "".join(op.a for op in ops) == a
    assert "".join(op.b for op in ops) == b
    for op in ops:
        assert op.op in ("equal", "insert", "delete", "replace")
        if op.op == "equal":
            assert op.a.split() == op.b.split()
        if op.op == "insert":
            assert not op.a.split()
        if op.op == "delete":
            assert not op.b.split()
    for first, second in zip(ops, ops[1:], strict=False):
        assert "equal" in (first.op, second.op)


def test_sentence_diff_reads_lists_as_sets_and_ignores_trade_marks():
    from rulebase.rules.diff import sentence_diff

    old = "The sets are:\n\n\u2022 Alpha \u2022 Beta\n\n\u2022 Gamma\n\nPlayers may draw a card at the start of their turn."
    new = "The sets are:\n\n\u2022 Beta\u2122 \u2022 Alpha\n\n\u2022 Delta\n\nPlayers may draw two cards at the start of their turn."
    got = sentence_diff(old, new)
    assert [(c.kind, c.old, c.new) for c in got] == [
        ("added", None, "Delta"),
        ("changed", "Players may draw a card at the start of their turn.",
         "Players may draw two cards at the start of their turn."),
        ("removed", "Gamma", None)]
    assert got[1].before == "Delta"  # the sentence before it in the new text
