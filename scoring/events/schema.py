"""The event types: what each event of a game holds, as frozen dataclasses.

This is the schema itself (docs/events.md documents it field by field). Checking a
JSON object against it is ``scoring.events.validate``, and writing an event as JSON
(with what is left out so older builds still read it) is ``scoring.events.codec``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from scoring.cards import CARD_INDEX

SCHEMA_VERSION: Final[int] = 1

CONTRACTS: Final[tuple[str, ...]] = ("eicheln", "schilten", "rosen", "schellen", "obenabe", "undenufe")
#: Contracts only Coiffeur rows play: Slalom (Obenabe and Undenufe trick by trick,
#: Obenabe first) and Misère (played as Obenabe, the team writes what it did not take).
ROW_ONLY_CONTRACTS: Final[tuple[str, ...]] = ("slalom", "misere")
#: Every contract a round may be played in (``CONTRACTS`` in every variant, the rest in Coiffeur).
ROUND_CONTRACTS: Final[tuple[str, ...]] = CONTRACTS + ROW_ONLY_CONTRACTS
VARIANTS: Final[tuple[str, ...]] = ("schieber", "speck", "coiffeur", "differenzler")
#: Variants where each of the four plays for themselves (scores per seat, not per team).
INDIVIDUAL_VARIANTS: Final[tuple[str, ...]] = ("speck", "differenzler")
#: Coiffeur's default rows, factor 1 up to 8 in this order.
DEFAULT_COIFFEUR_ROWS: Final[tuple[tuple[str, int], ...]] = (
    ("eicheln", 1),
    ("schellen", 2),
    ("rosen", 3),
    ("schilten", 4),
    ("obenabe", 5),
    ("undenufe", 6),
    ("slalom", 7),
    ("misere", 8),
)
#: The most points a forecast may name (Differenzler): every card and the last trick,
#: or with Weis and Stöck counted, a generous bound on what a hand can add.
MAX_FORECAST: Final[int] = 157
MAX_FORECAST_WITH_WEIS: Final[int] = 1000
#: Seats a ``trick_collected`` may name ``unseen``: the trick on the table holds at least one seen card.
MAX_UNSEEN: Final[int] = 3
BLOCKS: Final[tuple[str, ...]] = ("weis", "stoeck", "tricks")
MULTIPLIER_TABLES: Final[tuple[str, ...]] = ("default", "common", "ascending", "custom")
#: The camera image's edges, counter-clockwise as seen on screen.
IMAGE_EDGES: Final[tuple[str, ...]] = ("bottom", "right", "top", "left")


class EventError(ValueError):
    """An event that does not follow the schema; the message says which field and why."""


@dataclass(frozen=True)
class GameConfigured:
    """Starts a game: who sits where and which table rules apply."""

    players: tuple[str, ...] = ("Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4")
    variant: str = "schieber"
    target: int = 1000
    multipliers: str = "default"
    custom_multipliers: dict[str, int] | None = None
    end_order: tuple[str, ...] = BLOCKS
    weis_one_per_player: bool = False
    weis_needs_trick: bool = False
    speck_games: int = 12
    #: Speck Jass: the seat of the scorer (Schreiber, 2.5.1) and of the dealer of the
    #: first game (2.6.1: the Schreiber deals first); the deal then moves one seat on.
    scorer: int | None = None
    dealer: int | None = None
    #: 003 «Eine Karte kann nicht für mehrere Weise verwendet werden»: a player's Weis that
    #: shares a card with a stronger one of theirs is dropped.
    weis_card_once: bool = False
    #: ``reached`` (total >= target, the default) or ``exceeded`` (001 «überschreitet»: >).
    target_rule: str = "reached"
    #: A game continued from paper (the Jasstafel, or the totals written before a power
    #: cut): the totals so far, per team (Schieber, team 0 first) or per seat (Speck).
    prior_totals: tuple[int, ...] | None = None
    #: Speck: how many of the ``speck_games`` were played on paper before (their points
    #: are ``prior_totals``); the series ends after the rest is played here.
    prior_games: int = 0
    #: Which edge of the camera image each seat sits at, seat 0 first (the table's
    #: layout; the camera's evidence on who laid a card and who took a trick is read
    #: against it). None: not recorded, seat 0 at the bottom and play counter-clockwise.
    seat_edges: tuple[str, str, str, str] | None = None
    #: Coiffeur: the rows each team plays once, as (contract, factor) pairs in the order
    #: of the Tafel; None means ``DEFAULT_COIFFEUR_ROWS``.
    coiffeur_rows: tuple[tuple[str, int], ...] | None = None
    #: Coiffeur: points a Match adds to the row before its factor (100: 157 becomes 257).
    coiffeur_match_bonus: int = 100
    #: Coiffeur and Differenzler: whether Weis and Stöck count. None is the variant's
    #: default (Coiffeur yes, as in the Schieber; Differenzler no).
    count_weis: bool | None = None
    #: Differenzler: the rounds the game runs.
    differenzler_rounds: int = 12
    t: float | None = None
    type: str = field(default="game_configured", init=False)

    @property
    def rows(self) -> tuple[tuple[str, int], ...]:
        """Coiffeur's rows as played: the set ones, else the default eight."""
        return self.coiffeur_rows if self.coiffeur_rows is not None else DEFAULT_COIFFEUR_ROWS

    @property
    def weis_counts(self) -> bool:
        """Whether Weis and Stöck count in this game (Schieber always, Speck never)."""
        if self.variant == "schieber":
            return True
        if self.variant == "speck":
            return False
        if self.count_weis is not None:
            return self.count_weis
        return self.variant == "coiffeur"


