"""What makes a secret easy to guess, for the passcodes (security/passcodes.py) and the secret key (config.py):
the words every guessing list tries first, the rows of a keyboard, and runs and repeats.

Every guessing list starts with the same few hundred passwords, and with the rows of a keyboard; ``password1234``
and ``qwertyuiop12`` are long enough and still fall at once. What is left of a secret once its common words and its
runs of keys are taken out (``left_over``), and how much of it no pattern foretells (``unforeseen``), is what a
guesser has to find.
"""

# The words guessing lists try first, in English and German (casefolded, letters and digits only).
COMMON_WORDS = (
    "password", "passwort", "passcode", "kennwort", "letmein", "welcome", "willkommen", "iloveyou", "ichliebedich",
    "administrator", "admin", "login", "master", "secret", "geheim", "hello", "hallo", "monkey", "dragon",
    "football", "fussball", "baseball", "soccer", "sunshine", "princess", "shadow", "superman", "batman", "trustno",
    "whatever", "freedom", "starwars", "pokemon", "changeme", "default", "guest", "test", "summer", "sommer",
    "winter", "spring", "autumn", "herbst", "qwerty", "qwertz", "azerty", "correcthorsebatterystaple",
    "hearts", "herzen", "scorekeeper",  # this app's own words
    # The words of the keys that templates and tutorials leave to be replaced, which guessers' lists hold whole
    "your", "here", "replace", "change", "please", "insecure", "unsafe", "testing", "only", "development", "prod",
    "production", "random", "string", "long", "example", "sample", "dummy", "placeholder", "super", "this", "with",
    "not", "use", "for", "key", "token", "session", "private", "flask", "django", "generate", "put", "insert", "fake",
    "thequickbrownfoxjumpsoverthelazydog",
)  # fmt: skip
# Runs a finger or an alphabet makes: keyboard rows (QWERTY, QWERTZ, AZERTY), digits, letters; either way.
ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm", "qwertzuiop", "yxcvbnm", "azertyuiop", "qsdfghjklm",
        "wxcvbn", "abcdefghijklmnopqrstuvwxyz")  # fmt: skip
RUN = 3  # keys in a row that count as a run


def unforeseen(value: str) -> int:
    """How many characters of a key the ones before it do not foretell: a run (up, down or by steps, or two runs
    woven together, a1b2c3), a repeat, or a piece of three seen before (a word repeated, all of it) foretells them.

    >>> unforeseen("0123456789abcdef0123456789abcdef"), unforeseen("changeme-changeme-changeme-changeme")
    (2, 9)
    >>> unforeseen("correct horse battery staple 2026"), unforeseen("a1b2c3d4e5f6a7b8c9d0")
    (28, 7)
    """
    codes = [ord(char) for char in value]
    seen = {at + i for at in range(1, len(value) - 2) if value[at : at + 3] in value[: at + 2] for i in range(3)}
    count = 0
    for at, code in enumerate(codes):
        step = code - codes[at - 1] if at else 2
        if abs(step) <= 1 or (at >= 2 and step == codes[at - 1] - codes[at - 2]) or at in seen:
            continue
        woven = code - codes[at - 2] if at >= 4 else 2
        if abs(woven) <= 1 and woven == codes[at - 2] - codes[at - 4]:
            continue
        count += 1
    return count


def left_over(code: str) -> str:
    """A secret's letters and digits without its common words, runs of keys and repeated characters.

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
