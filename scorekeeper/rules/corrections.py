"""What correcting a hand changes: the corrected hand's scores and every later hand scored otherwise (a moon's
floor, an exact reset), and the totals now; seat by seat, before and after."""

from dataclasses import dataclass

from .game import GameState


@dataclass(frozen=True)
class Change:
    """One player's scores in the hands a correction changes, and total now, before and after it."""

    seat: int
    scores: list[tuple[int, int | None]]  # one for each of Comparison.hands
    total: tuple[int, int | None]

    @property
    def moved(self) -> bool:
        """Whether the correction changes anything of this player's."""
        return any(new is not None and new != old for old, new in [*self.scores, self.total])


@dataclass(frozen=True)
class Comparison:
    """The hands a correction changes (the corrected one first), and each seat's ``Change``."""

    hands: list[int]
    changes: list[Change]


def compare(before: GameState, after: GameState | None, number: int) -> Comparison:
    """Hand ``number`` corrected, ``before`` and ``after`` seat by seat; the after side empty (None) while the hand
    entered breaks a rule."""
    hands = [number]
    if after is not None:
        hands += [
            later.number
            for later, redone in zip(before.hands[number:], after.hands[number:], strict=True)
            if later.scores != redone.scores
        ]
    changes = [
        Change(
            seat,
            [
                (before.hands[hand - 1].scores[seat], after.hands[hand - 1].scores[seat] if after else None)
                for hand in hands
            ],
            (before.totals[seat], after.totals[seat] if after else None),
        )  # fmt: skip
        for seat in range(len(before.totals))
    ]
    return Comparison(hands, changes)