@dataclass(frozen=True)
class RoundStarted:
    """A new round (Speck: a new game) with its contract.

    ``forehand`` leads the first trick; ``declarer`` chose the contract (the partner of
    forehand after Schieben). In Speck Jass the contract comes from ``bodentrumpf``.
    """

    forehand: int
    contract: str
    declarer: int | None = None
    schoben: bool = False
    bodentrumpf: str | None = None
    #: Coiffeur: the row (index into ``GameConfigured.rows``) the declarer's team plays;
    #: ``contract`` is that row's contract.
    row: int | None = None
    t: float | None = None
    type: str = field(default="round_started", init=False)


@dataclass(frozen=True)
class CardPlayed:
    """A card laid into the current trick by ``seat``.

    ``alternatives`` lists other ids the camera found plausible, with confidence, so the
    table can be asked; ``source`` is ``camera`` or ``manual``. ``seat_seen``: the camera
    took ``seat`` from what it saw, not from the turn order: an arm from that seat's edge
    alone, the hand coming in from that edge or the card squarely in front of that seat
    where the turn named another seat; or where the card lies when nobody knew whose turn
    it was. A lead so seen, with the trick then played round from it, keeps its trick's
    order: the table played from that lead (``Folder.lay_in_turn``).
    """

    seat: int
    card: str
    t: float | None = None
    confidence: float | None = None
    alternatives: tuple[tuple[str, float], ...] = ()
    source: str = "camera"
    seat_seen: bool = False
    type: str = field(default="card_played", init=False)


@dataclass(frozen=True)
class TrickCollected:
    """The four cards left the table; ``seat`` is who the camera saw collect them.

    ``unseen``: the camera saw the trick swept with fewer than four cards read; these
    seats' cards were never seen (one, or two when two cards were laid at once on one
    spot and the lower never showed). The rules engine keeps the trick open for those
    cards (the table enters them, or they are the cards of the round nobody else played)
    instead of letting the next trick's cards fill the gap and shift every later trick.
    In JSON one seat is a number, as builds that know only one unseen card read it, and
    several are a list, which such a build refuses rather than misreads.
    """

    seat: int | None = None
    t: float | None = None
    unseen: tuple[int, ...] = ()
    type: str = field(default="trick_collected", init=False)


