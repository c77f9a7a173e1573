"""A read-only view of a game for the other phones at the table, refreshed as hands are recorded."""

import functools
import re
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from flask import Blueprint, Flask, Response, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from sqlalchemy import Select, bindparam, select
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool
from werkzeug.http import parse_etags, quote_etag
from werkzeug.sansio.utils import get_host
from werkzeug.wrappers import Response as WerkzeugResponse

from .. import group_scope, guard, models, sites
from ..db import db, engine_number
from ..qr import qr_svg
from ..service import games, groups
from ..service.loaded import version_tag

bp = Blueprint("follow", __name__)


@bp.get("/f/<int:game_id>")
def short_link(game_id: int) -> WerkzeugResponse:
    must_exist(game_id)
    return redirect(url_for(".follow", game_id=game_id))


@bp.get("/f/<int:game_id>/qr.svg")
def qr_code(game_id: int) -> Response:
    """The short link as a QR code: an image of its own, fetched only when the table opens the share box."""
    must_exist(game_id)
    url = url_for(".short_link", game_id=game_id, _external=True)
    return Response(qr_svg(url), mimetype="image/svg+xml")


def must_exist(game_id: int) -> None:
    """A 404, as for any missing game, for a game that is not (or no longer) there."""
    if games.version(game_id) is None:
        raise games.GameNotFound(_("There is no game %(game)d.", game=game_id))


@bp.get("/games/<int:game_id>/follow")
def follow(game_id: int) -> str:
    return render_template("follow/page.html", loaded=games.load_game(game_id))


@functools.lru_cache(maxsize=256)
def rendered_board(database: int, game_id: int, version: str, language: str) -> str:
    """A board is the same for every follower in a language until the game changes: render each version once."""
    return render_template("follow/_board.html", loaded=games.load_game(game_id))


@bp.get("/games/<int:game_id>/follow/board")
def board(game_id: int) -> Response:
    """The changing part of the follow page; 304 while the game has not changed."""
    version = games.version(game_id)
    if version is None:
        return Response(_("This game was deleted."), status=404, mimetype="text/plain")
    if version in request.if_none_match:
        answer = Response(status=304)
    else:
        answer = Response(rendered_board(engine_number(), game_id, version, str(get_locale())))
    answer.set_etag(version)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


BOARD_PATH = re.compile(r"/games/([0-9]{1,18})/follow/board")


class UnchangedBoards:
    """WSGI middleware: the follow board's 304, the request a table sends most (three phones, every second),
    answered before Flask's machinery, at about a static file's cost: one indexed query, no session, no page.

    It answers only what ``board`` would answer 304 to anyone: a GET (or HEAD) naming a host of this server, with
    no body, for a game of the address's own group (found by the key's digest on an open server, the first group
    on a server that is one group's) that no passcode locks, whose version is in If-None-Match. Everything else
    (a changed game, a wrong key, a passcode to ask for, any doubt) goes on to the app, which answers as ever.
    It keeps nothing between requests: every answer is the database's word at that moment, whichever process asks.
    The production server asks ``unchanged`` itself, in its loop thread, before any worker (connections.py).
    """

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]) -> None:
        self.app, self.wsgi_app = app, wsgi_app
        self.engine: Engine | None = None
        game, table = models.Game, models.Group
        self.in_group: Select[datetime] = (
            select(game.updated_at)
            .join(table, table.id == game.group_id)
            .where(game.id == bindparam("game"), table.key_digest == bindparam("digest"), table.passcode_hash.is_(None))
        )
        self.in_first: Select[datetime] = select(game.updated_at).where(
            game.id == bindparam("game"), game.group_id == bindparam("group")
        )

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        tag = self.unchanged(environ, self.read)
        if tag is not None:
            start_response("304 Not Modified", self.headers(tag))
            return []
        return self.wsgi_app(environ, start_response)

    def unchanged(self, environ: dict[str, Any], read: "Reader") -> str | None:
        """The version tag to answer 304 with, or None when the app answers; ``read`` asks the database."""
        asked = environ.get("HTTP_IF_NONE_MATCH")
        found = BOARD_PATH.fullmatch(environ.get("PATH_INFO", "")) if asked else None
        if found and environ.get("REQUEST_METHOD") in ("GET", "HEAD") and self.plain(environ):
            tag = self.version(environ, int(found.group(1)), read)
            if tag is not None and (asked == quote_etag(tag) or parse_etags(asked).contains(tag)):  # a phone's one tag
                return tag
        return None

    def plain(self, environ: dict[str, Any]) -> bool:
        """A request the app's first checks would let through: a host of this server's, no body."""
        host = environ.get("HTTP_HOST")
        host = get_host("http", host) if isinstance(host, str) else ""  # as the app reads it: "" for one it cannot
        return (
            host != ""
            and sites.is_own_host(host, self.app.extensions["own_hosts"])
            and environ.get("CONTENT_LENGTH") in (None, "", "0")
            and "HTTP_TRANSFER_ENCODING" not in environ
        )

    def version(self, environ: dict[str, Any], game_id: int, read: "Reader") -> str | None:
        """The game's version tag, when the game is of this address's group and no passcode locks its pages."""
        if game_id > models.ROW_NUMBER_MAX:
            return None
        key = environ.get(group_scope.KEY)
        if self.app.config["GROUPS_OPEN"]:
            if key is None:
                return None
            statement, values = self.in_group, {"game": game_id, "digest": groups.digest(key)}
        else:
            first = self.app.extensions.get("first_group")
            if key is not None or first is None or self.app.config.get("PASSCODE"):
                return None
            statement, values = self.in_first, {"game": game_id, "group": first.id}
        changed = read(statement, values)
        return None if changed is None else version_tag(game_id, changed)

    def database(self) -> Engine:
        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        return self.engine

    def read(self, statement: Select[datetime], values: dict[str, object]) -> datetime | None:
        """The game's updated_at through the app's pool (None: no such game in the group)."""
        with self.database().connect() as connection:
            changed: datetime | None = connection.execute(statement, values).scalar()
        return changed

    @staticmethod
    def headers(tag: str) -> list[tuple[str, str]]:
        """The headers ``board``'s 304 carries, after the app's own (guard.security_headers, i18n.vary)."""
        return [
            ("ETag", quote_etag(tag)),
            ("Cache-Control", "no-cache"),
            ("Content-Security-Policy", guard.CONTENT_SECURITY_POLICY),
            ("X-Frame-Options", "DENY"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "same-origin"),
            ("Vary", "Accept-Language, Cookie"),
        ]


