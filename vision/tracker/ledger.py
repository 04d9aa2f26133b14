"""The round as the tracker has counted it so far: the tracker's bookkeeping, apart from
the pictures.

Why a class of its own: what a round's cards say (who leads, whose turn it is, which suits
a player has shown not to hold, which cards are played) follows from the cards counted and
the tricks collected alone. Kept apart from the tracks, it can be read and changed in one
place, and every change ends in one recomputation of what follows from it, so a reread or
a withdrawn card cannot leave a stale leader or void behind.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from scoring.cards import CARD_INDEX
from scoring.events import CardPlayed, Event, RoundStarted, TrickCollected, WeisDeclared
from scoring.rules import trick_winner, turn_order
from vision.tracker.identity import cards_not_held

TRICKS_PER_ROUND = 9
#: Centres of two cards closer than this (in card sizes, the mean side) put one partly over
#: the other: a Jass card's short side is about 0.8 of its mean side.
COVERING_DISTANCE = 0.8


@dataclass
class Laid:
    """A card counted in the current trick, and the track that shows it on the table."""

    track_id: int
    seat: int
    card: str
    placed: tuple[float, float]
    size: float
    #: When the card counted first showed: kept when another track shows it later (a
    #: card hidden and seen anew starts a new track, whose first sighting is not the card's).
    shown_t: float


@dataclass(frozen=True)
class Count:
    """How a card of this round was counted: enough to reconsider it later."""

    seat: int
    confidence: float
    votes: dict[str, float]


def collected_tricks(
    history: Sequence[Event],
) -> tuple[list[list[tuple[int, str]]], list[tuple[int, str]], float | None]:
    """A round's stored events read as the ledger keeps a round: the collected tricks
    ((seat, card) in the order laid), the cards laid since, and when the last trick was
    collected. A trick collected with cards never seen has fewer than four."""
    done: list[list[tuple[int, str]]] = []
    trick: list[tuple[int, str]] = []
    collected_t: float | None = None
    for e in history:
        if isinstance(e, CardPlayed):
            if len(trick) == 4:  # a trick left uncollected: the next card leads anew
                trick = []
            trick.append((e.seat, e.card))
        elif isinstance(e, TrickCollected) and (len(trick) == 4 or (e.unseen and len(trick) + len(e.unseen) == 4)):
            done.append(trick)
            trick = []
            collected_t = e.t if e.t is not None else collected_t
    return done, trick, collected_t


def _seats_seen(history: Sequence[Event]) -> set[str]:
    """The cards of ``history`` whose seat came from what the camera saw (``CardPlayed.seat_seen``)."""
    return {e.card for e in history if isinstance(e, CardPlayed) and e.seat_seen}


def _declared(history: Sequence[Event]) -> dict[str, int]:
    """The cards of the Weis declared in ``history``, each with the seat whose hand holds it."""
    return {card: e.seat for e in history if isinstance(e, WeisDeclared) for card in e.all_cards}


def in_turn(trick: list[tuple[int, str]], leader: int | None, seat_seen: Collection[str] = ()) -> list[tuple[int, str]]:
    """``trick``'s (seat, card) pairs in turn order from ``leader`` (as seen when the leader is unknown or
    has no card among them, or a seat lies twice).

    A full trick whose lead's seat came from what the camera saw (its card in
    ``seat_seen``) and played round from it stays as laid, as the rules engine keeps it
    (``scoring.folder.Folder.lay_in_turn``)."""
    seats = [seat for seat, _ in trick]
    if leader is None or len(set(seats)) != len(seats) or leader not in seats:
        return list(trick)
    if len(trick) == 4 and trick[0][1] in seat_seen and seats == turn_order(seats[0]):
        return list(trick)
    order = turn_order(leader)
    return sorted(trick, key=lambda c: order.index(c[0]))


class RoundLedger:
    """The contract, the trick on the table, the tricks collected and what they imply.

    The tracker's collaborators read it freely and change it only through its methods
    (or, for a counted card's evidence, ``counted``), each of which leaves the leader and
    the voids recomputed.
    """

    def __init__(self) -> None:
        self.contract: str | None = None
        #: The seat that led (or leads) the current trick.
        self.leader = 0
        #: Whether ``leader`` follows from the tricks (not after a trick whose winner
        #: a card never read leaves open).
        self.leader_known = True
        self.forehand = 0
        self.trick: list[Laid] = []
        self.tricks_done = 0
        self.played: set[str] = set()
        #: How each card of this round was counted (seat, confidence, its vote).
        self.counted: dict[str, Count] = {}
        #: (seat, card) of the tricks collected this round, for the leader and the voids.
        self.done: list[list[tuple[int, str]]] = []
        self.not_held: dict[int, set[str]] = {s: set() for s in range(4)}
        #: Centres of recent complete tricks (mean of their four cards), in pixels.
        self.trick_centres: deque[tuple[float, float]] = deque(maxlen=9)
        self.last_collected_t: float | None = None
        #: When the last card of the trick collected last first showed (None unless that
        #: trick was full): a card that showed after it came while that trick lay full.
        self.last_full_t: float | None = None
        #: Speck: the turned-up Bodentrumpf.
        self.bodentrumpf: str | None = None
        #: Track ids of cards shown, not played, and where each lay when it was shown.
        self.shown: dict[int, tuple[float, float]] = {}
        #: Cards of this round whose seat came from what the camera saw, not the turn
        #: (``CardPlayed.seat_seen``): a lead among them may lead its trick as laid.
        self.seat_seen: set[str] = set()
        #: The cards of the Weis the table declared this round, each with the seat that holds
        #: it: who laid a declared card is known, whatever its place says.
        self.held: dict[str, int] = {}

    @property
    def last_trick(self) -> list[tuple[int, str]]:
        """(seat, card) of the trick collected last; empty before the round's first."""
        return self.done[-1] if self.done else []

    @property
    def round_over(self) -> bool:
        return self.tricks_done >= TRICKS_PER_ROUND

    @property
    def table_centre(self) -> tuple[float, float] | None:
        """The table centre measured from the tricks so far (pixels), None before the first.

        Cards of a trick lie around the real table centre, which need not be the image
        centre (a camera mounted off-centre); the median over recent tricks is robust to
        a trick laid askew.
        """
        if not self.trick_centres:
            return None
        xs = sorted(c[0] for c in self.trick_centres)
        ys = sorted(c[1] for c in self.trick_centres)
        return (xs[len(xs) // 2], ys[len(ys) // 2])

    def start(self, event: RoundStarted, shown: dict[int, tuple[float, float]]) -> None:
        """A new round: ``event``'s contract, forehand and Bodentrumpf, nothing counted yet;
        ``shown``: the cards lying face up that are not to count."""
        self.contract = event.contract
        self.bodentrumpf = event.bodentrumpf
        self.shown = shown
        self.leader = self.forehand = event.forehand
        self.trick = []
        self.tricks_done = 0
        self.played = set()
        self.counted = {}
        self.done = []
        self.seat_seen = set()
        self.not_held = {s: set() for s in range(4)}
        self.held = {}

    def declare(self, event: WeisDeclared) -> None:
        """The table declared ``event``'s Weis: its cards are in that seat's hand."""
        self.held.update(dict.fromkeys(event.all_cards, event.seat))

    def replay(self, history: Sequence[Event]) -> None:
        """Take the collected tricks among a resumed round's stored ``history`` as done
        (their cards played, the last winner leading); the trick still on the table is
        left out, because the camera will see it again."""
        assert self.contract is not None
        done, _, collected_t = collected_tricks(history)
        self.seat_seen = _seats_seen(history)
        self.held = _declared(history)
        for trick in done:
            self.played.update(c for _, c in trick)
        self.done = done[:TRICKS_PER_ROUND]
        # A resumed recording starts a little before this: that trick's cards seen still
        # lying then are old cards, not new ones (``TrickTracker._may_be_old_card``).
        self.last_collected_t = collected_t if collected_t is not None else self.last_collected_t
        self.last_full_t = None
        self.tricks_done = len(self.done)
        self.recompute_constraints()

    def amend(self, history: Sequence[Event]) -> tuple[list[tuple[int, str]], list[int]]:
        """The table corrected this round: take the collected tricks of ``history`` (the
        round's events as the rules engine counts them now) as the table has them, and
        give the cards of the trick on the table the table's names and seats in the order
        laid. Returns the tracks to rename (track id, card) and those of cards the table
        took out of the trick (never to count again)."""
        done, open_cards, _ = collected_tricks(history)
        self.seat_seen = _seats_seen(history)
        self.held = _declared(history)
        self.done = done[:TRICKS_PER_ROUND]
        self.tricks_done = len(self.done)
        renamed: list[tuple[int, str]] = []
        dropped: list[int] = []
        if len(open_cards) != len(self.trick):
            kept = {card for _, card in open_cards}
            dropped = [laid.track_id for laid in self.trick if laid.card not in kept]
            self.trick = [laid for laid in self.trick if laid.card in kept]
        else:
            for laid, (seat, card) in zip(self.trick, open_cards, strict=True):
                if card != laid.card:
                    count = self.counted.pop(laid.card, None)
                    if count is not None:
                        self.counted[card] = count
                    laid.card = card
                    renamed.append((laid.track_id, card))
                laid.seat = seat
        self.played = {card for trick in self.done for _, card in trick} | {laid.card for laid in self.trick}
        self.counted = {
            card: replace(count, seat=seat)
            for trick in [*self.done, [(laid.seat, laid.card) for laid in self.trick]]
            for seat, card in trick
            if (count := self.counted.get(card)) is not None
        }
        self.recompute_constraints()
        return renamed, dropped

    def covered_by_later(self, laid: Laid) -> bool:
        """Does a card counted after ``laid`` lie over part of it (their centres closer than
        a card's short side, whichever way either is turned)?"""
        later = self.trick[self.trick.index(laid) + 1 :]
        return any(math.dist(laid.placed, other.placed) < COVERING_DISTANCE * laid.size for other in later)

    def expected_seat(self, before: int | None = None) -> int | None:
        """Whose turn the card after the trick's first ``before`` cards (default: all of
        them) is: the first seat in turn order from the leader that has not laid one of
        them. A card laid out of turn leaves the turn where it was. None when nobody knows
        who leads (the last trick had an unseen card) or the trick is full."""
        n = len(self.trick) if before is None else before
        if n == 0 and not self.leader_known:
            return None
        taken = {laid.seat for laid in self.trick[:n]}
        # After a lead seen laid by another seat than the leader, the table plays round from it.
        start = self.trick[0].seat if n and self.trick[0].card in self.seat_seen else self.leader
        return next((seat for seat in turn_order(start) if seat not in taken), None)

    def upcoming_seat(self) -> int | None:
        """Whose the next card counted is: the turn's, or after a full trick still lying
        there, its winner's (the lead of the next trick)."""
        return self.expected_seat() if len(self.trick) < 4 else self.full_trick_winner()

    def full_trick_winner(self) -> int | None:
        """Who takes the full trick on the table, and so leads the next; None when that is
        not known (fewer than four seats, or a first card neither the leader's nor seen)."""
        if self.contract is None or len(self.trick) < 4:
            return None
        cards = in_turn([(laid.seat, laid.card) for laid in self.trick], self.leader, self.seat_seen)
        led_as_seen = cards[0][1] in self.seat_seen
        if len({seat for seat, _ in cards}) < 4 or (cards[0][0] != self.leader and not led_as_seen):
            return None
        return cards[trick_winner([c for _, c in cards], self.contract, trick=len(self.done))][0]

    def play(self, laid: Laid, count: Count, seat_seen: bool = False) -> None:
        """Count ``laid`` into the trick on the table (``seat_seen``: its seat came from what
        the camera saw, not the turn)."""
        self.trick.append(laid)
        self.counted[laid.card] = count
        self.played.add(laid.card)
        if seat_seen:
            self.seat_seen.add(laid.card)
        self.recompute_constraints()

    def reread(self, was: str, now: str, count: Count) -> list[int]:
        """Count the earlier card ``was`` as ``now`` (counted as ``count``) from now on;
        returns the ids of the tracks that show it in the trick on the table."""
        self.counted.pop(was, None)
        self.counted[now] = count
        self.played.discard(was)
        self.played.add(now)
        if was in self.seat_seen:
            self.seat_seen = (self.seat_seen - {was}) | {now}
        shown_by = []
        for laid in self.trick:
            if laid.card == was:
                laid.card = now
                shown_by.append(laid.track_id)
        for trick in self.done:
            trick[:] = [(seat, now if c == was else c) for seat, c in trick]
        self.recompute_constraints()
        return shown_by

    def reseat(self, laid: Laid, seat: int) -> None:
        """``laid`` was laid by ``seat``, not the seat it counted for."""
        laid.seat = seat
        count = self.counted.get(laid.card)
        if count is not None:
            self.counted[laid.card] = replace(count, seat=seat)
        self.recompute_constraints()

    def swap_last_two(self) -> None:
        """The trick's last two cards were laid by each other's players: each takes the
        other's seat and place in the order of play (the seats stay in turn)."""
        first, second = self.trick[-2], self.trick[-1]
        first.seat, second.seat = second.seat, first.seat
        self.trick[-2:] = [second, first]
        for laid in (first, second):
            self.counted[laid.card] = replace(self.counted[laid.card], seat=laid.seat)
        self.recompute_constraints()

    def withdraw(self, carried: Sequence[Laid]) -> None:
        """The cards ``carried`` of the trick on the table do not count: as if never laid."""
        for laid in carried:
            self.trick.remove(laid)
            self.played.discard(laid.card)
            self.seat_seen.discard(laid.card)
            self.counted.pop(laid.card, None)
        if carried:
            self.recompute_constraints()

    def collect(self, t: float, full_t: float | None = None) -> None:
        """The trick on the table was collected at ``t`` (whatever cards it has); ``full_t``:
        when its fourth card first showed."""
        self.last_full_t = full_t if len(self.trick) == 4 else None
        self.done.append([(laid.seat, laid.card) for laid in self.trick])
        if len(self.trick) == 4 and len({laid.seat for laid in self.trick}) == 4:
            self.trick_centres.append(
                (
                    sum(laid.placed[0] for laid in self.trick) / 4,
                    sum(laid.placed[1] for laid in self.trick) / 4,
                )
            )
        self.trick = []
        self.recompute_constraints()
        self.tricks_done += 1
        self.last_collected_t = t

    def recompute_constraints(self) -> None:
        """Who leads and which suits each player has shown not to hold, from the cards as
        now counted. Recomputed after every card, collection and reread rather than kept
        up incrementally, so a reread that changes a trick's winner or a follow cannot
        leave a stale constraint behind (nine tricks: the cost is nothing).

        Each full trick is read in turn from its rightful leader, as the rules engine
        keeps it (``scoring.folder.Folder.lay_in_turn``, which puts a full trick back in
        turn order whatever order its cards were seen in): a lead seen after the next
        seat's card is still the lead. In the open trick, nothing is taken from the cards
        before the leader's is seen."""
        assert self.contract is not None
        self.not_held = {s: set() for s in range(4)}
        leader: int | None = self.forehand
        for n, trick in enumerate(self.done):
            cards = in_turn(trick, leader, self.seat_seen)
            if leader is None or any(seat == leader for seat, _ in cards):
                self._note_follows(cards)
            leader = self.winner(trick, leader, n)
        open_trick = [(laid.seat, laid.card) for laid in self.trick]
        if leader is not None:
            open_trick = in_turn(open_trick, leader) if any(seat == leader for seat, _ in open_trick) else []
        self._note_follows(open_trick)
        self.leader_known = leader is not None
        if leader is not None:
            self.leader = leader
        elif self.done and self.trick:  # after an unseen card: whoever led this trick
            self.leader = self.trick[0].seat

    def winner(self, trick: list[tuple[int, str]], leader: int | None, n: int) -> int | None:
        """The seat that took the collected trick ``trick`` (the round's ``n``-th, led by
        ``leader``), None when that cannot be known.

        A trick swept with one card never read still has a known winner when every card
        not yet played this round, as the unseen one, leaves the same seat winning: the
        trump Under led, or the highest card of the led suit with no trump left to beat it.
        Then the next trick's seats still follow the turn; guessing them from where the
        cards lie gave neighbours each other's cards."""
        contract = self.contract
        assert contract is not None

        def taker(cards: list[tuple[int, str]]) -> int:
            in_order = in_turn(cards, leader, self.seat_seen)
            return in_order[trick_winner([c for _, c in in_order], contract, trick=n)][0]

        if len(trick) == 4:  # led by the first card seen when the leader is not known
            return taker(trick)
        seats = {seat for seat, _ in trick}
        if leader is None or len(trick) != 3 or len(seats) != 3:
            return None
        missing = next(seat for seat in range(4) if seat not in seats)
        winners = {taker([*trick, (missing, card)]) for card in CARD_INDEX if card not in self.played}
        return winners.pop() if len(winners) == 1 else None

    def _note_follows(self, cards: list[tuple[int, str]]) -> None:
        """What the cards after a trick's lead say their players do not hold."""
        assert self.contract is not None
        if cards:
            lead = cards[0][1]
            for seat, card in cards[1:]:
                self.not_held[seat] |= cards_not_held(lead, card, self.contract)