@dataclass(frozen=True)
class WeisDeclared:
    """Weis announced by ``seat`` during the first trick, with the cards they are made of.

    ``weis`` names each Weis on its own, a list of card lists, so one card may serve a
    sequence and a four of a kind at once (000 «Ein Kartenblatt darf gleichzeitig zu
    einer Sequenz und zu einem Vierling gehören»). The older form ``cards`` is one flat
    list that the engine splits into the Weis it contains; it is still read. An event
    has one of the two.
    """

    seat: int
    cards: tuple[str, ...] = ()
    weis: tuple[tuple[str, ...], ...] = ()
    t: float | None = None
    type: str = field(default="weis_declared", init=False)

    @property
    def all_cards(self) -> tuple[str, ...]:
        """Every card of the declaration once, in deck order."""
        found = set(self.cards) | {c for group in self.weis for c in group}
        return tuple(sorted(found, key=CARD_INDEX.__getitem__))


@dataclass(frozen=True)
class StoeckCalled:
    """``seat`` said «Stöck»; the engine judges whether it came in time."""

    seat: int
    t: float | None = None
    type: str = field(default="stoeck_called", init=False)


@dataclass(frozen=True)
class CardCorrected:
    """The card of the ``card_played`` event at position ``ref`` was really ``card``."""

    ref: int
    card: str
    seat: int | None = None
    t: float | None = None
    type: str = field(default="card_corrected", init=False)


@dataclass(frozen=True)
class EventVoided:
    """Undo: the event at position ``ref`` no longer counts."""

    ref: int
    t: float | None = None
    type: str = field(default="event_voided", init=False)


@dataclass(frozen=True)
class MisplayRuled:
    """Speck Jass 2.8: the table's ruling on a flagged misplay.

    ``ruling`` is ``penalty`` (the card loses its trick value, as section 2.8 says) or
    ``ignore`` (the table lets it stand).
    """

    ref: int
    ruling: str
    t: float | None = None
    type: str = field(default="misplay_ruled", init=False)


@dataclass(frozen=True)
class ForecastMade:
    """Differenzler: ``seat`` forecasts the points it will take this round.

    Secret until the round ends: ``GameState.to_dict`` shows only that a seat has
    forecast, and ``scoring.differenzler.hidden_positions`` names the events a screen
    must not show yet. Made before the round's first card (for the round about to be
    played: the one started with no card yet, else the next); a seat's later forecast
    before that card replaces its earlier one.
    """

    seat: int
    points: int
    t: float | None = None
    type: str = field(default="forecast_made", init=False)


@dataclass(frozen=True)
class RoundEntered:
    """A whole round written by hand (the camera was off or missed it).

    ``points`` are the card points (with the last trick) that ``team`` took; the other
    team took 157 - ``points``. ``match``: ``team`` took all nine tricks (``points`` is
    then 157 and the team writes 257). Speck and Differenzler give ``player_points``
    instead (per seat, adding up to 157). ``weis`` is what each team (per seat in
    Differenzler) writes for Weis, ``stoeck`` the team (seat) with Stöck. The engine
    writes it as it writes a round the camera saw: the factor, Misère's reversal, the
    Coiffeur row.
    """

    contract: str
    forehand: int | None = None
    declarer: int | None = None
    schoben: bool = False
    row: int | None = None
    team: int | None = None
    points: int | None = None
    match: bool = False
    player_points: tuple[int, int, int, int] | None = None
    weis: tuple[int, ...] = ()
    stoeck: int | None = None
    t: float | None = None
    type: str = field(default="round_entered", init=False)


Event = (
    GameConfigured
    | RoundStarted
    | CardPlayed
    | TrickCollected
    | WeisDeclared
    | StoeckCalled
    | CardCorrected
    | EventVoided
    | MisplayRuled
    | ForecastMade
    | RoundEntered
)

EVENT_TYPES: Final[dict[str, type]] = {
    cls.__dataclass_fields__["type"].default: cls  # type: ignore[misc]
    for cls in (
        GameConfigured,
        RoundStarted,
        CardPlayed,
        TrickCollected,
        WeisDeclared,
        StoeckCalled,
        CardCorrected,
        EventVoided,
        MisplayRuled,
        ForecastMade,
        RoundEntered,
    )
}


#: The longest player name, in characters (a name is shown on every phone and score sheet).
MAX_NAME: Final[int] = 60