Reader = Callable[[Select[datetime], dict[str, object]], datetime | None]


class OwnConnection:
    """One connection of the database's driver for the server's loop thread, which answers the board's 304 without
    a worker (connections.py): opened as the app's pool opens one (SQLite's settings), then kept out of the pool, read
    in autocommit (no transaction stays open: every read sees the last change), and closed by ``close`` when the
    server stops. A query that fails closes it and says None: the app answers.

    The loop serves every connection of the server, so a read never waits long: a lock held on the games (another
    process's migration, say) or a database slow to answer ends the read after ``WAIT_MS``, and then the app answers
    the boards (with its own pool, in the worker threads) for ``REST_SECONDS`` before the loop tries again.

    Only one thread may use it, and only one does: the loop's.
    """

    WAIT_MS = 100  # a read's longest wait for a lock (SQLite's busy timeout) or for the query (PostgreSQL's)
    CONNECT_SECONDS = 2  # PostgreSQL's connect timeout (libpq's shortest)
    REST_SECONDS = 5.0

    def __init__(self, boards: UnchangedBoards, clock: Callable[[], float] = time.monotonic) -> None:
        self.boards, self.clock = boards, clock
        self.resting_until = 0.0
        self.connection: Any = None
        self.queries: dict[int, tuple[str, list[str] | None, Any]] = {}  # each statement as its driver takes it

    def read(self, statement: Select[datetime], values: dict[str, object]) -> datetime | None:
        engine = self.boards.database()
        if isinstance(engine.pool, StaticPool):  # an in-memory SQLite lives in the pool's one connection
            return self.boards.read(statement, values)
        if self.clock() < self.resting_until:
            return None
        try:
            sql, order, convert = self.compiled(statement, engine)
            if self.connection is None:
                self.connection = self.connect(engine)
            cursor = self.connection.cursor()
            try:
                cursor.execute(sql, tuple(values[name] for name in order) if order is not None else values)
                row = cursor.fetchone()
            finally:
                cursor.close()
        except Exception:  # a connection lost, a lock or a query waited for too long: the app answers for a while
            self.close()
            self.resting_until = self.clock() + self.REST_SECONDS
            return None
        if row is None:
            return None
        changed: datetime = convert(row[0]) if convert else row[0]
        return changed

    def connect(self, engine: Engine) -> Any:
        if engine.dialect.name == "postgresql":  # as the pool connects, with a timeout: no listener of ours to run
            args, options = engine.dialect.create_connect_args(engine.url)
            connection: Any = engine.dialect.connect(*args, **{**options, "connect_timeout": self.CONNECT_SECONDS})
            try:
                connection.autocommit = True  # a read is one round trip, with no transaction to end
                connection.execute(f"SET statement_timeout = {self.WAIT_MS}")
            except Exception:
                connection.close()
                raise
            return connection
        pooled = engine.raw_connection()  # SQLite: the pool's listener sets the file's pragmas (db.py)
        try:
            pooled.detach()  # the pool forgets it: this object closes it
            connection = pooled.dbapi_connection
            connection.isolation_level = None  # the driver begins no transaction: each read sees the last commit
            connection.execute(f"PRAGMA busy_timeout = {self.WAIT_MS}")
        except Exception:
            pooled.close()
            raise
        return connection

    def compiled(self, statement: Select[datetime], engine: Engine) -> tuple[str, list[str] | None, Any]:
        """The statement as the driver takes it: its text, its parameters' order (None: by name), the result's
        conversion (SQLite keeps a time as text)."""
        done = self.queries.get(id(statement))
        if done is None:
            compiled = statement.compile(dialect=engine.dialect)
            order = list(compiled.positiontup) if compiled.positional and compiled.positiontup else None
            column = models.Game.__table__.c.updated_at
            convert = column.type.dialect_impl(engine.dialect).result_processor(engine.dialect, None)
            done = self.queries[id(statement)] = (compiled.string, order, convert)
        return done

    def close(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            try:
                connection.close()
            except Exception:  # closed already, or its server gone: nothing more to let go
                pass
