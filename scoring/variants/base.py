"""What every variant shares, and the one shape the fold asks a variant through.

The fold (``scoring.game``) plays tricks, judges Weis and Stöck and resolves
corrections the same way in every variant. What differs between Schieber, Speck Jass,
Coiffeur and Differenzler is narrow: which rounds may start, the factor a round is
written with, whether Weis and Stöck count, how a round's points are written (per team,
per player, into a row), and when the game is over. Each variant answers exactly those
questions (python-chess's variant boards are the model: one class per variant, the
board's play shared), so the fold never asks which variant it is playing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from scoring.events import CONTRACTS, MAX_FORECAST, GameConfigured, RoundEntered, RoundStarted
from scoring.rules import LAST_TRICK_BONUS, MATCH_BONUS, partner_of, play_contract, trump_suit
from scoring.state import Blocks, GameOver

#: A round's card points with the last trick, and what a Match adds to the team that took all.
ROUND_POINTS = 157


class VariantRuleError(ValueError):
    """A round (or an entry) this variant does not allow; the fold turns it into a RuleError."""


@dataclass(frozen=True)
class Taken:
    """What a round's play gave, before the variant writes it.

    ``tricks``: per team the card points with the last trick (no Match bonus);
    ``seat_points``: the same per seat (zeros for a team round entered by hand);
    ``all_tricks``: the team that took all nine tricks, if one did; ``weis``: the Weis
    per team as the Schieber comparison has it, ``seat_weis`` per seat (the player with
    the best Weis writes all of theirs); ``stoeck_team`` / ``stoeck_seat``: who called
    Stöck in time (the seat is None for a team round entered by hand).
    """

    contract: str
    declarer: int
    row: int | None
    card_points: tuple[int, int]
    tricks_won: tuple[int, int]
    tricks: tuple[int, int]
    seat_points: tuple[int, int, int, int]
    all_tricks: int | None
    last_trick_team: int | None
    last_trick_seat: int | None
    weis: tuple[int, int]
    seat_weis: tuple[int, int, int, int]
    stoeck_team: int | None
    stoeck_seat: int | None


@dataclass(frozen=True)
class Written:
    """A round as the variant writes it: ``raw`` blocks per team (before the factor),
    ``written`` (after it), the team credited with a Match, and each seat's points."""

    raw: tuple[Blocks, Blocks]
    written: tuple[Blocks, Blocks]
    match_team: int | None
    player_points: tuple[int, int, int, int]


@dataclass(frozen=True)
class DoneRound:
    """A finished (complete, not abandoned) round, as the end of the game looks at it."""

    index: int
    contract: str
    declarer: int
    row: int | None
    written: Written
    #: Differenzler: |forecast − points| per seat.
    penalties: tuple[int, int, int, int] | None = None


def declarer_of(start: RoundStarted | RoundEntered, forehand: int) -> int:
    """Who chose the contract: forehand, or after Schieben forehand's partner."""
    if start.declarer is not None:
        return start.declarer
    return partner_of(forehand) if start.schoben else forehand


