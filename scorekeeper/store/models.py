"""What a table entered: games, their players and hands.

The hands are the truth. What a replay of them gives (a game's status, each
seat's record) is kept beside them only as a cache the service layer refreshes.
"""

import uuid
from datetime import UTC, datetime

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .. import rules
from ..rules import NAME_MAX
from .db import Model

NAME_KEY_MAX = 3 * NAME_MAX  # case-folding can make one letter three ("ﬃ" is "ffi")
ROW_NUMBER_MAX = 2**31 - 1  # PostgreSQL's integer: an id or hand number past it is no such row
ADDRESS_MAX = 64  # an IPv6 address with its zone fits; a longer X-Forwarded-For is cut
KEY_MAX = 64  # a group's key: 24 characters as the app makes them, room for a longer one restored
GROUP_NAME_MAX = 60
PASSCODE_HASH_MAX = 200


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_uid() -> str:
    return uuid.uuid4().hex


class Group(Model):
    """A table's group: its games, players and records, apart from every other group's on the same server.

    On an open server each group lives under its own address, ``/g/<key>``; a server that is one group's
    serves its first group (the lowest id) at the site's root.
    """

    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    # The group's secret: whoever has it reaches the group. Looked up by its digest, never by itself, so that
    # how long a lookup takes says nothing of a key's first characters.
    key: Mapped[str] = mapped_column(String(KEY_MAX))
    key_digest: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(GROUP_NAME_MAX), default="")
    passcode_hash: Mapped[str | None] = mapped_column(String(PASSCODE_HASH_MAX))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Noted now and then as the group's phones come back (not at every request), for the host's list.
    last_used: Mapped[datetime] = mapped_column(default=utcnow)


class Game(Model):
    __tablename__ = "games"
    __table_args__ = (
        # A game is itself in its own group: another group may hold a copy of it (an export imported there).
        UniqueConstraint("group_id", "uid", name="uq_games_group_uid"),
        Index("ix_games_group_content_uid", "group_id", "content_uid"),
        # A group's games newest first, all of them or those in progress (or finished): one index walk each.
        Index("ix_games_group", "group_id", "id"),
        Index("ix_games_group_finished", "group_id", "finished", "id"),
        # A deleted game's id is never given to a new one: old follow links and QR codes must not show it.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    # Who the game is wherever it goes: kept by export and import, so a restore skips games already here.
    uid: Mapped[str] = mapped_column(String(32), default=new_uid)
    # The uid its facts give it (uids.py), kept for the games stored before uids and every game imported: a copy
    # of it in a backup or export without uids is known by this. None for a game started here.
    content_uid: Mapped[str | None] = mapped_column(String(32))
    target: Mapped[int]
    pass_cycle: Mapped[str] = mapped_column(String(32))
    moon: Mapped[str] = mapped_column(String(16))
    tie: Mapped[str] = mapped_column(String(16))
    first_dealer: Mapped[int]
    # And a column for each on/off house rule (below).

    # Kept in step with the replayed hands by the service layer, so lists can
    # put games in progress first without replaying every game.
    finished: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    players: Mapped[list["Player"]] = relationship(
        order_by="Player.seat", cascade="all, delete-orphan", passive_deletes=True
    )
    hands: Mapped[list["Hand"]] = relationship(
        order_by="Hand.number", cascade="all, delete-orphan", passive_deletes=True
    )


class Player(Model):
    __tablename__ = "players"
    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        # A player's record reads this index alone, however many games they played.
        Index(
            "ix_players_record",
            "group_id",
            "name_key",
            "game_id",
            "total",
            "hands_played",
            "game_finished",
            "won",
            "shared_win",
            "moons",
            "queens",
        ),
        # A player's best and worst finished totals: two index lookups, however many games they played.
        Index("ix_players_finished_total", "group_id", "name_key", "game_finished", "total"),
        # The seats of a page of games, in their group: as many rows read however many games the group played.
        Index("ix_players_group_game", "group_id", "game_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    # The game's group, kept on the seat too: a player's record is one group's, read from one index.
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    # The name as players are matched across games: case, spaces and Unicode spelling ignored.
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_MAX))
    # What replaying the game gives this seat (rules.seat_records), refreshed by
    # the service layer on every change to the game, so that a player's record
    # over thousands of games is one indexed query. The hands stay the truth:
    # `scorekeeper rebuild-records` computes all of these again from them.
    total: Mapped[int] = mapped_column(default=0)
    hands_played: Mapped[int] = mapped_column(default=0)
    game_finished: Mapped[bool] = mapped_column(default=False)
    won: Mapped[bool] = mapped_column(default=False)
    shared_win: Mapped[bool] = mapped_column(default=False)
    moons: Mapped[int] = mapped_column(default=0)
    queens: Mapped[int] = mapped_column(default=0)


