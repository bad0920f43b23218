"""Which language a query is in, and which of its words carry meaning.

The index holds English records (fields title/text/context) and Hungarian ones (title_hu/...).
Scored in every field, a Hungarian question's function words ("a", "mi", "hogy") match thousands
of English records and outweigh its one rare Hungarian word, and a Hungarian word missing from
the index gets "corrected" into an English one ("hány" -> "and"). So a query is first given a
language, from the letters it uses, the function words it has, and which of the two vocabularies
(the index's English and Hungarian fields) know its words; then its words are scored in that
language's fields, its function words are dropped, and a correction must come from its language.
A query with no clear language (a rule term both documents use, a number) keeps every field.
"""

from __future__ import annotations

from collections.abc import Callable

HU_LETTERS = frozenset("őű")  # only Hungarian, among the corpus's languages
ACCENTED = frozenset("áéíóöúü")
# Hungarian function and question words: they say "Hungarian" and carry no topic.
HU_FUNCTION = frozenset([
    "a", "az", "egy", "és", "es", "vagy", "hogy", "mi", "mit", "mik", "mikor", "miért", "miert",
    "hány", "hany", "hányat", "hol", "hova", "honnan", "ha", "van", "vannak", "nincs", "nem", "meg",
    "is", "de", "mint", "ez", "ezt", "azt", "ami", "amit", "amely", "amelyik", "aki", "akkor", "csak",
    "már", "mar", "még", "minden", "lesz", "volt", "kell", "kellett", "lehet", "ki", "kit", "kik",
    "milyen", "melyik", "hogyan", "mennyi", "mennyit", "mivel", "miben", "mire", "min", "után", "utan",
    "előtt", "elott", "alatt", "során", "soran", "között", "kozott", "fel", "le", "el", "be", "rá",
    "ra", "neki", "nekem", "én", "en", "te", "ő", "o", "ti", "ők", "ok", "engem", "téged", "enyém",
    "tied", "saját", "sajat", "szerint", "tehát", "tehat", "illetve", "azaz", "pedig", "sem", "se",
    "mert", "hanem", "ilyen", "olyan", "úgy", "ugy", "így", "igy", "itt", "ott", "most", "mindig",
    "soha", "sok", "kevés", "keves", "egyik", "másik", "masik", "történik", "tortenik", "kerül",
    "kerul",
])
# English function and question words: they say "English" and carry no topic.
EN_FUNCTION = frozenset([
    "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "from", "with", "without", "into",
    "onto", "is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "can",
    "could", "may", "might", "must", "shall", "should", "will", "would", "what", "which", "who",
    "whom", "whose", "when", "where", "why", "how", "happens", "happen", "if", "then", "than", "that",
    "this", "these", "those", "it", "its", "i", "me", "my", "you", "your", "we", "our", "they",
    "their", "he", "she", "his", "her", "them", "there", "here", "and", "or", "not", "no", "yes", "as",
    "so", "about", "much", "many", "any", "some", "doesn't", "can't", "say", "says", "said", "work",
    "works", "mean", "means", "explain", "question", "get", "gets", "just", "also", "really",
    "don't", "didn't", "won't", "isn't", "aren't", "wasn't", "weren't", "haven't",
    "hasn't", "wouldn't", "shouldn't", "couldn't",
    # (the same, typed without the apostrophe: "doesnt" was respelled "doesn", "cant" kept as a word)
    "doesnt", "cant", "dont", "didnt", "wont", "isnt", "arent", "wasnt", "werent", "havent", "hasnt",
    "wouldnt", "shouldnt", "couldnt",
    "under", "against", "versus", "vs", "stuff",
])
# ("under", "against", "versus": a question's prepositions of place and comparison set cards or
# rules side by side, "Urza's Saga under Blood Moon", "suspend versus cast". The rules say "under"
# in "under its owner's control", whose "control" carries the rule; scored, "under" listed every
# "puts it onto the battlefield under their control" above 305.7 for that question. "before",
# "after", "during" and "until" stay words: the rules' timing. Measured: the judged sets and the
# real questions level. "stuff" names nothing; read as a word, the six older texts that say it
# (the 4th Edition's "Other Cool Stuff") made "can I write stuff down during my match" a
# question about older rules.)
FUNCTION = {"hu": HU_FUNCTION, "en": EN_FUNCTION}
NAMES = {"hu": "Hungarian", "en": "English"}
# Light verbs: in a question they carry the sentence, not its rules topic ("the player who goes
# first", "made a token", "it went to the graveyard"), so they weigh as weak evidence (the
# searcher's WEAK_WEIGHT) rather than go: "goes to the graveyard" keeps a little of its say. ("get"
# and "gets" are function words.) Measured with the judged sets: MRR@10 0.925 -> 0.937, nDCG@10
# 0.740 -> 0.746; the real questions level. "have", "has" and "had" stay full words: weak, they
# ranked "Lifelink is a static ability" above 702.15b's "... if it has no controller, to gain that
# much life" for a story about lifelink, and brought six hits judged 0 or 1 into the top 10.
EN_LIGHT = frozenset(["got", "go", "goes", "went", "make", "makes", "made"])
HU_FIELDS = ("title_hu", "text_hu", "context_hu")
_IRREGULAR_ROWS = """
arise arose arisen; be was were been; bear bore borne; beat beat beaten; become became become;
begin began begun; bend bent bent; bid bid bid; bind bound bound; bite bit bitten; bleed bled bled;
blow blew blown; break broke broken; bring brought brought; build built built; burn burnt burnt;
buy bought bought; catch caught caught; choose chose chosen; cling clung clung; come came come;
creep crept crept; deal dealt dealt; dig dug dug; do did done; draw drew drawn; dream dreamt dreamt;
drink drank drunk; drive drove driven; eat ate eaten; fall fell fallen; feed fed fed; feel felt felt;
fight fought fought; find found found; flee fled fled; fling flung flung; fly flew flown;
forbid forbade forbidden; forget forgot forgotten; forgive forgave forgiven; freeze froze frozen;
get got gotten; give gave given; go went gone; grind ground ground; grow grew grown; hang hung hung;
hear heard heard; hide hid hidden; hold held held; keep kept kept; know knew known;
lay laid laid; lead led led; leap leapt leapt; leave left left; lend lent lent; lie lay lain;
lose lost lost; make made made; mean meant meant; meet met met; mistake mistook mistaken;
overcome overcame overcome; pay paid paid; prove proved proven; ride rode ridden; ring rang rung;
rise rose risen; run ran run; say said said; see saw seen; seek sought sought; sell sold sold;
send sent sent; shake shook shaken; shine shone shone; shoot shot shot; show showed shown;
shrink shrank shrunk; sing sang sung; sink sank sunk; sit sat sat; slay slew slain; sleep slept slept;
slide slid slid; speak spoke spoken; spend spent spent; spin spun spun; spring sprang sprung;
stand stood stood; steal stole stolen; stick stuck stuck; sting stung stung; strike struck struck;
strive strove striven; swear swore sworn; sweep swept swept; swim swam swum; swing swung swung;
take took taken; teach taught taught; tear tore torn; tell told told; think thought thought;
throw threw thrown; understand understood understood; undo undid undone; wake woke woken;
wear wore worn; weave wove woven; win won won; wind wound wound; withdraw withdrew withdrawn;
write wrote written
"""
# English irregular verbs: base, past, past participle. Snowball's stemmer leaves their forms
# apart ("drew" is not "draw", "forgot" not "forget"), and questions tell what happened: "I drew 8
# cards", "my opponent forgot a trigger", "they told me three cards".
_BASES = {row.split()[0] for row in _IRREGULAR_ROWS.split(";")}
_IRREGULAR = {form: row.split()[0] for row in _IRREGULAR_ROWS.split(";") for form in row.split()[1:]
              if form not in _BASES}  # ("lay" is lie's past and a base of its own: it is searched as typed)