class Variant:
    """The Schieber's answers; the other variants override what they change."""

    name: ClassVar[str] = "schieber"
    #: Each of the four plays for themselves: scores per seat, Weis per player.
    individual: ClassVar[bool] = False
    #: Players forecast their points before each round (Differenzler).
    forecasts: ClassVar[bool] = False
    #: A trick taken by one team entirely earns the Match bonus.
    match_bonus: ClassVar[int | None] = MATCH_BONUS

    def __init__(self, config: GameConfigured) -> None:
        self.config = config

    # -- what may be played
    @property
    def weis_counts(self) -> bool:
        """Whether Weis and Stöck count in this game (else they are flagged, not written)."""
        return self.config.weis_counts

    def no_weis_reason(self) -> str:
        return "in diesem Spiel zählen Weis und Stöck nicht"

    def no_stoeck_reason(self) -> str:
        return "in diesem Spiel zählen Weis und Stöck nicht"

    def check_start(self, start: RoundStarted | RoundEntered, forehand: int, done: Sequence[DoneRound]) -> None:
        """Raise VariantRuleError if this variant does not allow the round (contract, row, Bodentrumpf)."""
        if start.contract not in CONTRACTS:
            raise VariantRuleError(f"{start.contract} is a Coiffeur row, not a {self.name.capitalize()} contract")
        if start.row is not None:
            raise VariantRuleError("row belongs to Coiffeur")
        if isinstance(start, RoundStarted) and start.bodentrumpf is not None:
            raise VariantRuleError("bodentrumpf belongs to Speck Jass, not to the Schieber")

    def check_entry(self, entry: RoundEntered) -> None:
        """Raise VariantRuleError if a round entered by hand has the wrong form for this variant."""
        if entry.player_points is not None:
            raise VariantRuleError("a team game enters one team's points (team and points), not player_points")
        if entry.weis and len(entry.weis) != 2:
            raise VariantRuleError("weis lists what each team writes: two numbers, team 1 first")
        if sum(1 for w in entry.weis if w) > 1:
            raise VariantRuleError(
                "only the team with the best Weis writes (000): at most one team's weis may be more than 0"
            )
        if entry.stoeck is not None and entry.stoeck > 1:
            raise VariantRuleError(f"stoeck names the team that called Stöck (0 or 1), got {entry.stoeck}")
        check_entered_extras(self, entry)

    def max_forecast(self) -> int:
        """The most points a forecast may name (Differenzler)."""
        return MAX_FORECAST

    def round_sum_flag(self, index: int, total: int) -> tuple[str, str] | None:
        """A flag when a played round's trick points do not add up as this variant checks them."""
        return None

    # -- how a round is written
    def multiplier(self, contract: str, row: int | None) -> int:
        from scoring.multipliers import multiplier

        return multiplier(contract, self.config.multipliers, self.config.custom_multipliers)

    def rule_of(self, code: str, leading: bool = False) -> str | None:
        """The rule section a flag cites (Speck Jass's 2.8 misplays), or None."""
        return None

    def write(self, taken: Taken, factor: int) -> Written:
        """The Schieber Jasstafel: every block of both teams, times the factor."""
        match = taken.all_tricks
        bonus = self.match_bonus or 0
        raw = tuple(
            Blocks(
                taken.weis[t] if self.weis_counts else 0,
                20 if self.weis_counts and taken.stoeck_team == t else 0,
                taken.tricks[t] + (bonus if match == t else 0),
            )
            for t in (0, 1)
        )
        written = (raw[0].times(factor), raw[1].times(factor))
        return Written((raw[0], raw[1]), written, match if self.match_bonus is not None else None, taken.seat_points)

    # -- where the game starts and ends
    def prior_blocks(self) -> tuple[Blocks, Blocks]:
        """The team totals the game starts from (``prior_totals``, a game continued from paper)."""
        prior = self.config.prior_totals
        if self.individual or prior is None:
            return (Blocks(), Blocks())
        return (Blocks(carried=prior[0]), Blocks(carried=prior[1]))

    def prior_players(self) -> tuple[int, int, int, int]:
        """The per-seat totals the game starts from (Speck's ``prior_totals``), else 0."""
        p = self.config.prior_totals if self.individual and self.config.prior_totals is not None else (0, 0, 0, 0)
        return (p[0], p[1], p[2], p[3])

    def game_over(self, done: Sequence[DoneRound]) -> GameOver | None:
        """Schieber: the first round that brings a team over the target ends the game (001)."""
        from scoring.ending import decide

        cfg = self.config
        totals = self.prior_blocks()
        for r in done:
            written = r.written.written
            before = totals
            totals = (totals[0] + written[0], totals[1] + written[1])
            decision = decide((before[0].total, before[1].total), written, cfg.target, cfg.end_order, cfg.target_rule)
            if decision is not None:
                return GameOver(r.index, decision.winner, decision.block, decision.reason)
        return None


def check_entered_extras(variant: Variant, entry: RoundEntered) -> None:
    """Weis and Stöck of an entered round: only where they count, Stöck only with a trump."""
    if (any(entry.weis) or entry.stoeck is not None) and not variant.weis_counts:
        raise VariantRuleError(variant.no_weis_reason())
    if entry.stoeck is not None and trump_suit(play_contract(entry.contract)) is None:
        raise VariantRuleError(f"Stöck are trump König and Ober: {entry.contract} has no trump")


def entered_taken(entry: RoundEntered, declarer: int, trump: str | None) -> Taken:
    """What a round entered by hand gave, in the shape a played round's tricks give it.

    Team form: ``points`` for ``team``, 157 - ``points`` for the other; per-seat points
    are not known (zeros). Player form: ``player_points`` per seat, summed per team.
    Weis and Stöck are taken as entered: the table has already judged them.
    """
    if entry.player_points is not None:
        pp = entry.player_points
        tricks = (pp[0] + pp[2], pp[1] + pp[3])
        seat_weis = tuple(entry.weis) if len(entry.weis) == 4 else (0, 0, 0, 0)
        weis = (seat_weis[0] + seat_weis[2], seat_weis[1] + seat_weis[3])
        stoeck_seat = entry.stoeck if trump is not None else None
        stoeck_team = None if stoeck_seat is None else stoeck_seat % 2
        seat_points = pp
    else:
        assert entry.team is not None and entry.points is not None
        t = entry.team
        mine, other = entry.points, ROUND_POINTS - entry.points
        tricks = (mine, other) if t == 0 else (other, mine)
        weis = (entry.weis[0], entry.weis[1]) if entry.weis else (0, 0)
        seat_weis = (0, 0, 0, 0)
        stoeck_team, stoeck_seat = entry.stoeck, None
        seat_points = (0, 0, 0, 0)
    won = (9, 0) if entry.match and entry.team == 0 else (0, 9) if entry.match else (0, 0)
    return Taken(
        contract=entry.contract,
        declarer=declarer,
        row=entry.row,
        card_points=tricks,
        tricks_won=won,
        tricks=tricks,
        seat_points=(seat_points[0], seat_points[1], seat_points[2], seat_points[3]),
        all_tricks=entry.team if entry.match else None,
        last_trick_team=None,
        last_trick_seat=None,
        weis=weis,
        seat_weis=(seat_weis[0], seat_weis[1], seat_weis[2], seat_weis[3]),
        stoeck_team=stoeck_team,
        stoeck_seat=stoeck_seat,
    )


__all__ = [
    "LAST_TRICK_BONUS",
    "ROUND_POINTS",
    "DoneRound",
    "Taken",
    "Variant",
    "VariantRuleError",
    "Written",
    "declarer_of",
    "check_entered_extras",
    "entered_taken",
]
