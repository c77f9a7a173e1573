"""Hearts Scorekeeper: a Flask app that keeps score for a real card table."""

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import Migrate, upgrade
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map

from . import guard, minify, sites
from .db import db
from .models import ROW_NUMBER_MAX
from .paths import bundled, instance_folder
from .service import games

IMPORT_MAX = 64 * 1024 * 1024
csrf = CSRFProtect()
migrate = Migrate(directory=str(Path(__file__).resolve().parent / "migrations"))


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then the environment, then ``test_config``."""
    app = Flask(
        __name__,
        instance_path=str(instance_folder()),
        instance_relative_config=True,
        template_folder=str(bundled("templates")),
        static_folder=str(bundled("static")),
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///scorekeeper.sqlite",
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        PASSCODE="",
        HOSTS="",  # names the server answers to besides its addresses, localhost and the machine's name
        # A phone stays signed in while it keeps coming back (each answer renews the cookie); one left
        # unused for a month signs in again.
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # The largest body taken: an import of a club's whole history (10,000 games export to about
        # 45 MB). The API takes far less (views/api.py), and forms without a file 500 kB (Flask's default).
        MAX_CONTENT_LENGTH=IMPORT_MAX,
        WTF_CSRF_TIME_LIMIT=None,  # a form's token is good for its session: a table page stays open all evening
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("SCOREKEEPER_PASSCODE"):
        app.config["PASSCODE"] = os.environ["SCOREKEEPER_PASSCODE"]
    if os.environ.get("SCOREKEEPER_HOSTS"):
        app.config["HOSTS"] = os.environ["SCOREKEEPER_HOSTS"]
    if os.environ.get("SCOREKEEPER_BEHIND_PROXY"):
        proxies = proxy_count(os.environ["SCOREKEEPER_BEHIND_PROXY"])
        # X-Forwarded-Host is the proxy's word for the Host checked in sites.py: only when the host says so.
        x_host = proxies if os.environ.get("SCOREKEEPER_FORWARDED_HOST") else 0
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=x_host)  # type: ignore[method-assign]
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = database_url(os.environ["DATABASE_URL"])
    if test_config:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))

    private_sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"], Path(app.instance_path))
    app.url_map.converters["int"] = RowNumber
    db.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    guard.init_app(app)
    register_blueprints(app)
    sites.init_app(app)  # after the blueprints: its checks go before every other hook
    minify.init_app(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    with app.app_context():
        upgrade_database()
        release_connections()
    return app


def upgrade_database() -> None:
    """Create the schema on first start, migrate it after an update, and then replay every game once.

    What the rows keep of a replay (a game's status, each seat's record) must
    follow the rules of the code now running, and migrations must not import
    today's rules: so after any upgrade of an existing database the app itself
    replays every game, and migrations only shape tables.
    """
    before = schema_revision()
    upgrade()
    if before is not None and before != schema_revision():
        games.rebuild_records()


def schema_revision() -> str | None:
    with db.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def release_connections() -> None:
    """Hand a forking server's workers no connection opened while the app was built."""
    if not isinstance(db.engine.pool, StaticPool):  # an in-memory SQLite lives in its one connection
        db.engine.dispose()


def database_url(url: str) -> str:
    """Accept the ``postgres://`` URLs hosts hand out, and use psycopg 3 for them.

    >>> database_url("postgres://u:p@db/hearts")
    'postgresql+psycopg://u:p@db/hearts'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def instance_secret(instance: Path) -> str:
    """A secret made once and kept in the instance folder, so sessions survive restarts."""
    path = instance / "secret_key"
    if not path.exists():
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(secrets.token_hex(32))  # never readable by others, not even for a moment
    return path.read_text().strip()


def private_sqlite_file(url: str, instance: Path) -> None:
    """Create a new SQLite database file readable by its owner only (its -wal and -shm files follow it)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    path = instance / parsed.database if not os.path.isabs(parsed.database) else Path(parsed.database)
    if not path.exists() and path.parent.is_dir():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def proxy_count(setting: str) -> int:
    """How many proxies in front to trust: the setting's number, 1 for any other value such as "1" or "yes".

    >>> proxy_count("2"), proxy_count("yes")
    (2, 1)
    """
    return int(setting) if setting.isascii() and setting.isdigit() and 0 < int(setting) < 10 else 1


class RowNumber(IntegerConverter):
    """``<int:…>`` in addresses: past what the database's integers hold is no such page (404), not an error."""

    def __init__(self, url_map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = None) -> None:
        super().__init__(url_map, fixed_digits, min, ROW_NUMBER_MAX if max is None else max)


def register_blueprints(app: Flask) -> None:
    from .views import api, app_shell, common, docs, follow, history, sheets, table

    common.register(app)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(table.bp)
    # The hand forms check their own token, so that a refused one keeps the hand entered.
    csrf.exempt(table.record_hand)
    csrf.exempt(table.correct_hand)
    app.register_blueprint(history.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(follow.bp)
    app.register_blueprint(docs.bp)
    app.register_blueprint(app_shell.bp)