def base_form(word: str) -> str | None:
    """An irregular verb form's base ("drew" -> "draw", "left" -> "leave"), the word being searched
    as either; None for any other word and for a function verb's ("had", "was")."""
    base = _IRREGULAR.get(word.lower())
    return base if base is not None and base not in EN_FUNCTION else None


def is_function(word: str, lang: str | None) -> bool:
    """Whether a word is a function word of the query's language (of either, for none)."""
    lowered = word.lower().replace("’", "'")
    return lowered in (FUNCTION[lang] if lang in FUNCTION else HU_FUNCTION | EN_FUNCTION)


def is_light(word: str) -> bool:
    """Whether a question's word is a light verb in any form ("went", "gone", "made")."""
    lowered = word.lower()
    return lowered in EN_LIGHT or _IRREGULAR.get(lowered) in EN_LIGHT


# Snowball's Hungarian stemmer leaves many verb forms whole ("támadhat", can attack: "tamadh"),
# so a question's verb misses the guide's "támadók" ("tamad"). A Hungarian token the index does
# not hold matches its longest prefix of at least this many letters that it does hold. Measured
# with the judged sets: Hungarian natural MRR@10 0.808 -> 0.825, all 0.937 -> 0.939, nDCG@10
# 0.746 -> 0.749; 3 letters brought in more unjudged hits, and no more gain.
HU_PREFIX_MIN = 4
# It also eats some words down to two letters ("indul", starts: "in"), which then match unrelated
# short words, such as the English "in" of the guide's gloss "Játékban (in play)": such a token
# from a word of this many letters or more is no evidence, unless the documents hold the word
# itself ("Zónák" is a heading of the guide, indexed as "zo"). Hungarian natural MRR@10 0.825 ->
# 0.875 (all 0.939 -> 0.947, nDCG@10 0.750 -> 0.755), no new unjudged hit.
HU_EATEN = 4
EN_FIELDS = ("title", "text", "context")


