"""The service layer: the pages and the API change games through here and the rules.

These functions load the facts, replay them through :mod:`scorekeeper.rules`,
and store what a table entered, with the cache of the replay kept beside it
(rows.keep_records). Importing an export stores whole games through rows too.
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace

from flask_babel import gettext as _

from .. import rules
from ..store import news, scope
from ..store.db import db
from . import change, groups, summary
from .change import changes_a_game
from .every_game import UnreadableGame, replay_checked
from .every_game import all_games as all_games
from .every_game import size_of_all as size_of_all
from .every_game import stored_games as stored_games
from .listed import ListedGame as ListedGame
from .listed import list_games as list_games
from .loaded import GameNotFound as GameNotFound
from .loaded import LoadedGame as LoadedGame
from .loaded import last_game as last_game
from .loaded import load_game as load_game
from .loaded import replayed
from .loaded import version as version
from .rows import give_hands, hand_columns, hand_row, keep_records, new_game_row, rename_players


@dataclass(frozen=True)
class Recorded:
    """The game after recording a hand; ``resent`` when that hand was already stored as sent."""

    loaded: LoadedGame
    resent: bool = False


@dataclass(frozen=True)
class Preview:
    state: rules.GameState
    advice: rules.MoonAdvice | None


@changes_a_game
def create_game(players: object, given_rules: object = None) -> LoadedGame:
    game = new_game_row(players, given_rules)
    groups.hold_for_change(scope.current())  # a deletion of the group under way ends first: then no game is made
    groups.room_for(1)
    give_hands(game, [])  # a game with no hand yet counts in its players' records
    db.session.add(game)
    db.session.commit()
    return replayed(game)


@changes_a_game
def change_game(game_id: int, changes: Mapping[str, object]) -> LoadedGame:
    """The game's house rules (``rules``: any of them; the others stay) and its players' names (``players``: as many
    seats), changed while no hand is recorded: the table noticed them too late to start again."""
    locked = change.locked(game_id)
    loaded = locked.loaded
    unknown = sorted(set(changes) - {"players", "rules"})
    if unknown:
        said = _("Only the players and the house rules can be changed, not “%(key)s”.", key=unknown[0])
        raise rules.RuleError(said, {unknown[0]: said})
    players, given_rules = changes.get("players"), changes.get("rules")
    if loaded.state.hands:
        raise rules.RuleError(_("The house rules and the names can be changed until the first hand is recorded: undo "
                                "the hands first, or start a new game."), conflict=True)  # fmt: skip
    names = loaded.players if players is None else rules.clean_names(players)
    if len(names) != len(loaded.players):
        said = _("A started game keeps its %(seats)d seats: start a new game for another number of players.",
                 seats=len(loaded.players))  # fmt: skip
        raise rules.RuleError(said, {"players": said})
    if given_rules is not None and not isinstance(given_rules, Mapping):
        raise rules.RuleError(_("The house rules must be an object."), {"rules": _("An object of house rules.")})
    house = rules.house_rules(len(names), {**loaded.rules.as_dict(), **(given_rules or {})})
    rename_players(locked.row, names)
    for key, value in house.as_dict().items():
        setattr(locked.row, key, value)
    return change.commit(locked, rules.new_game(len(names), house))


def rebuild_records() -> tuple[int, list[str]]:
    """Replay every game and refresh what its rows keep of the replay, then add up every player's
    summary again from the seats; the number of games replayed, and the games left as they were
    because they cannot be read or replayed (each named)."""
    count, skipped = 0, []
    for game in stored_games():
        if isinstance(game, UnreadableGame):
            skipped.append(game.message)
            continue
        try:
            keep_records(game, replay_checked(game))
        except UnreadableGame as failed:
            skipped.append(failed.message)
            continue
        count += 1
    db.session.commit()
    summary.rebuild()
    db.session.commit()
    return count, skipped


def preview_hand(game_id: int, facts: Mapping[str, object]) -> Preview:
    loaded = load_game(game_id)
    loaded.state.upcoming()  # a finished game previews no hand
    hand = rules.make_hand(loaded.players, loaded.rules, facts, need_option=False)
    after, advice = rules.preview(loaded.state, hand)
    return Preview(after, advice)


@changes_a_game
def record_hand(game_id: int, facts: Mapping[str, object]) -> Recorded:
    """Store the next hand; ``facts["number"]``, when given, must be that hand's number.

    A resend of a stored hand with its number and the same facts (a double tap,
    a retry after a lost answer) stores nothing and is no error.
    """
    locked = change.locked(game_id, hands=False)
    loaded = locked.loaded
    expected = rules.hand_after(len(loaded.state.hands))
    number = facts.get("number")
    if number is not None and not rules.is_whole(number):
        raise rules.RuleError(_("The hand number must be a whole number."), {"number": _("A whole number.")})
    if number is not None and number != expected:
        if _already_stored(loaded, number, facts):
            db.session.rollback()  # not even updated_at changes: followers see nothing new
            return Recorded(load_game(game_id), resent=True)
        said = _("Hand %(number)d is not the next hand: the next is hand %(next)d.", number=number, next=expected)
        raise rules.RuleError(said, conflict=True)
    loaded.state.upcoming()  # a finished game takes no more hands (a resend of its last one is answered above)
    hand = rules.make_hand(loaded.players, loaded.rules, facts)
    state = rules.play(loaded.state, hand)
    db.session.add(hand_row(expected, hand, game_id))  # beside the hands stored, which are not loaded
    return Recorded(change.commit(locked, state))


def _already_stored(loaded: LoadedGame, number: object, facts: Mapping[str, object]) -> bool:
    """Whether hand ``number`` is stored with exactly these facts."""
    if not rules.is_whole(number) or not 1 <= number <= len(loaded.state.hands):
        return False
    try:
        hand = rules.make_hand(loaded.players, loaded.rules, facts)
    except rules.RuleError:
        return False
    return hand == loaded.state.hands[number - 1].hand


def corrected(loaded: LoadedGame, number: int, facts: Mapping[str, object]) -> tuple[rules.Hand, rules.GameState]:
    """Hand ``number`` as ``facts`` say, and the game replayed with it; nothing stored."""
    change.stored_hand(loaded, number)
    hand = rules.make_hand(loaded.players, loaded.rules, facts)
    hands = change.hands_of(loaded)
    hands[number - 1] = hand
    return hand, rules.replay(len(loaded.players), loaded.rules, hands)


def correction_preview(game_id: int, number: int, facts: Mapping[str, object]) -> Preview:
    """What correcting hand ``number`` would give, nothing stored; a missing moon choice follows the advice,
    given on the totals before that hand."""
    loaded = load_game(game_id)
    change.stored_hand(loaded, number)
    hand = rules.make_hand(loaded.players, loaded.rules, facts, need_option=False)
    hands = change.hands_of(loaded)
    advice = rules.moon_advice(rules.replay(len(loaded.players), loaded.rules, hands[: number - 1]), hand)
    if advice is not None and hand.moon_option is None and loaded.rules.moon == "choose":
        hand = replace(hand, moon_option=advice.advice)
    hands[number - 1] = hand
    return Preview(rules.replay(len(loaded.players), loaded.rules, hands), advice)


@changes_a_game
def correct_hand(game_id: int, number: int, facts: Mapping[str, object]) -> LoadedGame:
    locked = change.locked(game_id)
    hand, state = corrected(locked.loaded, number, facts)
    for key, value in hand_columns(hand).items():
        setattr(locked.row.hands[number - 1], key, value)
    return change.commit(locked, state)


@changes_a_game
def undo_hand(game_id: int, number: int | None = None) -> LoadedGame:
    """Delete the last hand (``number``, when given, must be it); a finished game reopens."""
    locked = change.locked(game_id)
    loaded = locked.loaded
    last = len(loaded.state.hands)
    if number is not None:
        change.stored_hand(loaded, number)
        if number != last:
            said = _("Only the last hand (hand %(last)d) can be undone, not hand %(number)d.", last=last, number=number)
            raise rules.RuleError(said, conflict=True)
    if not last:
        raise rules.RuleError(_("There is no hand to undo yet."), conflict=True)
    db.session.delete(locked.row.hands.pop())
    return change.commit(locked, rules.replay(len(loaded.players), loaded.rules, change.hands_of(loaded)[:-1]))


@changes_a_game
def delete_game(game_id: int) -> None:
    game = change.locked(game_id).row
    summary.forget_game(game)
    db.session.delete(game)
    with news.told({game_id: ""}):
        db.session.commit()
