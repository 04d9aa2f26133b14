"""Whole rounds laid the way a real table lays them, as synthetic detection streams.

Cards lie close together near the centre, overlapping, each turned toward its player by
up to ±25° (either end first), so where a card lies says little about who laid it. And
the table does what tables do, each habit drawn at random per card or trick
(``Habits``): the laying hand still covers part of the card for a few frames; the next
hand passes over the card before; two cards are laid almost together (the second may
settle first); a card is nudged or straightened after it was laid; a wrong card is laid
and taken back before the next; a card is tossed (first seen where it lands); the trick
is left lying and the winner leads the next card beside or on top of it; the trick is
swept toward the winner's edge or picked up into the hand; the last trick is turned face
up to count while the next round is set up. Optionally one card per round is laid out of
turn, the hand coming in from its player's edge.

Every detection is the truth (the whole card's corners, as the recogniser reports them,
jittered): this is the oracle that measures the tracker alone, independent of the
renderer. The ground-truth events (cards timed at the frame they came to rest) come with
the frames, for ``vision.tracker.evaluate.compare``.

Test and benchmark helper only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from scoring.events import CONTRACTS, CardPlayed, Event, GameConfigured, RoundStarted, TrickCollected
from scoring.rules import trick_winner, turn_order
from scoring.simulate import random_round
from tests.tracker.table import CENTRE, Table, _Card
from vision.detection import FrameDetections

#: Unit vector from the centre towards each seat's edge (default layout).
TOWARDS = {0: (0.0, 1.0), 1: (1.0, 0.0), 2: (0.0, -1.0), 3: (-1.0, 0.0)}


@dataclass(frozen=True)
class Habits:
    """How often each habit happens (chance per card, or per trick / round where said)."""

    cover: float = 0.3  #: the laying hand still covers part of the card for a few frames
    cover_previous: float = 0.2  #: the next hand passes over the card laid before
    together: float = 0.1  #: the next card is laid almost together with this one
    nudge: float = 0.1  #: the card is nudged or straightened a little after it was laid
    take_back: float = 0.03  #: a wrong card is laid first and taken back before the next
    toss: float = 0.15  #: tossed: first seen where it lands, no hand seen coming in
    left_lying: float = 0.15  #: per trick: left lying; the next lead is laid beside or on it
    pick_up: float = 0.4  #: per trick: picked up into the hand rather than swept
    turn_up_last: float = 1.0  #: per round: the last trick is turned face up to count
    out_of_turn: float = 0.0  #: per round: one card is laid out of turn
    jitter: float = 2.0  #: detector noise, pixels


@dataclass
class NearGame:
    frames: list[FrameDetections] = field(default_factory=list)
    truth: list[Event] = field(default_factory=list)
    #: (round, trick, seat) of each card laid out of turn on purpose.
    out_of_turn: list[tuple[int, int, int]] = field(default_factory=list)


def _spot(rng: random.Random, seat: int) -> tuple[tuple[float, float], float]:
    """Where ``seat`` lays its card near the centre, and its angle."""
    ex, ey = TOWARDS[seat]
    out = rng.uniform(14.0, 40.0)
    side = rng.uniform(-22.0, 22.0)
    pos = (CENTRE[0] + ex * out - ey * side, CENTRE[1] + ey * out + ex * side)
    base = 0.0 if seat in (0, 2) else 90.0
    return pos, base + rng.uniform(-25.0, 25.0) + (180.0 if rng.random() < 0.5 else 0.0)


def _entry(rng: random.Random, seat: int) -> tuple[float, float]:
    """Where ``seat``'s hand comes into view, holding the card."""
    ex, ey = TOWARDS[seat]
    side = rng.uniform(-60.0, 60.0)
    reach = 200.0 if seat in (0, 2) else 260.0
    return (CENTRE[0] + ex * reach - ey * side, CENTRE[1] + ey * reach + ex * side)


@dataclass
class _Lay:
    card: str
    seat: int
    start: tuple[float, float]
    target: tuple[float, float]
    angle: float
    appear: int  # frame index (within the trick's animation) it comes into view
    slide: int  # frames in motion
    cover: int  # frames at rest still half under the hand
    taken_back: bool = False

    @property
    def arrive(self) -> int:
        return self.appear + self.slide