def _letters(word: str) -> set[str]:
    return set(word.lower())


def detect(words: list[str], known: Callable[[str, str], bool]) -> str | None:
    """"hu", "en" or None (no clear language). `known(lang, word)` says whether the index's
    fields of that language hold the word (as their analyzer reads it)."""
    hu = en = 0
    for word in words:
        lower = word.lower()
        letters = _letters(lower)
        if letters & HU_LETTERS:
            hu += 2
            continue
        in_hu, in_en = known("hu", word), known("en", word)
        if lower in HU_FUNCTION and lower not in EN_FUNCTION:
            hu += 1
        elif lower in EN_FUNCTION and lower not in HU_FUNCTION:
            en += 1
        elif letters & ACCENTED or in_hu and not in_en:
            hu += 1
        elif in_en and not in_hu:
            en += 1
    if hu > en:
        return "hu"
    if en > hu:
        return "en"
    return None


def content_words(words: list[str], lang: str | None) -> list[str]:
    """The words that carry the question: its language's function words dropped from a question
    of three words or more. A shorter query keeps them: in "ki kezd" (who starts) the "who" is
    half the question, and a search for "the" or "hogy" still searches for it."""
    if len(words) < 3:
        return words
    stop = FUNCTION.get(lang or "", frozenset())
    kept = [w for w in words if w.lower().replace("’", "'") not in stop]  # "don’t" as "don't"
    return kept or words


def hungarian_token(token: str, word: str, frequency: Callable[[str], int],
                    word_held: Callable[[], bool] = lambda: False) -> str | None:
    """A query word's Hungarian token as the index can match it: None when the stemmer ate the
    word (HU_EATEN) and no document holds the word as typed (`word_held`, asked only then); when
    `frequency` (its document count in the field) is 0, its longest prefix of HU_PREFIX_MIN
    letters or more that the field holds (the stem Snowball missed); else itself."""
    if len(token) <= 2 and len(word) >= HU_EATEN and not word_held():
        return None
    if frequency(token):
        return token
    return next((token[:end] for end in range(len(token) - 1, HU_PREFIX_MIN - 1, -1) if frequency(token[:end])),
                token)


def fields_for(lang: str | None, fields: dict[str, float]) -> dict[str, float]:
    """The text fields a query's words are scored in."""
    if lang == "hu":
        return {f: b for f, b in fields.items() if f in HU_FIELDS}
    if lang == "en":
        return {f: b for f, b in fields.items() if f in EN_FIELDS}
    return fields
