"""Coiffeur: the Schieber played into a grid of rows, each team every row once.

Each team plays each row of its list once (``GameConfigured.rows``: contract and
factor; by default Eicheln 1, Schellen 2, Rosen 3, Schilten 4, Obenabe 5, Undenufe 6,
Slalom 7, Misère 8). The declarer's team chooses the row at the start of the round
(after Schieben the partner chooses, as in the Schieber); the round is played and
counted as a Schieber round, and only that team writes: its points times the row's
factor go into its cell of the row. A Match adds ``coiffeur_match_bonus`` (default 100,
so 257) before the factor. Misère is played as Obenabe and the team writes the points
it did not take (the other team's, with the bonus if the other team took every trick);
Weis and Stöck do not count in Misère. With ``count_weis`` (default on) the declaring
team's Weis (when it holds the best one) and Stöck go into its cell as in the Schieber.
The game is over when both teams have filled every row; the higher total wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from scoring.events import RoundEntered, RoundStarted
from scoring.state import Blocks, GameOver
from scoring.variants.base import DoneRound, Taken, Variant, VariantRuleError, Written, declarer_of

ROW_LABEL = {
    "eicheln": "Eicheln",
    "schilten": "Schilten",
    "rosen": "Rosen",
    "schellen": "Schellen",
    "obenabe": "Obenabe",
    "undenufe": "Undenufe",
    "slalom": "Slalom",
    "misere": "Misère",
}


class Coiffeur(Variant):
    name: ClassVar[str] = "coiffeur"

    @property
    def bonus(self) -> int:
        return self.config.coiffeur_match_bonus

    def check_start(self, start: RoundStarted | RoundEntered, forehand: int, done: Sequence[DoneRound]) -> None:
        rows = self.config.rows
        if isinstance(start, RoundStarted) and start.bodentrumpf is not None:
            raise VariantRuleError("bodentrumpf belongs to Speck Jass, not to Coiffeur")
        if start.row is None:
            raise VariantRuleError("a Coiffeur round names its row (row: 0-based index into the game's rows)")
        if start.row >= len(rows):
            raise VariantRuleError(
                f"row {start.row} does not exist: this game has {len(rows)} rows (0..{len(rows) - 1})"
            )
        contract, _factor = rows[start.row]
        if start.contract != contract:
            raise VariantRuleError(
                f"row {start.row} is {ROW_LABEL[contract]}: its contract is {contract}, not {start.contract}"
            )
        team = declarer_of(start, forehand) % 2
        if any(r.row == start.row and r.declarer % 2 == team for r in done):
            raise VariantRuleError(
                f"team {team + 1} has already played the row {ROW_LABEL[contract]} (row {start.row})"
            )

    def check_entry(self, entry: RoundEntered) -> None:
        super().check_entry(entry)
        if entry.contract == "misere" and (any(entry.weis) or entry.stoeck is not None):
            raise VariantRuleError("in Misère Weis and Stöck do not count")

    def multiplier(self, contract: str, row: int | None) -> int:
        assert row is not None  # check_start made sure every Coiffeur round has one
        return self.config.rows[row][1]

    def write(self, taken: Taken, factor: int) -> Written:
        team = taken.declarer % 2
        other = 1 - team
        match = taken.all_tricks
        if taken.contract == "misere":
            tricks = taken.tricks[other] + (self.bonus if match == other else 0)
            weis = stoeck = 0
            match_team = team if match == other else None
        else:
            tricks = taken.tricks[team] + (self.bonus if match == team else 0)
            weis = taken.weis[team] if self.weis_counts else 0
            stoeck = 20 if self.weis_counts and taken.stoeck_team == team else 0
            match_team = team if match == team else None
        mine = Blocks(weis, stoeck, tricks)
        raw = (mine, Blocks()) if team == 0 else (Blocks(), mine)
        return Written(raw, (raw[0].times(factor), raw[1].times(factor)), match_team, taken.seat_points)

    def prior_blocks(self) -> tuple[Blocks, Blocks]:
        return (Blocks(), Blocks())

    def game_over(self, done: Sequence[DoneRound]) -> GameOver | None:
        if len(done) < 2 * len(self.config.rows):
            return None
        totals = [sum(r.written.written[t].total for r in done) for t in (0, 1)]
        diff = abs(totals[0] - totals[1])
        if totals[0] == totals[1]:
            return GameOver(
                done[-1].index, None, None, f"alle Zeilen gespielt: unentschieden ({totals[0]} : {totals[1]})"
            )
        win = 0 if totals[0] > totals[1] else 1
        return GameOver(
            done[-1].index, win, None, f"alle Zeilen gespielt: Team {win + 1} gewinnt mit {diff} Punkten Differenz"
        )