class _Script:
    def __init__(self, seed: int, habits: Habits) -> None:
        self.rng = random.Random(seed)
        self.h = habits
        self.table = Table(jitter=habits.jitter)
        self.table._noise = random.Random(seed * 31 + 7)
        self.game = NearGame()
        #: Cards laid out of turn on purpose this round.
        self.deliberate: set[str] = set()

    # -- laying ---------------------------------------------------------------------------

    def _plan(self, seat: int, card: str, appear: int, *, taken_back: bool = False) -> _Lay:
        rng, h = self.rng, self.h
        target, angle = _spot(rng, seat)
        if rng.random() < h.toss and card not in self.deliberate:
            start, slide = (target[0] + rng.uniform(-12, 12), target[1] + rng.uniform(-12, 12)), 1
        else:
            start, slide = _entry(rng, seat), rng.randint(3, 6)
        cover = rng.randint(2, 4) if rng.random() < h.cover else 0
        return _Lay(card, seat, start, target, angle, appear, slide, cover, taken_back)

    def _animate(self, lays: list[_Lay], tail: int) -> None:
        """Run the trick's laying: each card slides in, rests (half covered at first), and
        a taken-back card goes back the way it came; ``tail`` frames after the last."""
        table = self.table
        end = max(lay.arrive + lay.cover for lay in lays) + tail
        passing: dict[str, range] = {}
        for prev, nxt in zip(lays, lays[1:], strict=False):
            if not prev.taken_back and self.rng.random() < self.h.cover_previous:
                # The hand passes over it on its way in, once it lies at rest.
                first = max(nxt.appear, prev.arrive + prev.cover + 1)
                passing[prev.card] = range(first, max(first, nxt.appear + min(2, nxt.slide)))
        nudges: dict[str, int] = {}
        for lay in lays:
            if not lay.taken_back and self.rng.random() < self.h.nudge:
                nudges[lay.card] = lay.arrive + lay.cover + self.rng.randint(3, 6)
        back: dict[str, int] = {
            lay.card: lay.arrive + lay.cover + self.rng.randint(6, 9) for lay in lays if lay.taken_back
        }
        # A card taken back goes back into its player's hand, at that player's edge.
        self._home = {lay.card: _entry(self.rng, lay.seat) for lay in lays if lay.taken_back}
        for f in range(end):
            for lay in lays:
                if f < lay.appear:
                    continue
                if lay.taken_back and f >= back[lay.card]:
                    k = f - back[lay.card]
                    if k >= 3:
                        table.cards.pop(lay.card, None)
                        continue
                    g = (k + 1) / 3
                    home = self._home[lay.card]
                    pos = (lay.target[0] + (home[0] - lay.target[0]) * g, lay.target[1] + (home[1] - lay.target[1]) * g)
                    table.cards[lay.card] = _Card(lay.card, pos, lay.angle)
                    continue
                if f < lay.arrive:
                    g = (f - lay.appear) / lay.slide
                    pos = (
                        lay.start[0] + (lay.target[0] - lay.start[0]) * g,
                        lay.start[1] + (lay.target[1] - lay.start[1]) * g,
                    )
                    table.cards[lay.card] = _Card(lay.card, pos, lay.angle)
                    continue
                if f == lay.arrive and not lay.taken_back:
                    table.rest_times[lay.card] = round(table.t, 6)
                if f == nudges.get(lay.card):
                    # Nudged and straightened a little, a moment after it was laid.
                    dx, dy = self.rng.uniform(-10, 10), self.rng.uniform(-10, 10)
                    lay.target = (lay.target[0] + dx, lay.target[1] + dy)
                    lay.angle += self.rng.choice((-12.0, 12.0))
                card = _Card(lay.card, lay.target, lay.angle)
                if f < lay.arrive + lay.cover:
                    # Half under the hand: the outline the recogniser guesses is smaller and
                    # off towards the hand, and every read is unsure.
                    ex, ey = TOWARDS[lay.seat]
                    card = _Card(lay.card, (lay.target[0] + 8 * ex, lay.target[1] + 8 * ey), lay.angle, 0.8, 0.55)
                table.cards[lay.card] = card
            hidden = {c for c, frames in passing.items() if f in frames}
            table.hidden = hidden
            table.step()
        table.hidden = set()

    def _trick(self, trick: list[tuple[int, str]], later: dict[int, list[str]], beside: bool) -> None:
        """Lay one trick (``later``: each seat's cards still to come, for a mistaken card)."""
        rng, h = self.rng, self.h
        lays: list[_Lay] = []
        at = 0
        for i, (seat, card) in enumerate(trick):
            if lays:
                prev = lays[-1]
                if not prev.taken_back and rng.random() < h.together and not {prev.card, card} & self.deliberate:
                    at = max(prev.appear + 1, prev.arrive - rng.randint(0, 2))
                else:
                    at = prev.arrive + prev.cover + rng.randint(4, 10)
            if later[seat] and rng.random() < h.take_back:
                wrong = self._plan(seat, rng.choice(later[seat]), at, taken_back=True)
                lays.append(wrong)
                at = wrong.arrive + wrong.cover + 6 + 9 + 3 + rng.randint(2, 4)
            lay = self._plan(seat, card, at)
            if i == 0 and beside:
                # Led while the last trick still lies there: beside it, or right on it.
                was = lay.target
                if rng.random() < 0.5:
                    ex, ey = TOWARDS[seat]
                    lay.target = (lay.target[0] + 60 * ex - 55 * ey, lay.target[1] + 60 * ey + 55 * ex)
                else:
                    lay.target = (CENTRE[0] + rng.uniform(-8, 8), CENTRE[1] + rng.uniform(-8, 8))
                if lay.slide == 1:  # tossed: it lands where it is first seen
                    lay.start = (lay.start[0] + lay.target[0] - was[0], lay.start[1] + lay.target[1] - was[1])
            lays.append(lay)
        self._animate(lays, tail=rng.randint(3, 8))
        for lay in lays:
            if not lay.taken_back:
                self.game.truth.append(CardPlayed(seat=lay.seat, card=lay.card, t=self.table.rest_times[lay.card]))

    def _collect(self, winner: int) -> None:
        table, rng = self.table, self.rng
        starts = {k: c.pos for k, c in table.cards.items()}
        if rng.random() < self.h.pick_up:
            # Gathered into a pile in front of the winner, then lifted into the hand.
            ex, ey = TOWARDS[winner]
            pile = (CENTRE[0] + 70 * ex, CENTRE[1] + 70 * ey)
            for k in (1, 2):
                for name, c in table.cards.items():
                    c.pos = (
                        starts[name][0] + (pile[0] - starts[name][0]) * k / 2,
                        starts[name][1] + (pile[1] - starts[name][1]) * k / 2,
                    )
                table.step()
            table.cards.clear()
            self.game.truth.append(TrickCollected(seat=winner, t=round(table.t, 6)))
            table.step(rng.randint(1, 3))
        else:
            table.sweep(winner, frames=rng.randint(2, 4))
            self.game.truth.append(TrickCollected(seat=winner, t=round(table.t, 6)))

    def _turn_up(self, trick: list[tuple[int, str]], winner: int) -> None:
        """The last trick turned face up in front of its winner, to count."""
        ex, ey = TOWARDS[winner]
        for i, (_, card) in enumerate(trick):
            side = (i - 1.5) * 40.0
            pos = (CENTRE[0] + ex * 120 - ey * side, CENTRE[1] + ey * 120 + ex * side)
            self.table.cards[card] = _Card(card, pos, 90.0 if winner in (1, 3) else 0.0)

    # -- rounds ---------------------------------------------------------------------------

    def round(self, index: int, forehand: int) -> None:
        rng, h, table = self.rng, self.h, self.table
        contract = rng.choice(CONTRACTS)
        _, plays = random_round(rng, contract, forehand)
        self.deliberate = set()
        if rng.random() < h.out_of_turn:
            # One player lays before the one whose turn it is (a follower, so the round
            # stays legal): the two cards swap places in the play order.
            at_trick = rng.randrange(9)
            k = at_trick * 4 + rng.randint(1, 2)
            plays[k], plays[k + 1] = plays[k + 1], plays[k]
            self.game.out_of_turn.append((index, at_trick, plays[k][0]))
            # Laid on purpose and plainly: by hand, from its player's edge, on its own.
            self.deliberate = {plays[k][1]}
        self.game.truth.append(RoundStarted(forehand=forehand, contract=contract, t=round(table.t, 6)))
        table.step(rng.randint(3, 8))
        table.cards.clear()  # the last round's turned-up trick put away
        table.step(rng.randint(2, 5))
        later: dict[int, list[str]] = {s: [c for seat, c in plays if seat == s] for s in range(4)}
        lying = False
        for i in range(9):
            trick = plays[i * 4 : i * 4 + 4]
            for seat, card in trick:
                later[seat].remove(card)
            self._trick(trick, later, beside=lying)
            winner = _winner(trick, contract, plays[i * 4][0])
            if lying:
                self._collect(winner)  # both tricks at once
                lying = False
            elif i < 8 and rng.random() < h.left_lying:
                lying = True
                # Nobody took it: the next lead comes while it lies. It counts as collected
                # by its winner when the next card is led.
                self.game.truth.append(TrickCollected(seat=winner, t=round(table.t, 6)))
            else:
                self._collect(winner)
        # Then the cards are counted and dealt again: the next contract comes seconds later.
        table.step(rng.randint(5, 10))
        if rng.random() < h.turn_up_last:
            self._turn_up(plays[32:], _winner(plays[32:], contract, plays[32][0]))
        table.step(rng.randint(10, 25))


def _winner(trick: list[tuple[int, str]], contract: str, leader: int) -> int:
    """The winner of a trick (cards in the order laid), judged in turn from its leader."""
    order = turn_order(leader)
    in_turn = sorted(trick, key=lambda c: order.index(c[0]))
    return in_turn[trick_winner([c for _, c in in_turn], contract)][0]


def near_game(seed: int, rounds: int = 4, habits: Habits | None = None) -> NearGame:
    """``rounds`` rounds of one game at a near-centre table; forehand moves on each round."""
    script = _Script(seed, habits or Habits())
    script.game.truth.append(GameConfigured(target=100_000))  # rounds, not a game to its end
    forehand = script.rng.randrange(4)
    for r in range(rounds):
        script.round(r, (forehand + r) % 4)
    script.table.step(3)
    script.game.frames = script.table.frames
    return script.game
