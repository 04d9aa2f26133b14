"""Speck Jass (tournament rules 002): four players for themselves, trump from the bottom
card, no Weis, no Stöck, no Match bonus, a set number of games; the misplays of 2.8
cite their section."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from scoring.events import RoundEntered, RoundStarted
from scoring.ranking import Ranked, rank
from scoring.rules import card_suit, play_contract, trump_suit
from scoring.state import GameOver
from scoring.variants.base import ROUND_POINTS, DoneRound, Variant, VariantRuleError

#: The Speck Jass section each misplay flag cites (002, 2.8).
SPECK_RULE: Final[dict[str, str]] = {
    "out_of_turn": "2.8.3",
    "not_following_suit": "2.8.4",
    "not_following_trump": "2.8.4",
    "undertrump": "2.8.5",
}


def speck_standings(games: Sequence[Sequence[int]], prior: Sequence[int] = (0, 0, 0, 0)) -> tuple[Ranked, ...]:
    """Seats ranked by total points (with ``prior`` totals from paper), ties broken by the
    better best single game (2.9.2), still equal sharing the place (``scoring.ranking``)."""
    totals = [prior[s] + sum(g[s] for g in games) for s in range(4)]
    best = [max((g[s] for g in games), default=0) for s in range(4)]
    return rank(totals, best)


class Speck(Variant):
    """002: «Jedes Spiel zählt 157 Punkte, auch ein Matchspiel. Es gibt keine Weis- und
    Stöckpunkte.»: no Match bonus, and Weis and Stöck never count (``weis_counts``)."""

    name: ClassVar[str] = "speck"
    individual: ClassVar[bool] = True
    match_bonus: ClassVar[int | None] = None

    def no_weis_reason(self) -> str:
        return "im Speck Jass gibt es keinen Weis"

    def no_stoeck_reason(self) -> str:
        return "im Speck Jass gibt es keine Stöck"

    def check_start(self, start: RoundStarted | RoundEntered, forehand: int, done: Sequence[DoneRound]) -> None:
        if start.row is not None:
            raise VariantRuleError("row belongs to Coiffeur")
        if trump_suit(play_contract(start.contract)) is None:
            raise VariantRuleError("Speck Jass is played with Bodentrumpf: the contract must be a suit")
        bottom = start.bodentrumpf if isinstance(start, RoundStarted) else None
        if bottom is not None and card_suit(bottom) != start.contract:
            raise VariantRuleError(f"Bodentrumpf {bottom} makes {card_suit(bottom)} trump, not {start.contract}")

    def check_entry(self, entry: RoundEntered) -> None:
        if entry.player_points is None:
            raise VariantRuleError("Speck Jass enters every player's points (player_points), not one team's")
        if entry.weis or entry.stoeck is not None:
            raise VariantRuleError("im Speck Jass gibt es keinen Weis und keine Stöck")

    def multiplier(self, contract: str, row: int | None) -> int:
        return 1

    def round_sum_flag(self, index: int, total: int) -> tuple[str, str] | None:
        # 2.5.2: every game adds up to 157; anything else is a card read wrong.
        if total != ROUND_POINTS:
            return "speck_sum", f"Spiel {index + 1} ergibt {total} statt 157 Punkte"
        return None

    def rule_of(self, code: str, leading: bool = False) -> str | None:
        if code == "out_of_turn" and not leading:
            return "2.8.6"
        return SPECK_RULE.get(code)

    def game_over(self, done: Sequence[DoneRound]) -> GameOver | None:
        cfg = self.config
        if len(done) < cfg.speck_games - cfg.prior_games:
            return None
        ranked = speck_standings([r.written.player_points for r in done], self.prior_players())
        return GameOver(
            done[-1].index,
            None,
            None,
            f"{len(done) + cfg.prior_games} Spiele gespielt",
            tuple(r.index for r in ranked),
            tuple(r.place for r in ranked),
        )
