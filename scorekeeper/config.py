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
    """How many proxies in front to trust: the setting's number, 1 for any other value such as "1" or "yes".

    >>> proxy_count("2"), proxy_count("yes")
    (2, 1)
    """
    return int(setting) if setting.isascii() and setting.isdigit() and 0 < int(setting) < 10 else 1


def switch(value: str) -> bool:
    """
    >>> switch("1"), switch("Yes"), switch("off")
    (True, True, False)
    """
    if value.lower() in ("1", "yes", "true", "on"):
        return True
    if value.lower() in ("0", "no", "false", "off"):
        return False
    raise ValueError("on or off: 1 or 0")


def whole_number(low: int, high: int) -> Callable[[str], int]:
    def read(value: str) -> int:
        if not (value.isascii() and value.isdigit() and low <= int(value) <= high):
            raise ValueError(f"a whole number from {low} to {high}")
        return int(value)

    return read


@dataclass(frozen=True)
class Setting:
    name: str  # in the environment and the settings file
    key: str  # in app.config
    default: object
    read: Callable[[str], object] = str


SETTINGS = (
    Setting("DATABASE_URL", "SQLALCHEMY_DATABASE_URI", "sqlite:///scorekeeper.sqlite", database_url),
    Setting("SECRET_KEY", "SECRET_KEY", None),  # None: made once and kept in the data folder
    Setting("SCOREKEEPER_PASSCODE", "PASSCODE", ""),
    Setting("SCOREKEEPER_BEHIND_PROXY", "BEHIND_PROXY", 0, proxy_count),
    Setting("SCOREKEEPER_FORWARDED_HOST", "FORWARDED_HOST", False, switch),
    Setting("SCOREKEEPER_HOSTS", "HOSTS", ""),
    Setting("MAX_CONTENT_LENGTH", "MAX_CONTENT_LENGTH", IMPORT_MAX, whole_number(1024, 2**40)),
    Setting("BIND", "BIND", "0.0.0.0:5000"),
    Setting("THREADS", "THREADS", THREADS, whole_number(1, 256)),
)
NAMES = {setting.name: setting for setting in SETTINGS}


def settings(instance: Path, environ: Mapping[str, str]) -> dict[str, object]:
    """Every setting as app.config keys: the defaults, then the settings file, then the environment."""
    given = {name: (value, f"in {where}") for name, (value, where) in settings_file(instance).items()}
    given.update({name: (environ[name], "in the environment") for name in NAMES if environ.get(name)})
    chosen = {setting.key: setting.default for setting in SETTINGS}
    for name, (value, where) in given.items():
        try:
            chosen[NAMES[name].key] = NAMES[name].read(value)
        except ValueError as wrong:
            raise StartupError(f"{name} {where} must be {wrong}.") from None
    return chosen


def settings_file(instance: Path) -> dict[str, tuple[str, str]]:
    """The NAME=value lines of the data folder's settings file (none when there is none), each with its place."""
    path = instance / SETTINGS_FILE
    if (instance / "config.py").exists():
        raise StartupError(f"{instance / 'config.py'} is no longer read: write its settings in {path} as NAME=value "
                           "lines (PASSCODE is SCOREKEEPER_PASSCODE there), then delete config.py.")  # fmt: skip
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as failed:
        raise StartupError(f"Cannot read the settings file {path} ({failed}).") from None
    if os.name == "posix" and path.stat().st_mode & 0o077:
        raise StartupError(f"{path} can be read by other users of this machine, and it may hold the passcode: "
                           f"make it yours alone with `chmod 600 {path}`.")  # fmt: skip
    found = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, equals, value = (part.strip() for part in line.partition("="))
        where = f"{path} line {number}"
        if not equals or not name:
            raise StartupError(f"{where} is not a NAME=value line.")  # the line itself may hold a secret
        if name not in NAMES:
            raise StartupError(f"{where}: there is no setting {name[:40]!r}; the settings are {', '.join(NAMES)}.")
        found[name] = (unquoted(value), where)
    return found


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
        raise StartupError("DATABASE_URL is not a database URL: write it as postgresql://USER:PASSWORD@HOST/NAME "
                           "(or leave it out for the SQLite file in the data folder).") from None  # fmt: skip
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return str(Path(instance, url.database))  # Flask-SQLAlchemy reads a relative file in the data folder
    return url.render_as_string(hide_password=True)
