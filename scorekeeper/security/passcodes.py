"""A passcode easy to guess, and why: too short, only digits, a common password, a row of keys.

Every guessing list starts with the same few hundred passwords, and with the
rows of a keyboard; ``password1234`` and ``qwertyuiop12`` are long enough and
still fall at once. What is left of a passcode once its common words and its
runs of keys are taken out must still be a passcode.
"""

from ..i18n.languages import gettext as _

STRONG_LENGTH, STRONG_VARIETY = 12, 6
LEFT_OVER = 6  # characters a passcode must hold besides common words and runs of keys
# The words guessing lists try first, in English and German (casefolded, letters and digits only).
COMMON_WORDS = (
    "password", "passwort", "passcode", "kennwort", "letmein", "welcome", "willkommen", "iloveyou", "ichliebedich",
    "administrator", "admin", "login", "master", "secret", "geheim", "hello", "hallo", "monkey", "dragon",
    "football", "fussball", "baseball", "soccer", "sunshine", "princess", "shadow", "superman", "batman", "trustno",
    "whatever", "freedom", "starwars", "pokemon", "changeme", "default", "guest", "test", "summer", "sommer",
    "winter", "spring", "autumn", "herbst", "qwerty", "qwertz", "azerty",
)  # fmt: skip
# Runs a finger or an alphabet makes: keyboard rows (QWERTY, QWERTZ, AZERTY), digits, letters; either way.
ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm", "qwertzuiop", "yxcvbnm", "azertyuiop", "qsdfghjklm",
        "wxcvbn", "abcdefghijklmnopqrstuvwxyz")  # fmt: skip
RUN = 3  # keys in a row that count as a run


def passcode_problem(code: str) -> str | None:
    """Why a passcode is too easy to guess, in a sentence for the host; None for none set or a strong one.

    >>> [passcode_problem(code) is None for code in ("", "1234", "spades", "000000000000000", "queen of spades")]
    [True, False, False, False, True]
    >>> [passcode_problem(code) is None for code in ("password1234", "qwertyuiop12", "Sommer2024!!!", "abcdefghijkl")]
    [False, False, False, False]
    """
    if not code:
        return None
    digits = code.replace(" ", "").isdigit()
    if len(code.strip()) < STRONG_LENGTH or digits or len(set(code.casefold())) < STRONG_VARIETY:
        return weak()
    if len(left_over(code)) < LEFT_OVER:
        return weak()
    return None


def weak() -> str:
    return _("The passcode (SCOREKEEPER_PASSCODE, in the environment or the data folder's settings.env) is too easy "
             "to guess: choose one of at least %(length)d characters, not only digits, with %(variety)d different "
             "ones or more, and no common password or row of keys (password, qwerty, 1234) in it; four words the "
             "table will remember, in an order of your own, do. Then start again.",
             length=STRONG_LENGTH, variety=STRONG_VARIETY)  # fmt: skip


def left_over(code: str) -> str:
    """The passcode's letters and digits without its common words, runs of keys and repeated characters.

    >>> left_over("Password-1234 x"), left_over("qwertyuiop12"), left_over("four words nobody guesses")
    ('x', '12', 'fourwordsnobodyguesses')
    """
    text = "".join(char for char in code.casefold() if char.isalnum())
    for word in sorted(COMMON_WORDS, key=len, reverse=True):
        text = text.replace(word, " ")
    kept, start = [], 0
    while start < len(text):
        end = run_end(text, start)
        if end - start < RUN:
            kept.append(text[start:end])
        start = end
    return "".join(kept).replace(" ", "")


def run_end(text: str, start: int) -> int:
    """Where the run of keys, letters, digits or one repeated character that starts at ``start`` ends."""
    end = start + 1
    while end < len(text) and is_run(text[start : end + 1]):
        end += 1
    return end


def is_run(text: str) -> bool:
    """One character over and over, or a stretch of one row, either way.

    >>> is_run("aaa"), is_run("uiop"), is_run("4321"), is_run("ghk")
    (True, True, True, False)
    """
    return len(set(text)) == 1 or any(text in row or text in row[::-1] for row in ROWS)
