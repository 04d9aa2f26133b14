"""A scripted table that produces detection sequences the way the recogniser would.

Tests describe what happens on the table (a card is slid in and comes to rest, a hand
covers it, the recogniser misreads a frame, the trick is swept to the winner) and get the
``FrameDetections`` a perfect-but-for-the-scripted-faults recogniser would report, plus the
times each card came to rest. No camera or model is needed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.events import CardCorrected, CardPlayed, Event, RoundStarted, WeisDeclared
from vision.detection import BACK, Detection, FrameDetections
from vision.tracker import TrickTracker
from vision.tracker.reread import resolve_rereads
from vision.tracker.tracker import TrackerEvent

W, H = 640, 480
CENTRE = (W / 2, H / 2)
#: Where each seat's card lies in a trick (default layout: 0 bottom, 1 right, 2 top, 3 left).
SPOTS = {0: (320.0, 320.0), 1: (420.0, 240.0), 2: (320.0, 160.0), 3: (220.0, 240.0)}
#: Where each seat's hand enters and where a trick is swept to.
EDGE = {0: (320.0, 470.0), 1: (630.0, 240.0), 2: (320.0, 10.0), 3: (10.0, 240.0)}
CARD_W, CARD_H = 50.0, 76.0


def corners(centre: tuple[float, float], angle_deg: float, scale: float = 1.0) -> tuple[tuple[float, float], ...]:
    """Clockwise corners from the artwork's top-left of a card rotated by ``angle_deg``."""
    cx, cy = centre
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    w, h = CARD_W * scale, CARD_H * scale
    out = []
    for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        out.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
    return tuple(out)


def detection(
    card: str,
    centre: tuple[float, float],
    angle: float = 0.0,
    confidence: float = 0.95,
    alternatives: tuple[tuple[str, float], ...] = (),
    scale: float = 1.0,
) -> Detection:
    pts = corners(centre, angle, scale)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return Detection(card, confidence, (min(xs), min(ys), max(xs), max(ys)), pts, alternatives)


@dataclass
class _Card:
    card: str
    pos: tuple[float, float]
    angle: float
    #: Outline size and read confidence, below 1 and 0.95 while part of it is hidden.
    scale: float = 1.0
    confidence: float = 0.95


