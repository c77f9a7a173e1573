"""Hearts Scorekeeper: a Flask app that keeps score for a real card table."""

import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import Migrate
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.pool import StaticPool
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map

from . import config, startup
from .config import StartupError, database_url, proxy_count
from .i18n import request as i18n
from .i18n.languages import gettext as _
from .paths import MIGRATIONS, bundled, instance_folder
from .security import bodies, group_scope, guard, sites
from .service import summary
from .store import db as database
from .store import news, scope
from .store.db import db
from .store.models import ROW_NUMBER_MAX

__all__ = ["StartupError", "create_app", "database_url", "proxy_count"]
csrf = CSRFProtect()
migrate = Migrate(directory=str(MIGRATIONS))


def create_app(
    test_config: dict[str, Any] | None = None, *, create: bool = True, writes: bool = True
) -> group_scope.App:
    """Build the app: defaults, then the data folder's settings file, then the environment, then ``test_config``.

    ``create``: a database with no schema yet gets one (else a StartupError says there is none); ``writes``:
    the database must take writes. A StartupError says what keeps the app from starting.
    """
    instance = instance_folder()
    app = group_scope.App(
        __name__,
        instance_path=str(instance),
        template_folder=str(bundled("templates")),
        static_folder=str(bundled("static")),
    )
    app.config.from_mapping(
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        # A phone stays signed in while it keeps coming back (each answer renews the cookie); one left
        # unused for a month signs in again.
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        WTF_CSRF_TIME_LIMIT=None,  # a form's token is good for its session: a table page stays open all evening
    )
    make_data_folder(instance)
    app.config.from_mapping(config.settings(instance, os.environ))
    if test_config:
        app.config.from_mapping(test_config)
    app.extensions["followers"] = news.Followers()
    if app.config["BEHIND_PROXY"]:
        proxies = app.config["BEHIND_PROXY"]
        # X-Forwarded-Host names the site for the Host check: trusted only when the host says so.
        x_host = proxies if app.config["FORWARDED_HOST"] else 0
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=x_host)  # type: ignore[method-assign]
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret(instance)

    startup.sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"], instance, create=create)
    app.url_map.converters["int"] = RowNumber
    with startup.failures(config.database_name(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)):
        database.init_app(app)  # loads the database's driver
    scope.init_session(db.session)
    summary.init_session(db.session)
    migrate.init_app(app, db)
    # The checks every request passes before its view, in the order they run: the host, and the site it was sent
    # from; the body's size, before anything reads it; the request's group; the forms' tokens (CSRFProtect's own
    # check); the passcode.
    for check in (sites.refuse_other_hosts, sites.refuse_other_sites, bodies.limit_body, group_scope.resolve_group):
        app.before_request(check)
    csrf.init_app(app)
    app.before_request(guard.require_passcode)
    guard.init_app(app)
    i18n.init_app(app)
    register_blueprints(app)
    sites.init_app(app)
    group_scope.init_app(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    with app.app_context():
        try:
            app.extensions["first_group"] = startup.open_database(app, create=create, writes=writes)
        finally:
            release_connections()  # also when the database cannot be used: a command goes on after a StartupError
    return app


def make_data_folder(instance: Path) -> None:
    """The data folder, made private to this user when the app makes it."""
    try:
        instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as failed:
        said = _("Cannot make the data folder %(path)s (%(problem)s): choose another with --instance or "
                 "SCOREKEEPER_INSTANCE.", path=instance, problem=failed.strerror)  # fmt: skip
        raise StartupError(said) from None


def release_connections() -> None:
    """Keep no connection from the start: requests open their own, and an app given up leaves none behind."""
    db.session.remove()  # the session's connection first: a disposed pool would never close it
    if not isinstance(db.engine.pool, StaticPool):  # an in-memory SQLite lives in its one connection
        db.engine.dispose()


def instance_secret(instance: Path) -> str:
    """A secret made once and kept in the instance folder, so sessions survive restarts."""
    path = instance / "secret_key"
    try:
        if not path.exists():
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
                out.write(secrets.token_hex(32))  # never readable by others, not even for a moment
        return path.read_text().strip()
    except OSError as failed:
        said = _("Cannot keep the secret key in %(path)s (%(problem)s): let this user write the data folder, or "
                 "choose another with --instance.", path=path, problem=failed.strerror)  # fmt: skip
        raise StartupError(said) from None


class RowNumber(IntegerConverter):
    """``<int:…>`` in addresses: past what the database's integers hold is no such page (404), not an error."""

    def __init__(self, url_map: Map, fixed_digits: int = 0, min: int | None = None, max: int | None = None) -> None:
        super().__init__(url_map, fixed_digits, min, ROW_NUMBER_MAX if max is None else max)


def register_blueprints(app: Flask) -> None:
    from .web.views import (  # fmt: skip
        api,
        app_shell,
        docs,
        errors,
        follow,
        groups,
        history,
        language,
        sheets,
        signing,
        table,
        template_helpers,
    )

    template_helpers.init_app(app)
    errors.init_app(app)
    app.register_blueprint(signing.bp)
    app.register_blueprint(language.bp)
    csrf.exempt(language.bp)  # a language is no change to guard: the same-site check (sites.py) is enough
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
    app.register_blueprint(groups.bp)
