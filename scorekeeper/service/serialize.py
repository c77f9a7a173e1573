"""Games as the API's JSON objects (docs/api.md); the export (export.py) writes them too."""

from datetime import datetime

from .. import rules
from .games import Preview
from .listed import ListedGame
from .loaded import LoadedGame


def timestamp(moment: datetime) -> str:
    return moment.replace(microsecond=0).isoformat() + "Z"


def hand_json(scored: rules.ScoredHand, cards: tuple[rules.PenaltyCard, ...]) -> dict[str, object]:
    """A hand as the API gives it; ``cards`` are the penalty cards the game plays."""
    hand = scored.hand
    return {
        "number": scored.number,
        "dealer": scored.dealer,
        "pass": scored.pass_direction,
        "hearts": list(hand.hearts),
        **{card.key: hand.taker(card) for card in rules.PENALTY_CARDS if card.listed or card in cards},
        "all_tricks": hand.all_tricks,
        "moon": {"shooter": scored.moon.shooter, "option": scored.moon.option} if scored.moon else None,
        "scores": list(scored.scores),
        "totals": list(scored.totals),
    }


def next_hand_json(upcoming: rules.NextHand | None, players: int) -> dict[str, object] | None:
    if upcoming is None:
        return None
    return {
        "number": upcoming.number,
        "dealer": upcoming.dealer,
        "pass": upcoming.pass_direction,
        "passes": [{"from": giver, "to": taker} for giver, taker in upcoming.passes],
        "tie_break": upcoming.tie_break,
        "leads": rules.OPENING_LEAD[players],
    }


def summary_json(game: ListedGame) -> dict[str, object]:
    return {
        "id": game.id,
        "players": game.players,
        "status": "finished" if game.finished else "in-progress",
        "winners": game.winners,
        "hands": game.hand_count,
        "totals": game.totals,
        "places": list(rules.places(game.totals)),
        "created_at": timestamp(game.created_at),
        "updated_at": timestamp(game.updated_at),
    }


def game_json(loaded: LoadedGame) -> dict[str, object]:
    state = loaded.state
    return {
        **summary_json(loaded.listed),
        "uid": loaded.uid,
        "rules": loaded.rules.as_dict(),
        "hands": [hand_json(scored, loaded.cards) for scored in state.hands],
        "next_hand": next_hand_json(state.next_hand, state.players),
    }


def preview_json(preview: Preview, number: int | None = None) -> dict[str, object]:
    """What the next hand would give, or (``number``) what correcting that hand would."""
    state = preview.state
    return {
        "scores": list(state.hands[(number or len(state.hands)) - 1].scores),
        "totals": list(state.totals),
        "ends_game": state.finished,
        "winners": list(state.outcome.winners),
        "tie_break": state.outcome.tie_break,
        "moon": moon_json(preview.advice),
    }


def moon_json(advice: rules.MoonAdvice | None, *, scores: bool = False) -> dict[str, object] | None:
    """A moon's options, each with the totals and the shooter's outcome it gives (``scores``: and the hand's own
    scores), and the option the rules advise."""
    if advice is None:
        return None
    options: dict[str, dict[str, object]] = {}
    for option, choice in advice.options.items():
        options[option] = {"totals": list(choice.totals), "outcome": choice.outcome}
        if scores:
            options[option]["scores"] = list(choice.scores)
    return {"shooter": advice.shooter, "options": options, "advice": advice.advice}
