"""Real players' habits in a rendered game (``render_game(habits=True)``, opt-in).

Players do not lay every card cleanly, one hand at a time, nor sweep every trick off the
same way. With habits, now and then (``Habits``: a chance per card, per trick or per
round):

- the next hand comes in while the last is still withdrawing over the trick (overlap);
- two cards come to rest almost together, 0.3-0.6 s apart (together);
- a card is nudged or straightened by its player's hand after it was laid (nudge);
- a wrong card (one its player plays later in the round) is laid, lies 1-2 s and is
  taken back off the player's edge before the right one is laid (take back);
- a trick is left lying and the winner leads the next card beside it (then sweeps the
  old trick) or on top of it (the old trick goes with the next one) (left lying);
- the winner picks the trick up into the hand instead of sweeping it off (pick up);
- the round's last trick, once collected, is shown face up again near the winner's edge
  for 1-3 s to count, then taken away (turn up).

Every decision, and every quantity a habit adds, is drawn from a generator of its own
(seeded from the game's seed and 28), so the game's table, look and plain moves draw from
the game's generator as they would without habits.

The ground truth follows the convention of the tracker's synthetic tables
(``tests/tracker/near.py``): a card taken back has no ``card_played``; a trick left lying
counts as collected by its winner when the next lead comes in, so its ``trick_collected``
is timed at the first frame of that lead's approach (the first card coming in, a mistaken
one included) and stands before the lead's ``card_played``; the cards turned up to count
are no plays. Every other time is read off the frames as ``vision.synth.game`` says, so
two cards laid together may be seen uncovered in the other order (their events keep the
order of play).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, fields, replace

import numpy as np

from scoring.events import CardPlayed, Event, RoundStarted, TrickCollected
from vision.synth.compose import Pose
from vision.synth.game import Director
from vision.synth.game_table import Arm, Beat, CardOnTable, Frame, Gather, Lay, Script, Table, ease, uncovered
from vision.synth.scene import SEAT_ANGLES, SEAT_DIRS

__all__ = ["HabitDirector", "Habits"]

#: What a habit's part of a script yields and is sent.
Part = Generator[Beat, np.ndarray, None]


@dataclass(frozen=True)
class Habits:
    """How often each habit shows: a chance per card, per trick or per round, as said."""

    overlap: float = 0.2  #: per card but a trick's last: the next hand comes in as this one withdraws
    together: float = 0.15  #: per card but a trick's last: the next card comes to rest 0.3-0.6 s after it
    nudge: float = 0.12  #: per card: its player's hand comes back and nudges or straightens it
    take_back: float = 0.05  #: per card (its player has later cards): a wrong card laid first and taken back
    left_lying: float = 0.15  #: per trick but a round's last: left lying while the winner leads
    pick_up: float = 0.35  #: per trick: picked up into the winner's hand rather than swept off
    turn_up_last: float = 0.6  #: per round: its last trick shown face up again, to count

    @classmethod
    def only(cls, **chances: float) -> Habits:
        """No habit but those given (to show one habit at a time)."""
        return cls(**({f.name: 0.0 for f in fields(cls)} | chances))


@dataclass
class _CardPlan:
    later: list[str]  # the cards its player lays later in the round
    followed: bool  # another card of the same trick comes next


@dataclass
class _TrickPlan:
    cards: list[str]
    last_of_round: bool  # the round's ninth trick
    led_on: bool  # another trick of the same round follows


@dataclass
class _Lying:
    """A trick left lying while its winner leads the next."""

    cards: list[CardOnTable]
    winner: int
    slot: int  # its trick_collected, timed when the next lead comes in
    on_top: bool  # the lead laid on it (it goes with the next trick) rather than beside it
    pick_up: bool
    led: bool = False


def _plans(events: Sequence[Event]) -> tuple[deque[_CardPlan], deque[_TrickPlan]]:
    """What each card's and each collection's habits need to know of the rest of its round."""
    cards: deque[_CardPlan] = deque()
    tricks: deque[_TrickPlan] = deque()
    rounds: list[list[Event]] = [[]]
    for ev in events:
        if isinstance(ev, RoundStarted):
            rounds.append([])
        elif isinstance(ev, (CardPlayed, TrickCollected)):
            rounds[-1].append(ev)
    for seen in rounds:
        trick: list[str] = []
        collected = 0
        for i, ev in enumerate(seen):
            rest = seen[i + 1 :]
            if isinstance(ev, CardPlayed):
                later = [e.card for e in rest if isinstance(e, CardPlayed) and e.seat == ev.seat]
                cards.append(_CardPlan(later, bool(rest) and isinstance(rest[0], CardPlayed)))
                trick.append(ev.card)
            else:
                collected += 1
                led_on = any(isinstance(e, CardPlayed) for e in rest)
                tricks.append(_TrickPlan(trick, collected == 9, led_on))
                trick = []
    return cards, tricks


class HabitDirector(Director):
    """A Director whose players have ``habits``, drawn from a generator seeded by ``seed``."""

    def __init__(
        self, table: Table, fps: float, rng: np.random.Generator, seed: int, habits: Habits | None = None
    ) -> None:
        super().__init__(table, fps, rng)
        self.habits = habits or Habits()
        self.chance = np.random.default_rng([seed, 28])
        self._cards: deque[_CardPlan] = deque()
        self._tricks: deque[_TrickPlan] = deque()
        #: How the next card's hand sets out: "together" or "overlap" (no pause to think), or None.
        self._start: str | None = None
        self._lying: _Lying | None = None
        self._pick_up = False
        #: How often each habit was shown, by its name in ``Habits``.
        self.shown: Counter[str] = Counter()
        #: The habits shown while each trick was laid and collected, trick by trick (a
        #: benchmark tells which habits its lost tricks had); a trick led while the one
        #: before still lay also has "led_on_lying". Ends with the trick to come, empty.
        self.by_trick: list[Counter[str]] = [Counter()]

    def run(self, events: list[Event]) -> Iterator[Frame]:
        self._cards, self._tricks = _plans(events)
        yield from super().run(events)
        yield from self._drain()
        self._time_announcements()

    def _time_announcements(self) -> None:
        """A Weis or Stöck announced with a card timed after it is the card's time."""
        for i, ev in enumerate(self.timed):
            if ev.t is None:
                self.timed[i] = replace(ev, t=self.timed[i - 1].t if i else 0.0)

    # -- cards ---------------------------------------------------------------------------------

    def play(self, seat: int, card: str) -> Iterator[Frame]:
        plan = self._cards.popleft()
        h, u = self.habits, self.chance.random(5)
        wrong = plan.later[int(u[4] * len(plan.later))] if plan.later and u[0] < h.take_back else None
        follow = None
        if plan.followed:
            follow = "together" if u[1] < h.together else "overlap" if u[2] < h.overlap else None
        nudge = follow is None and bool(u[3] < h.nudge)
        self._note_habit(*(name for name, on in (("take_back", wrong), (follow or "", follow), ("nudge", nudge)) if on))
        yield from self._perform(self._habit_laying(seat, card, wrong, follow, nudge))

    def _note_habit(self, *names: str) -> None:
        """Count habits shown, in all and for the trick being laid or collected."""
        self.shown.update(names)
        self.by_trick[-1].update(names)

    def _habit_laying(self, seat: int, card: str, wrong: str | None, follow: str | None, nudge: bool) -> Script:
        """Lay ``card`` (after ``wrong`` taken back); ``follow``: how the next card comes in."""
        start, self._start = self._start, follow
        lying = self._lying if self._lying is not None and not self._lying.led else None
        if lying is not None:
            lying.led = True
            self.by_trick[-1]["led_on_lying"] += 1
        if wrong is not None:
            yield from self._mistake(seat, wrong, lying, start)
            start = None
        lay = self.plan_lay(seat, card, self._free_label())
        if lying is not None:
            lay = self._led_on(lay, lying)
        slot = self._slot(CardPlayed(seat=seat, card=card, source="camera"))
        if start is None:
            yield from self._idle(self._think(seat, 0.8))
        if lying is not None and wrong is None:
            self._fill(lying.slot, self.t)  # the old trick counts as collected as the lead comes in
        n = self._count(self.chance.uniform(0.3, 0.6) if start == "together" else self._think(seat, 0.5))
        for i in range(n):
            yield replace(self.carrying(lay, (i + 1) / n), release=follow == "together" and i == n - 1)
        laid = CardOnTable(card, lay.final, lay.label)
        self.on_table.append(laid)
        rest = self.chance.uniform(0.1, 0.2) if follow == "together" else float(self.rng.uniform(0.15, 0.4))
        yield from self._steps(rest, lambda u: Beat(arms=[lay.arm]))
        seen_at = yield from self._habit_withdraw(lay, follow)
        self._fill(slot, seen_at)
        if nudge:
            yield from self._nudge(lay, laid)
        if lying is not None and not lying.on_top:
            yield from self._sweep_lying(lying)

    def _habit_withdraw(self, lay: Lay, follow: str | None) -> Generator[Beat, np.ndarray, float]:
        """Withdraw; returns when the card is first seen uncovered. "overlap": slowly, and the
        next hand comes in as this one sets off. A hand that let the next one come may leave
        the card under the other: then it is timed when that one leaves it too."""
        slow = self.chance.uniform(1.6, 2.2) if follow == "overlap" else 1.0
        n = self._count(self._think(lay.seat, 0.45) * slow)
        seen_at: float | None = None
        for i in range(n):
            labels = yield replace(self.withdrawing(lay, (i + 1) / n), release=follow == "overlap" and i == 0)
            if seen_at is None and uncovered(self.table, labels, lay.final):
                seen_at = self.t - 1 / self.fps
        for _ in range(self._count(3.0) if follow is not None else 0):
            if seen_at is not None:
                break
            labels = yield Beat()
            if uncovered(self.table, labels, lay.final):
                seen_at = self.t - 1 / self.fps
        return self.t if seen_at is None else seen_at

    def _nudge(self, lay: Lay, laid: CardOnTable) -> Part:
        """The same hand comes back and pushes the card 5-20 % of its length, turns it
        5-15 degrees, or both, and withdraws."""
        tb, c = self.table, self.chance
        start = laid.pose
        kind = int(c.integers(3))  # push, turn, both
        heading = c.uniform(0, 2 * np.pi)
        length = c.uniform(0.05, 0.2) * tb.card_h if kind != 1 else 0.0
        shift = np.array([np.cos(heading), np.sin(heading)]) * length
        turn = float(c.choice([-1.0, 1.0]) * c.uniform(5, 15)) if kind != 0 else 0.0
        tip = lay.tip_rest
        card = [laid]  # as it lies now (each frame's state keeps the card as it was then)

        def reach(u: float) -> Beat:
            return Beat(arms=[replace(lay.arm, tip=tb.ideal(lay.tip_away + (tip - lay.tip_away) * ease(u)))])

        def push(u: float) -> Beat:
            e = ease(u)
            pose = replace(start, x=start.x + shift[0] * e, y=start.y + shift[1] * e, angle=start.angle + turn * e)
            moved = replace(card[0], pose=pose)
            self.on_table = [moved if k is card[0] else k for k in self.on_table]
            card[0] = moved
            return Beat(arms=[replace(lay.arm, tip=tb.ideal(tip + shift * e))])

        yield from self._idle(c.uniform(0.2, 0.6))
        yield from self._steps(c.uniform(0.3, 0.5), reach)
        yield from self._steps(c.uniform(0.25, 0.45), push)
        moved = replace(lay, final=card[0].pose)
        yield from self._steps(c.uniform(0.1, 0.2), lambda u: Beat(arms=[replace(lay.arm, tip=tb.ideal(tip + shift))]))
        yield from self._steps(c.uniform(0.3, 0.5), lambda u: self.withdrawing(moved, u))

    def _mistake(self, seat: int, wrong: str, lying: _Lying | None, start: str | None) -> Part:
        """``wrong`` laid as any card is (``start``: as the hand sets out, after the last card's
        habit), lying 1-2 s, then taken back off its player's edge (no event: it never counted)."""
        tb, c = self.table, self.chance
        lay = self.plan_lay(seat, wrong, self._free_label())
        if start is None:
            yield from self._idle(self._think(seat, 0.8))
        if lying is not None:
            self._fill(lying.slot, self.t)
        seconds = c.uniform(0.3, 0.6) if start == "together" else self._think(seat, 0.5)
        yield from self._steps(seconds, lambda u: self.carrying(lay, u))
        laid = CardOnTable(wrong, lay.final, lay.label)
        self.on_table.append(laid)
        yield from self._steps(float(self.rng.uniform(0.15, 0.4)), lambda u: Beat(arms=[lay.arm]))
        yield from self._steps(self._think(seat, 0.45), lambda u: self.withdrawing(lay, u))
        yield from self._idle(c.uniform(1.0, 2.0))
        yield from self._steps(c.uniform(0.3, 0.5), lambda u: self.withdrawing(lay, 1 - u))
        self.on_table = [k for k in self.on_table if k is not laid]
        off = lay.tip_away + SEAT_DIRS[seat] * 0.8 * tb.card_h

        def drag(u: float) -> Beat:
            e = ease(u)
            tip = lay.tip_rest + (off - lay.tip_rest) * e
            centre = tip - lay.grip
            angle = lay.final.angle + 0.5 * lay.twist * e
            pose = replace(lay.final, x=float(centre[0]), y=float(centre[1]), angle=angle)
            return Beat([CardOnTable(wrong, pose, lay.label, lift=0.5 * e)], [replace(lay.arm, tip=tb.ideal(tip))])

        yield from self._steps(c.uniform(0.5, 0.8), drag)

    def _led_on(self, lay: Lay, lying: _Lying) -> Lay:
        """The lead of a trick laid while the last lies there: on top of it, or beside it
        (clear of the lane it is swept off along)."""
        tb, c = self.table, self.chance
        if lying.on_top:
            pos = tb.centre + c.normal(0, 0.08, 2) * tb.card_h
        else:
            side = float(c.choice([-1.0, 1.0]) * c.uniform(1.1, 1.4)) * tb.card_h
            pos = np.array([lay.final.x, lay.final.y]) + SEAT_DIRS[(lay.seat + 1) % 4] * side
        final = replace(lay.final, x=float(pos[0]), y=float(pos[1]))
        return replace(lay, final=final, arm=replace(lay.arm, tip=tb.ideal(pos + lay.grip)))

    def _sweep_lying(self, lying: _Lying) -> Part:
        """The winner, having led beside it, takes the old trick off (its event is already in)."""
        yield from self._idle(self.chance.uniform(0.3, 0.8))
        g = self.plan_gather(lying.winner)
        pile = yield from self._gathering(g, lying.cards)
        yield from self._off(g, pile, lying.pick_up)
        self._lying = None

    # -- tricks --------------------------------------------------------------------------------

    def collect(self, winner: int) -> Iterator[Frame]:
        plan = self._tricks.popleft()
        h, u = self.habits, self.chance.random(3)
        self._pick_up = bool(u[0] < h.pick_up)
        stacked = self._lying is not None  # the last trick lies under this one: it goes too
        self._lying = None
        if plan.led_on and not stacked and u[1] < h.left_lying:
            slot = self._slot(TrickCollected(seat=winner))
            self._lying = _Lying(list(self.on_table), winner, slot, bool(u[2] < 0.5), self._pick_up)
            self._note_habit("left_lying")
            self.by_trick.append(Counter())
            yield from self._perform(self._idle(float(self.rng.uniform(0.8, 2.0))))
            return
        yield from self._perform(self._collecting(winner))
        yield from self._drain()
        if plan.last_of_round and self.chance.random() < h.turn_up_last:
            self._note_habit("turn_up_last")
            yield from self._perform(self._turning_up(winner, plan.cards))
        self.by_trick.append(Counter())

    def _take_off(self, g: Gather, pile: list[CardOnTable]) -> Generator[Beat, np.ndarray, float]:
        return (yield from self._off(g, pile, self._pick_up))

    def _off(self, g: Gather, pile: list[CardOnTable], pick_up: bool) -> Generator[Beat, np.ndarray, float]:
        """The gathered pile swept off, or picked up; returns the first frame without it."""
        if not pick_up:
            return (yield from super()._take_off(g, pile))
        self._note_habit("pick_up")
        return (yield from self._lift_off(g, pile))

    def _lift_off(self, g: Gather, pile: list[CardOnTable]) -> Generator[Beat, np.ndarray, float]:
        """The pile picked up into the hand: raised and closed in the fingers where it lies,
        then gone; the empty hand goes back. Returns the first frame without the cards."""
        tb, c = self.table, self.chance
        tip = g.pile + g.grip
        n = self._count(c.uniform(0.3, 0.5))
        for i in range(n):
            e = ease((i + 1) / n)
            cards = [replace(k, pose=replace(k.pose, height=k.pose.height * (1 - 0.45 * e)), lift=e) for k in pile]
            yield Beat(cards, [replace(g.arm, tip=tb.ideal(tip), curl=0.7 + 0.2 * e)])
        gone_at = self.t

        def back(u: float) -> Beat:
            return Beat(arms=[replace(g.arm, tip=tb.ideal(tip + (g.away - tip) * ease(u)), curl=0.9)])

        yield from self._steps(c.uniform(0.3, 0.5), back)
        return gone_at

    def _turning_up(self, winner: int, cards: list[str]) -> Script:
        """Two to four cards of the last trick brought back face up in front of the winner,
        spread to count for 1-3 s, and taken away again (no events)."""
        tb, c = self.table, self.chance
        shown = [cards[i] for i in sorted(c.choice(len(cards), int(c.integers(2, len(cards) + 1)), replace=False))]
        out, side = SEAT_DIRS[winner], SEAT_DIRS[(winner + 1) % 4]
        lateral = c.uniform(-0.3, 0.6)
        base = tb.centre + out * (tb.half_extent(winner) - 1.0 * tb.card_h)
        spots = [base + side * (i - (len(shown) - 1) / 2) * 0.7 * tb.card_h for i in range(len(shown))]
        angles = [SEAT_ANGLES[winner] + float(c.normal(0, 6)) for _ in shown]
        away = tb.seat_point(winner, 1.0, lateral)
        arm = Arm(tb.ideal(tb.seat_point(winner, 4.0, lateral)), tb.ideal(away), tb.arms[winner], curl=0.4)
        grip = out * 0.2 * tb.card_h
        labels = [k for k in range(1, 256) if all(k != t.label for t in self.on_table)][: len(shown)]

        def cards_at(points: list[np.ndarray], lift: float = 0.0) -> list[CardOnTable]:
            return [
                CardOnTable(card, Pose(float(p[0]), float(p[1]), tb.card_h, a), label, lift)
                for card, p, a, label in zip(shown, points, angles, labels, strict=True)
            ]

        def bring(u: float) -> Beat:
            e = ease(u)
            at = away - grip + (base - away + grip) * e
            return Beat(cards_at([at] * len(shown), 1 - e), [replace(arm, tip=tb.ideal(at + grip))])

        def spread(u: float) -> Beat:
            e = ease(u)
            return Beat(cards_at([base + (s - base) * e for s in spots]), [replace(arm, tip=tb.ideal(base + grip))])

        def hand(u: float, there: np.ndarray) -> Beat:
            return Beat(arms=[replace(arm, tip=tb.ideal(there + (away - there) * ease(u)))])

        def take(u: float) -> Beat:
            shift = (away - base) * 1.6 * ease(u)
            return Beat(cards_at([s + shift for s in spots]), [replace(arm, tip=tb.ideal(base + grip + shift))])

        yield from self._idle(c.uniform(0.4, 1.0))
        yield from self._steps(c.uniform(0.4, 0.6), bring)
        yield from self._steps(c.uniform(0.3, 0.5), spread)
        laid = cards_at(spots)
        self.on_table.extend(laid)
        yield from self._steps(c.uniform(0.3, 0.5), lambda u: hand(u, base + grip))
        yield from self._idle(c.uniform(1.0, 3.0))
        yield from self._steps(c.uniform(0.3, 0.5), lambda u: hand(1 - u, base + grip))
        self.on_table = [k for k in self.on_table if all(k is not t for t in laid)]
        yield from self._steps(c.uniform(0.4, 0.7), take)
