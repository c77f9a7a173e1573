"""A passcode easy to guess, and why: too short, only digits, a common password, a row of keys (guessing.py).
What is left of a passcode once its common words and its runs of keys are taken out must still be a passcode.
"""

from ..guessing import left_over
from ..i18n.languages import gettext as _

STRONG_LENGTH, STRONG_VARIETY = 12, 6
LEFT_OVER = 6  # characters a passcode must hold besides common words and runs of keys


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
