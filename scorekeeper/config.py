"""The host's settings, and the one error that stops the app before it serves anything.

Every setting has one name, the same in the environment and in the data folder's
settings file (``settings.env``: NAME=value lines), which the server and every
``scorekeeper`` command read alike. The environment wins over the file; both win
over the defaults below.
"""

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .guessing import left_over, unforeseen
from .i18n.languages import gettext as _

SETTINGS_FILE = "settings.env"
IMPORT_MAX = 64 * 1024 * 1024  # the largest body taken: a large club's whole history exports to about 45 MB
THREADS = 8  # the threads that run the app (reading and writing the network is the server's main thread)


class StartupError(Exception):
    """A setting, the data folder or the database keeps the app from starting.

    The message is one line for the host: what is wrong, where, and what to do.
    The ``scorekeeper`` command prints it and exits non-zero, without a traceback.
    """


def database_url(url: str) -> str:
    """Accept the ``postgres://`` URLs hosts hand out, and use psycopg 3 for them.

    >>> database_url("postgres://u:p@db/hearts")
    'postgresql+psycopg://u:p@db/hearts'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def proxy_count(setting: str) -> int:
    """How many proxies in front to trust: a number from 0 to 9, or on (one) or off (none); anything else is refused.

    >>> proxy_count("2"), proxy_count("yes"), proxy_count("0"), proxy_count("off"), proxy_count("")
    (2, 1, 0, 0, 0)
    """
    if setting.isascii() and setting.isdigit() and int(setting) < 10:
        return int(setting)
    try:
        return int(switch(setting))
    except ValueError:
        raise ValueError(_("the number of proxies in front (1 for one), or off (0)")) from None


def switch(value: str) -> bool:
    """On or off; empty is off.

    >>> switch("1"), switch("Yes"), switch("off"), switch("")
    (True, True, False, False)
    """
    if value.lower() in ("1", "yes", "true", "on"):
        return True
    if value.lower() in ("", "0", "no", "false", "off"):
        return False
    raise ValueError(_("on or off: 1 or 0"))


def groups_setting(value: str) -> bool:
    """Whether the server is open to many groups: ``open``, or ``one`` (the server is one group's).

    >>> groups_setting("open"), groups_setting("One")
    (True, False)
    """
    if value.lower() in ("open", "one"):
        return value.lower() == "open"
    raise ValueError(_("open (many groups, each at its own address) or one (the server is one group's)"))


def whole_number(low: int, high: int) -> Callable[[str], int]:
    def read(value: str) -> int:
        if not (value.isascii() and value.isdigit() and low <= int(value) <= high):
            raise ValueError(_("a whole number from %(low)d to %(high)d", low=low, high=high))
        return int(value)

    return read


SECRET_KEY_MIN = 32  # characters: the key signs every phone's session, and a passcode's proof in it
# Characters no pattern foretells (guessing.unforeseen), and left once common words and rows of keys are taken out
# (guessing.left_over): 32 random hex digits have fewer about 4 times in 100,000 keys, 64 (the refusal's way) never.
SECRET_KEY_UNFORESEEN = 16


def secret_key(value: str) -> str:
    """A SECRET_KEY the host chose, if no one could guess it: as long as the one the app makes itself, or longer,
    and not a pattern (a run, a repeat, a word repeated, a row of keys, a common password).

    >>> secret_key("amber kettle orbit walrus 2026 ferry")
    'amber kettle orbit walrus 2026 ferry'
    >>> secret_key("x" * 64)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: at least 32 characters long, 16 of them following no pattern ...
    """
    guessed = min(unforeseen(value), len(left_over(value)))
    if len(value) < SECRET_KEY_MIN or guessed < SECRET_KEY_UNFORESEEN:
        raise ValueError(
            _(
                "at least %(least)d characters long, %(unforeseen)d of them following no pattern (no run such "
                "as 0123, abcd, qwerty or a1b2c3, no repeat, no word repeated, no common password, no words of a "
                "template's key such as your-secret-key-here), so that no one could guess it: make one with "
                '`python3 -c "import secrets; print(secrets.token_hex(32))"`, or leave SECRET_KEY out and the '
                "app makes its own",
                least=SECRET_KEY_MIN,
                unforeseen=SECRET_KEY_UNFORESEEN,
            )
        )
    return value


@dataclass(frozen=True)
class Setting:
    name: str  # in the environment and the settings file
    key: str  # in app.config
    default: object
    read: Callable[[str], object] = str


SETTINGS = (
    Setting("DATABASE_URL", "SQLALCHEMY_DATABASE_URI", "sqlite:///scorekeeper.sqlite", database_url),
    Setting("SECRET_KEY", "SECRET_KEY", None, secret_key),  # None: made once and kept in the data folder
    Setting("SCOREKEEPER_PASSCODE", "PASSCODE", ""),
    Setting("SCOREKEEPER_BEHIND_PROXY", "BEHIND_PROXY", 0, proxy_count),
    Setting("SCOREKEEPER_FORWARDED_HOST", "FORWARDED_HOST", False, switch),
    Setting("SCOREKEEPER_HOSTS", "HOSTS", ""),
    Setting("SCOREKEEPER_GROUPS", "GROUPS_OPEN", False, groups_setting),
    Setting("MAX_CONTENT_LENGTH", "MAX_CONTENT_LENGTH", IMPORT_MAX, whole_number(1024, 2**40)),
    Setting("BIND", "BIND", "0.0.0.0:5000"),
    Setting("THREADS", "THREADS", THREADS, whole_number(1, 256)),
)
NAMES = {setting.name: setting for setting in SETTINGS}


def settings(instance: Path, environ: Mapping[str, str]) -> dict[str, object]:
    """Every setting as app.config keys: the defaults, then the settings file, then the environment.

    ``GIVEN``: where the host gave each setting it gave, by name ("in the environment", a line of the file).
    """
    given = dict(settings_file(instance))
    given.update({name: (environ[name], _("in the environment")) for name in NAMES if environ.get(name)})
    chosen: dict[str, object] = {setting.key: setting.default for setting in SETTINGS}
    chosen["GIVEN"] = {name: where for name, (_value, where) in given.items()}
    for name, (value, where) in given.items():
        try:
            chosen[NAMES[name].key] = NAMES[name].read(value)
        except ValueError as wrong:
            wanted = _("%(name)s %(where)s must be %(wanted)s.", name=name, where=where, wanted=wrong)
            raise StartupError(wanted) from None
    return chosen


def settings_file(instance: Path) -> dict[str, tuple[str, str]]:
    """The NAME=value lines of the data folder's settings file (none when there is none), each with its place."""
    path = instance / SETTINGS_FILE
    if (instance / "config.py").exists():
        raise StartupError(_("%(old)s is no longer read: write its settings in %(path)s as NAME=value lines "
                             "(PASSCODE is SCOREKEEPER_PASSCODE there), then delete config.py.",
                             old=instance / "config.py", path=path))  # fmt: skip
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark, as some editors write, is no setting
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as failed:
        unreadable = _("Cannot read the settings file %(path)s (%(failed)s).", path=path, failed=failed)
        raise StartupError(unreadable) from None
    if os.name == "posix" and path.stat().st_mode & 0o077:
        raise StartupError(_("%(path)s can be read by other users of this machine, and it may hold the passcode: "
                             "make it yours alone with `chmod 600 %(path)s`.", path=path))  # fmt: skip
    found = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = (part.strip() for part in line.removeprefix("export ").partition("="))
        where = _("in %(path)s line %(number)d", path=path, number=number)
        if not equals or not name:
            raise StartupError(_("%(path)s line %(number)d is not a NAME=value line.", path=path, number=number))
        if name not in NAMES:
            raise StartupError(_("%(path)s line %(number)d: there is no setting %(name)s; the settings are %(names)s.",
                                 path=path, number=number, name=repr(name[:40]), names=", ".join(NAMES)))  # fmt: skip
        found[name] = (setting_value(value, where), where)
    return found


def setting_value(value: str, where: str) -> str:
    """A line's value, quotes taken off; a `` #`` in a value without quotes is refused, not taken as a comment.

    systemd reads ``NAME=a b # c`` as the value ``a b # c`` and a shell as ``a b``: rather than guess
    which one the host meant (a passcode one character off locks the table out), the host says.

    >>> setting_value("'four words # and more'", "here"), setting_value("a#b", "here")
    ('four words # and more', 'a#b')
    """
    bare = unquoted(value)
    if bare == value and any(mark in value for mark in (" #", "\t#")):
        raise StartupError(_("%(where)s: a value with “ #” in it is ambiguous (a comment, or part of the value?): "
                             "put a comment on a line of its own, or the value in quotes.", where=where))  # fmt: skip
    return bare


def unquoted(value: str) -> str:
    """A value as systemd's EnvironmentFile reads it: one pair of surrounding quotes taken off.

    >>> unquoted('"a b"'), unquoted("'x'"), unquoted("plain")
    ('a b', 'x', 'plain')
    """
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def database_name(uri: str, instance: str) -> str:
    """The database as a host reads it: a SQLite file's full path, a server's URL without its password.

    >>> database_name("sqlite:///scorekeeper.sqlite", "/srv/hearts")
    '/srv/hearts/scorekeeper.sqlite'
    >>> database_name("postgresql+psycopg://ann:secret@db/hearts", "/srv/hearts")
    'postgresql+psycopg://ann:***@db/hearts'
    """
    try:
        url = make_url(uri)
    except ArgumentError:
        raise StartupError(_("DATABASE_URL is not a database URL: write it as postgresql://USER:PASSWORD@HOST/NAME "
                             "(or leave it out for the SQLite file in the data folder).")) from None  # fmt: skip
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return str(Path(instance, url.database))  # Flask-SQLAlchemy reads a relative file in the data folder
    return url.render_as_string(hide_password=True)
