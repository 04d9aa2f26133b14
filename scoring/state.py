"""The folded state of a game: what ``scoring.game.fold`` returns, with its JSON form.

Frozen dataclasses only, so the dashboard, the CLI and the tests read one shape; the
fields are documented in docs/events.md («The state»). Kept apart from the fold so the
variant rules (``scoring.variants``) can build these values without importing the fold.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from scoring.events import GameConfigured, event_to_dict
from scoring.stoeck import StoeckState

#: A Weis entered once this many tricks of the round are complete is late (000: it is
#: announced on the first trick, its cards are shown on the second).
WEIS_LATE_AFTER_TRICKS: Final[int] = 2


@dataclass(frozen=True)
class Flag:
    """A warning for the table. ``ref``: the event it is about; ``evidence_ref``: the later
    event that proved it (e.g. the card of the suit that was kept back); ``rule``: the
    Speck Jass rule section for misplays.

    ``message`` is German with seats counted from 0 (for logs and the CLI); ``cards``
    (the card ids concerned), ``other`` (a second seat: whose turn it was, who won the
    trick, who should be forehand) and ``trick`` (0-based) let a screen say the same in
    its own language with the players' names. ``lead``: true when the card concerned led
    its trick: an ``out_of_turn`` lead the table played on from most often means that a
    card of the trick before was misread and its winner led, which the table is told.
    """

    code: str
    message: str
    ref: int | None = None
    round: int | None = None
    seat: int | None = None
    evidence_ref: int | None = None
    rule: str | None = None
    cards: tuple[str, ...] = ()
    other: int | None = None
    trick: int | None = None
    lead: bool | None = None


@dataclass(frozen=True)
class PlayedCard:
    """One card in a trick; ``void``: it lost its trick value by a ``misplay_ruled`` penalty."""

    seat: int
    card: str
    ref: int
    void: bool = False


@dataclass(frozen=True)
class Trick:
    """A completed trick: cards in play order, winning seat, card points (+5 on the last).

    ``unseen``: the seats whose cards the camera never saw and nobody has filled in yet;
    ``cards`` then holds the others, and ``winner`` and ``points`` are theirs
    (provisional until the missing cards are known).
    """

    index: int
    cards: tuple[PlayedCard, ...]
    leader: int
    winner: int
    points: int
    last: bool
    collected: bool = False
    unseen: tuple[int, ...] = ()


@dataclass(frozen=True)
class WeisEntry:
    """One declared Weis and its fate.

    ``status``: ``counts`` (its team writes it), ``loses`` (the other team holds the best
    Weis; provisional while the round runs), ``late``,
    ``not_in_hand``, ``duplicate``, ``not_best_of_player`` (setting one Weis per player),
    ``shares_card`` (setting one card one Weis: a stronger Weis of the same player uses one
    of its cards), ``no_trick`` (setting Weis needs a trick and the team took none: left
    out before the comparison).
    """

    seat: int
    team: int
    kind: str
    label: str
    cards: tuple[str, ...]
    points: int
    ref: int
    status: str
    best: bool = False


@dataclass(frozen=True)
class Blocks:
    """Points of one team split into the three blocks of the Jasstafel."""

    weis: int = 0
    stoeck: int = 0
    tricks: int = 0
    #: Points carried over from paper (``prior_totals``), in no block: only totals have them.
    carried: int = 0

    @property
    def total(self) -> int:
        return self.weis + self.stoeck + self.tricks + self.carried

    def __add__(self, other: Blocks) -> Blocks:
        return Blocks(
            self.weis + other.weis, self.stoeck + other.stoeck, self.tricks + other.tricks, self.carried + other.carried
        )

    def times(self, factor: int) -> Blocks:
        return Blocks(self.weis * factor, self.stoeck * factor, self.tricks * factor, self.carried)

    def get(self, block: str) -> int:
        return int(getattr(self, block))

    def to_dict(self) -> dict[str, int]:
        """``{weis, stoeck, tricks, total}``, and ``carried`` when there are prior totals."""
        out = {"weis": self.weis, "stoeck": self.stoeck, "tricks": self.tricks, "total": self.total}
        if self.carried:
            out["carried"] = self.carried
        return out


@dataclass(frozen=True)
class RoundScore:
    """What a round is worth per team (index 0/1). ``raw``: before the multiplier;
    ``written``: after it (what goes on the Jasstafel). ``player_points``: Speck Jass,
    per seat. Provisional while the round runs."""

    card_points: tuple[int, int]
    tricks_won: tuple[int, int]
    raw: tuple[Blocks, Blocks]
    written: tuple[Blocks, Blocks]
    match_team: int | None
    last_trick_team: int | None
    last_trick_seat: int | None
    player_points: tuple[int, int, int, int]


@dataclass(frozen=True)
class RoundState:
    """One round (Speck Jass: one game). ``trick`` is the cards on the table now (a
    complete trick stays there until collected or the next card is laid)."""

    index: int
    ref: int
    contract: str
    trump: str | None
    multiplier: int
    forehand: int
    declarer: int
    schoben: bool
    bodentrumpf: str | None
    leader: int | None
    to_play: int | None
    trick: tuple[PlayedCard, ...]
    tricks: tuple[Trick, ...]
    played: tuple[str, ...]
    complete: bool
    abandoned: bool
    weis: tuple[WeisEntry, ...]
    weis_team: int | None
    stoeck: StoeckState
    score: RoundScore
    #: Entered by hand (``round_entered``): no tricks or cards, only its score.
    by_hand: bool = False
    #: Coiffeur: the row the declarer's team plays (index into ``GameConfigured.rows``).
    row: int | None = None
    #: Differenzler: each seat's forecast, shown only once the round is over (None before,
    #: and for a seat that made none); ``forecast_given`` says who has made one.
    forecasts: tuple[int | None, int | None, int | None, int | None] | None = None
    forecast_given: tuple[bool, bool, bool, bool] | None = None
    #: Differenzler, once the round is over: |forecast − points| per seat.
    penalties: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class SheetRow:
    """One line of the Jasstafel: a finished round, written blocks and running totals."""

    round: int
    contract: str
    multiplier: int
    written: tuple[Blocks, Blocks]
    totals: tuple[Blocks, Blocks]
    match_team: int | None
    last_trick_team: int | None
    player_points: tuple[int, int, int, int]
    player_totals: tuple[int, int, int, int]
    #: The round was entered by hand: the sheet marks it.
    by_hand: bool = False
    row: int | None = None
    forecasts: tuple[int | None, int | None, int | None, int | None] | None = None
    penalties: tuple[int, int, int, int] | None = None


@dataclass(frozen=True)
class GameOver:
    """Schieber: ``winner`` team (None on a draw) and the ``deciding_block`` (None on a draw).
    Speck: ``ranking`` of seats, best first, ties broken by the best single game, and
    ``places`` alongside it: the place of each, shared when still equal (competition
    ranking 1, 1, 3, 4), so no caller has to rank again."""

    round: int
    winner: int | None
    deciding_block: str | None
    reason: str
    ranking: tuple[int, ...] = ()
    places: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameState:
    """Everything the dashboard and the score sheet need, derived from the events."""

    config: GameConfigured
    variant: str
    events_total: int
    events_applied: int
    round_index: int
    round: RoundState | None
    rounds: tuple[RoundState, ...]
    sheet: tuple[SheetRow, ...]
    totals: tuple[Blocks, Blocks]
    player_totals: tuple[int, int, int, int]
    flags: tuple[Flag, ...]
    game_over: GameOver | None
    #: Who leads the next round (None before the first: any seat); see ``scoring.folder.Folder.next_forehand``.
    next_forehand: int | None = None
    #: Differenzler: which seats have already forecast for the next round (none running).
    pending_forecasts: tuple[bool, bool, bool, bool] = (False, False, False, False)

    @property
    def contract(self) -> str | None:
        return self.round.contract if self.round else None

    @property
    def to_play(self) -> int | None:
        return self.round.to_play if self.round and not self.game_over else None

    @property
    def stoeck_window(self) -> int | None:
        """The seat whose Stöck call would count right now (enables the button), or None."""
        return self.round.stoeck.window_seat if self.round else None

    @property
    def weis_open(self) -> bool:
        """Whether a Weis entered now would count by its timing (no ``weis_late``).

        A Weis is announced on the first trick and its cards are shown on the second
        (000), which is when the table enters it: so until the second trick is complete.
        """
        r = self.round
        if r is None or self.game_over is not None or not self.config.weis_counts or r.complete or r.abandoned:
            return False
        return len(r.tricks) < WEIS_LATE_AFTER_TRICKS

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form; see docs/events.md for the fields."""
        out = _jsonable(asdict(self))
        out["config"] = event_to_dict(self.config)
        out["contract"] = self.contract
        out["to_play"] = self.to_play
        out["stoeck_window"] = self.stoeck_window
        out["weis_open"] = self.weis_open
        out["totals"] = [b.to_dict() for b in self.totals]
        out["sheet"] = [
            {
                **_jsonable(asdict(row)),
                "written": [b.to_dict() for b in row.written],
                "totals": [b.to_dict() for b in row.totals],
            }
            for row in self.sheet
        ]
        out["rounds"] = [_round_dict(r) for r in self.rounds]
        out["round"] = _round_dict(self.round) if self.round else None
        if self.variant == "coiffeur":
            from scoring.coiffeur import tafel

            out["coiffeur"] = tafel(self).to_dict()
        elif self.variant == "differenzler":
            from scoring.differenzler import sheet

            out["differenzler"] = sheet(self).to_dict()
        return out


def _round_dict(r: RoundState) -> dict[str, Any]:
    d = _jsonable(asdict(r))
    d["score"]["raw"] = [b.to_dict() for b in r.score.raw]
    d["score"]["written"] = [b.to_dict() for b in r.score.written]
    return d


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value
