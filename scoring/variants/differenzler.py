"""Differenzler: four players for themselves, each forecasts their points; the penalty
is how far off they were.

Before each round every player makes a secret forecast (``forecast_made``) of the points
they will take. The round is played as a Schieber round without partners: each player's
points are the card points of the tricks they took (with the last trick's 5; a player
taking every trick gets 157, there is no Match bonus). With ``count_weis`` (default off)
the player with the best Weis at the table writes all of theirs and Stöck count for the
player who called them, added to their points. The penalty of the round is
|forecast − points|; a player who made no forecast before the first card is counted as
forecasting 0. After ``differenzler_rounds`` rounds (default 12) the lowest total
penalty wins; equal totals share the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from scoring.events import CONTRACTS, MAX_FORECAST, MAX_FORECAST_WITH_WEIS, RoundEntered, RoundStarted
from scoring.ranking import rank
from scoring.rules import card_suit
from scoring.state import GameOver
from scoring.variants.base import DoneRound, Taken, Variant, VariantRuleError, Written, check_entered_extras


def penalties(forecasts: Sequence[int | None], points: Sequence[int]) -> tuple[int, int, int, int]:
    """|forecast − points| per seat; a missing forecast counts as 0."""
    p = [abs((f or 0) - pts) for f, pts in zip(forecasts, points, strict=True)]
    return (p[0], p[1], p[2], p[3])


class Differenzler(Variant):
    name: ClassVar[str] = "differenzler"
    individual: ClassVar[bool] = True
    forecasts: ClassVar[bool] = True
    match_bonus: ClassVar[int | None] = None

    def check_start(self, start: RoundStarted | RoundEntered, forehand: int, done: Sequence[DoneRound]) -> None:
        if start.contract not in CONTRACTS:
            raise VariantRuleError(f"{start.contract} is a Coiffeur row, not a Differenzler contract")
        if start.row is not None:
            raise VariantRuleError("row belongs to Coiffeur")
        bottom = start.bodentrumpf if isinstance(start, RoundStarted) else None
        if bottom is not None and card_suit(bottom) != start.contract:
            raise VariantRuleError(f"the turned card {bottom} makes {card_suit(bottom)} trump, not {start.contract}")

    def check_entry(self, entry: RoundEntered) -> None:
        if entry.player_points is None:
            raise VariantRuleError("Differenzler enters every player's points (player_points), not one team's")
        if entry.weis and len(entry.weis) != 4:
            raise VariantRuleError("weis lists what each player writes: four numbers, seat 0 first")
        check_entered_extras(self, entry)

    def multiplier(self, contract: str, row: int | None) -> int:
        return 1

    def write(self, taken: Taken, factor: int) -> Written:
        base = super().write(taken, factor)
        if not self.weis_counts:
            return base
        pts = [taken.seat_points[s] + taken.seat_weis[s] + (20 if taken.stoeck_seat == s else 0) for s in range(4)]
        return Written(base.raw, base.written, None, (pts[0], pts[1], pts[2], pts[3]))

    def max_forecast(self) -> int:
        return MAX_FORECAST_WITH_WEIS if self.weis_counts else MAX_FORECAST

    def game_over(self, done: Sequence[DoneRound]) -> GameOver | None:
        rounds = self.config.differenzler_rounds
        if len(done) < rounds:
            return None
        penalty_totals = [sum((r.penalties or (0, 0, 0, 0))[s] for r in done) for s in range(4)]
        # Lowest penalty first: rank the negated totals (ranking ranks the highest first).
        ranked = rank([-p for p in penalty_totals], [0, 0, 0, 0])
        return GameOver(
            done[-1].index,
            None,
            None,
            f"{rounds} Runden gespielt",
            tuple(r.index for r in ranked),
            tuple(r.place for r in ranked),
        )
