"""Players' names: what a name must show, and when two names at one table look the same.

A name is read off a phone at the table, so it must show something, on one
line, and two players must not look alike: ``Ann`` and ``Аnn`` (a Cyrillic А),
``Ａnn`` (fullwidth) or ``Ann`` with an invisible mark are two players called
Ann. Invisible characters stay possible where writing needs them: the joiners
of emoji families (👩‍👩‍👧) and of Persian or Hindi words.
"""

import unicodedata

from .i18n import _

MAX_MARKS = 3  # marks on one letter: Thai, Hebrew with its points, a keycap emoji; not a tower of 24
ZWNJ, ZWJ = "\u200c", "\u200d"
BLACK_FLAG, CANCEL_TAG = "\U0001f3f4", "\U000e007f"
BLANK_SYMBOLS = {"\u2800"}  # the blank Braille pattern: a symbol that shows nothing
JOINING_SCRIPTS = ("ARABIC", "SYRIAC", "NKO", "MONGOLIAN")  # names of letters that ZWNJ and ZWJ shape
# Unicode's default-ignorable code points: drawn as nothing when not understood (the Hangul fillers too).
IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
# Cyrillic and Greek letters drawn like Latin ones (from Unicode's confusables), before case folding.
LOOK_ALIKES = str.maketrans(
    "АВЕЅІЈКМНОРСТХУаеѕіјорсухһԁԛԝүӏΑΒΕΖΗΙΚΜΝΟΡΤΥΧοικνρυχ",
    "ABESIJKMHOPCTXYaesijopcyxhdqwylABEZHIKMNOPTYXoikvpux",
)


def is_ignorable(char: str) -> bool:
    """True for a character drawn as nothing, such as a zero-width space or a variation selector.

    >>> [is_ignorable(char) for char in ("a", "\u200b", "\u034f", "\ufe0f", "\u3164", " ")]
    [False, True, True, True, True, False]
    """
    point = ord(char)
    return any(low <= point <= high for low, high in IGNORABLE)


def skeleton(name: str) -> str:
    """What a name looks like, for telling names apart: width, case, invisible marks and script set aside.

    >>> {skeleton(name) for name in ("Ann", "\u0410nn", "\uff21nn", "An\u034fn", "ANN", "Ann\ufe0f")}
    {'ann'}
    >>> skeleton("Zoë") == skeleton("Zoe")
    False
    """
    folded = unicodedata.normalize("NFKC", name).translate(LOOK_ALIKES).casefold()
    return unicodedata.normalize("NFC", "".join(char for char in folded if not is_ignorable(char))).strip()


def name_problem(name: str, seat: int) -> str | None:
    """What keeps player ``seat``'s name (trimmed, NFC) from showing as itself, in a sentence; None for nothing.

    >>> [name_problem(name, 1) is None for name in ("Ann", "👩\u200d👩\u200d👧", "می\u200cخواهم")]
    [True, True, True]
    >>> name_problem("\u3164", 2)
    "Player 2's name shows nothing: type letters, digits or emoji."
    """
    if has_hidden_characters(name):
        return _("Player %(seat)d's name has an invisible or control character: type it again.", seat=seat)
    if any(unicodedata.category(char) in ("Zl", "Zp") for char in name):
        return _("Player %(seat)d's name is on two lines: keep it on one.", seat=seat)
    if not any(shows(char) for char in name):
        return _("Player %(seat)d's name shows nothing: type letters, digits or emoji.", seat=seat)
    marks = most_marks(name)
    if marks > MAX_MARKS:
        return _("Player %(seat)d's name has %(marks)d marks on one letter: %(most)d at most.",
                 seat=seat, marks=marks, most=MAX_MARKS)  # fmt: skip
    return None


def shows(char: str) -> bool:
    """True for a character that draws something: a letter, a digit, a symbol, a punctuation mark."""
    return unicodedata.category(char)[0] in "LNPS" and not is_ignorable(char) and char not in BLANK_SYMBOLS


def has_hidden_characters(name: str) -> bool:
    r"""Control, format (bidi overrides, zero-width) and unpaired surrogate characters, but the joiners writing needs.

    >>> [has_hidden_characters(name) for name in ("Ann", "An\u200bn", "\u202eAnn", "\ud800", "A\x00", "An\u200dn")]
    [False, True, True, True, True, True]
    >>> [has_hidden_characters(name) for name in ("👩\u200d👧", "क्\u200dष", "🏴\U000e0067\U000e0062\U000e007f")]
    [False, False, False]
    """
    for at, char in enumerate(name):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs") or (category == "Cf" and not joins(name, at) and not in_flag(name, at)):
            return True
    return False


def joins(name: str, at: int) -> bool:
    """A ZWJ or ZWNJ between the two things it joins: emoji, or letters of a script that needs it."""
    if name[at] not in (ZWJ, ZWNJ) or not 0 < at < len(name) - 1:
        return False
    before, after = name[at - 1], name[at + 1]
    if name[at] == ZWJ and unicodedata.category(after) == "So" and (before == "\ufe0f" or is_emoji_part(before)):
        return True
    letters = unicodedata.category(after)[0] in "LM"
    return letters and (unicodedata.combining(before) == 9 or script_of(before) in JOINING_SCRIPTS)


def is_emoji_part(char: str) -> bool:
    """An emoji, or a skin tone that ends one (an emoji modifier)."""
    return unicodedata.category(char) == "So" or "\U0001f3fb" <= char <= "\U0001f3ff"


def script_of(char: str) -> str:
    return unicodedata.name(char, "").split(" ")[0]


def in_flag(name: str, at: int) -> bool:
    """A tag character of a flag such as Scotland's: the black flag, then tags up to the cancel tag."""
    start = at
    while start > 0 and "\U000e0020" <= name[start - 1] <= CANCEL_TAG:
        start -= 1
    return "\U000e0020" <= name[at] <= CANCEL_TAG and start > 0 and name[start - 1] == BLACK_FLAG


def most_marks(name: str) -> int:
    """The most combining marks in a row, as stacked on one letter.

    >>> most_marks("Zoë"), most_marks("e" + "\u0301" * 24), most_marks("ญี่")
    (0, 24, 2)
    """
    most = run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char) in ("Mn", "Me") else 0
        most = max(most, run)
    return most
