"""Between the rules' objects and the database rows: one place that knows both."""

import unicodedata
from collections.abc import Mapping

from . import models, rules, summary


def house_rules_of(game: models.Game) -> rules.HouseRules:
    return rules.HouseRules(
        target=game.target,
        pass_cycle=game.pass_cycle,
        moon=game.moon,
        sun=game.sun,
        omnibus=game.omnibus,
        tie=game.tie,
        first_dealer=game.first_dealer,
    )


def facts_of(hand: models.Hand) -> rules.Hand:
    return rules.Hand(tuple(hand.hearts), hand.queen, hand.jack, hand.all_tricks, hand.moon_option)


def new_game_row(players: object, given_rules: object) -> models.Game:
    """A game checked by the rules, not yet stored."""
    names = rules.clean_names(players)
    if given_rules is not None and not isinstance(given_rules, Mapping):
        raise rules.RuleError("The house rules must be an object.", {"rules": "An object of house rules."})
    house = rules.house_rules(len(names), given_rules)
    game = models.Game(**house.as_dict())
    game.players = [models.Player(seat=seat, name=name, name_key=name_key(name)) for seat, name in enumerate(names)]
    keep_records(game, rules.new_game(len(names), house))  # a game with no hand yet counts in its players' records
    return game


def name_key(name: str) -> str:
    """How a player is known across games: case, surrounding spaces and Unicode's two spellings ignored.

    >>> name_key(" Jose\u0301 ") == name_key("JOSÉ"), name_key("Straße")
    (True, 'strasse')
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).strip().casefold())


def search_key(name: str) -> str | None:
    """The key to look a typed name up by; None for text no player's name can hold (a NUL, say)."""
    return None if rules.has_hidden_characters(name) or len(name) > rules.NAME_MAX * 3 else name_key(name)


def hand_row(number: int, hand: rules.Hand) -> models.Hand:
    return models.Hand(number=number, **hand_columns(hand))


def hand_columns(hand: rules.Hand) -> dict[str, object]:
    return {
        "hearts": list(hand.hearts),
        "queen": hand.queen,
        "jack": hand.jack,
        "all_tricks": hand.all_tricks,
        "moon_option": hand.moon_option,
    }


def give_hands(game: models.Game, hands: list[rules.Hand]) -> None:
    """A new game row's hands, numbered from 1, and the records their replay gives each seat."""
    game.hands = [hand_row(number, hand) for number, hand in enumerate(hands, start=1)]
    keep_records(game, rules.replay(len(game.players), house_rules_of(game), hands))


def keep_records(game: models.Game, state: rules.GameState) -> None:
    """Refresh what the game's rows say of its replayed state: finished, and each seat's record."""
    game.finished = state.finished
    for player, record in zip(game.players, rules.seat_records(state), strict=True):
        before = summary.seat_counts(player)
        player.total, player.hands_played, player.game_finished = record.total, record.hands, record.finished
        player.won, player.shared_win = record.won, record.shared_win
        player.moons, player.queens = record.moons, record.queens
        summary.note(player, before, summary.record_counts(record))
