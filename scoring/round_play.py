"""The fold's working record of a round: its cards, tricks, Weis and what is still open.

``RoundRecord`` is mutable and private to the fold (the handlers in
``scoring.folder`` add to it event by event); ``scoring.snapshot`` turns it into the
frozen ``RoundState`` the dashboard sees. It answers the questions of the trick under
way: whose turn it is, who leads, which contract the next trick is played in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.events import CardPlayed, RoundEntered, RoundStarted, TrickCollected
from scoring.rules import LAST_TRICK_BONUS, card_points, next_seat, trick_winner, turn_order
from scoring.state import PlayedCard, Trick
from scoring.stoeck import StoeckTracker
from scoring.weis import Declared


@dataclass
class Declaration:
    """One ``weis_declared`` as the round judges it: the Weis it holds and what stops them counting."""

    seat: int
    cards: tuple[str, ...]
    ref: int
    late: bool
    weis: list[Declared]
    not_in_hand: bool = False
    #: Indexes into ``weis`` of Weis the seat had declared before (not counted again).
    dups: set[int] = field(default_factory=set)


@dataclass
class RoundRecord:
    """A round as the fold builds it: ``plays`` in turn order, ``table`` the trick under way."""

    index: int
    ref: int
    start: RoundStarted
    multiplier: int
    trump: str | None
    stoeck: StoeckTracker
    plays: list[PlayedCard] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    table: list[PlayedCard] = field(default_factory=list)
    decls: list[Declaration] = field(default_factory=list)
    checked: set[int] = field(default_factory=set)  # refs already flagged as illegal
    abandoned: bool = False
    #: Index into ``plays`` where each trick began (a trick with unseen cards has fewer than four).
    starts: list[int] = field(default_factory=list)
    #: Positions of cards the fold filled in as the one card nobody else played.
    deduced: set[int] = field(default_factory=set)
    #: Positions of cards whose seat the camera took from what it saw (``CardPlayed.seat_seen``).
    seat_seen: set[int] = field(default_factory=set)
    #: The round was entered by hand (``round_entered``): no cards, its points as entered.
    entered: RoundEntered | None = None
    #: Differenzler: each seat's forecast (the latest before the first card) and its position.
    forecasts: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Position of the event that ended the round (its last card, its entry, or the next
    #: round's start when it was abandoned); None while it runs.
    ended: int | None = None

    @property
    def contract(self) -> str:
        return self.start.contract

    @property
    def complete(self) -> bool:
        return self.entered is not None or len(self.plays) == 36

    @property
    def open_trick(self) -> list[PlayedCard]:
        return self.table if len(self.table) < 4 else []

    @property
    def leader(self) -> int:
        return self.tricks[-1].winner if self.tricks else self.start.forehand

    @property
    def leader_unknown(self) -> bool:
        """The last trick still waits for an unseen card, so nobody knows who won it and leads."""
        return bool(self.tricks) and bool(self.tricks[-1].unseen) and len(self.tricks[-1].cards) < 4

    def next_trick(self, cards: tuple[PlayedCard, ...], leader: int, unseen: tuple[int, ...] = ()) -> Trick:
        """The round's next trick made of ``cards``: its winner and card points (the ninth
        with the last-trick bonus). With ``unseen`` it lacks those seats' cards and is
        collected already, its winner and points provisional until they are known."""
        idx = trick_winner([c.card for c in cards], self.contract, void=[c.void for c in cards], trick=len(self.tricks))
        last = len(self.tricks) == 8
        points = sum(card_points(c.card, self.contract) for c in cards) + (LAST_TRICK_BONUS if last else 0)
        winner = cards[idx].seat
        return Trick(len(self.tricks), cards, leader, winner, points, last, collected=bool(unseen), unseen=unseen)

    def expected_seat(self) -> int | None:
        if self.complete:
            return None
        trick = self.open_trick
        if not trick:
            if self.leader_unknown:
                return None  # anyone may lead
            return self.leader
        seen = {p.seat for p in trick}
        seat = next_seat(trick[-1].seat)
        while seat in seen:
            seat = next_seat(seat)
        return seat

    def in_turn(self, seat: int) -> bool:
        """May ``seat`` lay the trick's next card without playing out of turn?

        The seat the play has come round to (``expected_seat``), or the seat whose turn
        it was from the trick's leader, which an early card left where it was (Speck
        2.8.6: «Eine zu früh gespielte Karte muss liegen bleiben»; 2.8.3: «Der Spieler,
        welcher an der Reihe gewesen wäre, muss ausspielen»). Without the second, the
        card of the player whose turn it was, laid after a card laid too early, would be
        flagged too; without the first, each card of a table playing on round from a
        wrong lead would be.
        """
        expected = self.expected_seat()
        if expected is None or seat == expected:
            return True
        trick = self.open_trick
        if not trick or self.leader_unknown:
            return False  # a lead, or the leader is not known: only the seat the play came round to
        seen = {p.seat for p in trick}
        return seat == next(s for s in turn_order(self.leader) if s not in seen)


#: Where a card goes back into the event list (position of a seen card, after it), the
#: position it carries, and the card.
Fill = tuple[tuple[int, bool], int, CardPlayed]


@dataclass(frozen=True)
class Gap:
    """One card of a trick collected unseen, as the fold met it: a trick with two unseen
    cards leaves two gaps, one per ``seat``, filled one at a time."""

    round: int
    ref: int  # position of its trick_collected
    leader: int
    seen: tuple[tuple[int, int], ...]  # (seat, position) of the trick's known cards, in play order
    event: TrickCollected
    seat: int  # whose card is missing

    def anchor(self) -> tuple[int, bool]:
        """Where the unseen card was laid, as (position of a known card, after it): right
        after the known card of the turn before it, or before the first known card when
        it came before them all. Right after, so that what was said while it lay there (a
        Stöck call, a Weis) stays after it."""
        order = turn_order(self.leader)
        k = order.index(self.seat)
        earlier = [ref for seat, ref in self.seen if order.index(seat) < k]
        return (earlier[-1], True) if earlier else (self.seen[0][1], False)


__all__ = ["Declaration", "Fill", "Gap", "RoundRecord"]