@dataclass
class Table:
    fps: float = 10.0
    t: float = 0.0
    cards: dict[str, _Card] = field(default_factory=dict)
    frames: list[FrameDetections] = field(default_factory=list)
    rest_times: dict[str, float] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)
    #: card -> (read as, confidence, alternatives) for the next frame only.
    misreads: dict[str, tuple[str, float, tuple[tuple[str, float], ...]]] = field(default_factory=dict)
    #: card -> (confidence, alternatives) for every frame it is seen (an unsure read).
    unsure: dict[str, tuple[float, tuple[tuple[str, float], ...]]] = field(default_factory=dict)
    #: card -> (read as, confidence, alternatives) for every frame (a persistent misread).
    reads_as: dict[str, tuple[str, float, tuple[tuple[str, float], ...]]] = field(default_factory=dict)
    extra: list[Detection] = field(default_factory=list)
    #: The image edges an arm reaches in from in the frames recorded now (``FrameDetections.arms``).
    arms: set[str] = field(default_factory=set)
    #: Detector noise: each detection's position is off by up to this many pixels.
    jitter: float = 0.0
    _noise: random.Random = field(default_factory=lambda: random.Random(1))

    def step(self, n: int = 1) -> None:
        """Record ``n`` frames of the table as it is now."""
        for _ in range(n):
            dets = []
            for c in self.cards.values():
                if c.card in self.hidden:
                    continue
                if c.card in self.misreads:
                    read, conf, alts = self.misreads.pop(c.card)
                    dets.append(detection(read, c.pos, c.angle, conf, alts))
                elif c.card in self.reads_as:
                    read, conf, alts = self.reads_as[c.card]
                    dets.append(detection(read, c.pos, c.angle, conf, alts, scale=c.scale))
                elif c.card in self.unsure:
                    conf, alts = self.unsure[c.card]
                    dets.append(detection(c.card, c.pos, c.angle, conf, alts))
                else:
                    pos = c.pos
                    if self.jitter:
                        j = self.jitter
                        pos = (pos[0] + self._noise.uniform(-j, j), pos[1] + self._noise.uniform(-j, j))
                    dets.append(detection(c.card, pos, c.angle, c.confidence, scale=c.scale))
            dets += self.extra
            self.extra = []
            self.frames.append(FrameDetections(round(self.t, 6), tuple(dets), W, H, frozenset(self.arms)))
            self.t += 1.0 / self.fps

    def lay(
        self,
        card: str,
        seat: int,
        *,
        slide: int = 4,
        at: tuple[float, float] | None = None,
        rest: int = 0,
        angle: float | None = None,
        start: tuple[float, float] | None = None,
    ) -> None:
        """Slide ``card`` in from ``seat``'s edge (or ``start``) to its spot (or ``at``)
        over ``slide`` frames, then rest; ``angle`` defaults to pointing at the seat."""
        target = at or SPOTS[seat]
        angle = (0.0 if seat in (0, 2) else 90.0) if angle is None else angle
        start = start or EDGE[seat]
        for i in range(slide):
            f = i / slide
            self.cards[card] = _Card(
                card, (start[0] + (target[0] - start[0]) * f, start[1] + (target[1] - start[1]) * f), angle
            )
            self.step()
        self.cards[card] = _Card(card, target, angle)
        self.rest_times[card] = round(self.t, 6)
        self.step(rest)

    def hidden_then_misread(
        self,
        card: str,
        read: str,
        confidence: float,
        frames: int,
        after: int,
        alternatives: tuple[tuple[str, float], ...] = (),
    ) -> None:
        """``card`` is hidden a frame (a hand passing over it), then read as ``read`` for
        ``frames`` frames, then as itself again for ``after``."""
        self.hidden = {card}
        self.step()
        self.hidden = set()
        self.reads_as[card] = (read, confidence, alternatives)
        self.step(frames)
        del self.reads_as[card]
        self.step(after)

    def misread_under_hand(self, card: str, read: str, edge: str) -> None:
        """``edge``'s hand hovers over ``card`` for six frames, which reads as ``read``
        while the hand is there and two frames after; then as itself again for ten."""
        self.arms = {edge}
        self.reads_as[card] = (read, 0.9, ())
        self.step(6)
        self.arms = set()
        self.step(2)
        del self.reads_as[card]
        self.step(10)

    def move(self, card: str, to: tuple[float, float], frames: int = 2) -> None:
        start = self.cards[card].pos
        for i in range(1, frames + 1):
            f = i / frames
            self.cards[card].pos = (start[0] + (to[0] - start[0]) * f, start[1] + (to[1] - start[1]) * f)
            self.step()

    def sweep(self, seat: int, frames: int = 3) -> None:
        """The trick is gathered towards ``seat``'s edge and leaves the image."""
        starts = {k: c.pos for k, c in self.cards.items()}
        end = EDGE[seat]
        for i in range(1, frames + 1):
            f = i / (frames + 1)
            for k, c in self.cards.items():
                c.pos = (starts[k][0] + (end[0] - starts[k][0]) * f, starts[k][1] + (end[1] - starts[k][1]) * f)
            self.step()
        self.cards.clear()
        self.step()

    def lift(self) -> None:
        """The trick is picked straight up (no sweep seen)."""
        self.cards.clear()
        self.step()

    def back_at(self, pos: tuple[float, float]) -> None:
        self.extra.append(detection(BACK, pos, 0.0, 0.9))


def run(
    table: Table, forehand: int = 0, contract: str = "eicheln", declared: Sequence[WeisDeclared] = ()
) -> list[TrackerEvent]:
    """The frames recorded on ``table`` through a fresh tracker, from a round with that
    forehand and contract, the Weis ``declared`` entered as it starts."""
    tracker = TrickTracker()
    tracker.start_round(RoundStarted(forehand=forehand, contract=contract))
    for event in declared:
        tracker.declare(event)
    events: list[TrackerEvent] = []
    for frame in table.frames:
        events += tracker.update(frame)
    return events + tracker.finish()


def plays(events: list[TrackerEvent]) -> list[tuple[int, str]]:
    """The (seat, card) of every card the events count, rereads resolved."""
    return [(e.seat, e.card) for e in resolve_rereads(events) if isinstance(e, CardPlayed)]


def corrected(events: Sequence[Event | TrackerEvent]) -> list[tuple[int, str]]:
    """The (seat, card) of each card played, as a log keeping these events has them once
    each reread is made a ``card_corrected`` and applied."""
    log = resolve_rereads(events)
    cards = {i: (e.seat, e.card) for i, e in enumerate(log) if isinstance(e, CardPlayed)}
    for e in log:
        if isinstance(e, CardCorrected) and e.ref in cards:
            seat, _ = cards[e.ref]
            cards[e.ref] = (seat if e.seat is None else e.seat, e.card)
    return [cards[i] for i in sorted(cards)]


def laid(trick: list[tuple[int, str]], rest: int = 8) -> Table:
    """A table on which each (seat, card) of ``trick`` was laid in turn and lay still ``rest`` frames."""
    table = Table()
    for seat, card in trick:
        table.lay(card, seat, rest=rest)
    return table