class Hand(Model):
    __tablename__ = "hands"
    # One hand number once per game: two phones recording the same hand cannot both win.
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    hearts: Mapped[list[int]] = mapped_column(JSON)
    # And a column for each penalty card (below): the seat that took it.
    all_tricks: Mapped[int | None]
    moon_option: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# The on/off house rules and the penalty cards are columns named as the rules name them (rows.py converts by
# name), one for each of rules.SWITCHES and rules.PENALTY_CARDS: a new one needs a migration, and nothing here.
for _switch in rules.SWITCHES:
    setattr(Game, _switch, mapped_column(Boolean, nullable=False, default=getattr(rules.HouseRules(), _switch)))
for _card in rules.PENALTY_CARDS:
    setattr(Hand, _card.key, mapped_column(Integer, nullable=_card.rule is not None))


class PlayerSummary(Model):
    """A player's record over every game, kept up to date with each change (service/summary.py).

    Like the seats' records, a cache of the replayed hands: `rebuild-records` computes it again.
    """

    __tablename__ = "player_summaries"

    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True)
    name_key: Mapped[str] = mapped_column(String(NAME_KEY_MAX), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    games: Mapped[int] = mapped_column(default=0)
    finished: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)
    shared_wins: Mapped[int] = mapped_column(default=0)
    points: Mapped[int] = mapped_column(default=0)
    hands: Mapped[int] = mapped_column(default=0)
    moons: Mapped[int] = mapped_column(default=0)
    queens: Mapped[int] = mapped_column(default=0)


class SignInAttempt(Model):
    """Wrong passcodes from one address at one lock, to make it wait longer after each; and the budgets all
    addresses share.

    An address's row is named after it at the server's passcode (``192.0.2.7``), and after it and the group at a
    group's (``192.0.2.7 in 7``). A budget's row is named after its lock (``*``, ``*7``: guesses.py): its
    ``turn_at`` is the next turn it gives.
    """

    __tablename__ = "sign_in_attempts"

    address: Mapped[str] = mapped_column(String(ADDRESS_MAX), primary_key=True)
    failures: Mapped[int] = mapped_column(default=0)
    # The last wrong guess (at first, the first guess): rows a day older are forgotten.
    last_failure: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # When this address's next guess is judged, had it to wait its turn for a budget spent by others.
    turn_at: Mapped[datetime | None]


class SignIn(Model):
    """A phone signed in with the passcode: its session names this row, and signing out deletes it.

    A copy of the session cookie is worth nothing once the row is gone.
    """

    __tablename__ = "sign_ins"
    __table_args__ = (
        # A lock's sign-ins, the latest first: the ones past SIGN_INS_KEPT (guard.new_sign_in) are found in its own,
        # however many every other group keeps; and a group deleted finds its own.
        Index("ix_sign_ins_group_last_seen", "group_id", "last_seen", "signed_in_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)  # random: what the session holds
    # The group whose passcode was given; None for the server's own passcode.
    group_id: Mapped[int | None] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    signed_in_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Renewed now and then as the phone comes back (not at every request): a month unused ends it.
    last_seen: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class Allowance(Model):
    """How much of a limit one address has used in its window: groups started in a day, wrong keys in an hour.

    Kept in the database, so that every server process counts the same address alike.
    """

    __tablename__ = "allowances"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    address: Mapped[str] = mapped_column(String(ADDRESS_MAX), primary_key=True)
    used: Mapped[int] = mapped_column(default=0)
    since: Mapped[datetime] = mapped_column(default=utcnow, index=True)
