"""Render simulated Jass games as camera video with exact ground-truth events.

The simulator (``scoring.simulate``) decides what is played; this module decides how it
looks and when: for each card a hand comes in from the player's edge carrying the card,
lays it near that player's seat, covers it for a moment and withdraws; after the fourth
card a pause, then the winner's hand gathers the trick and sweeps it off toward the
winner's edge; the table is empty between tricks. Timings vary per player and per move.
``vision.synth.habits`` adds what real players do besides (hands overlapping, a card
taken back, a trick left lying, ...), opt-in.

Event times are read off the rendered frames, so they are what a camera could see:
``card_played.t`` is the first frame in which the laid card is at rest and no longer
covered by the hand, ``trick_collected.t`` the first frame in which all four cards have
left the image.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from scoring.events import (
    CardPlayed,
    Event,
    GameConfigured,
    RoundStarted,
    TrickCollected,
    event_to_dict,
)
from vision.recording import RecordingWriter
from vision.synth.assets import available_decks
from vision.synth.compose import Pose
from vision.synth.game_events import VARIANTS, simulate_game
from vision.synth.game_table import (
    LAYOUTS,
    Arm,
    Beat,
    CardOnTable,
    Frame,
    FrameState,
    Gather,
    Lay,
    Script,
    Table,
    any_in_view,
    ease,
    make_table,
    render_frame,
    uncovered,
)
from vision.synth.geometry import GUIDE, Geometry
from vision.synth.other_decks import OTHER_DECKS
from vision.synth.scene import SEAT_ANGLES, SEAT_DIRS

if TYPE_CHECKING:
    from vision.synth.habits import Habits

__all__ = [
    "LAYOUTS",
    "VARIANTS",
    "Arm",
    "Beat",
    "CardOnTable",
    "Director",
    "FrameState",
    "Table",
    "make_table",
    "render_frame",
    "render_game",
    "simulate_game",
]

# ---------------------------------------------------------------- the animation


@dataclass
class _Going:
    """An action released to go on while the next one runs, and the label map it saw last."""

    script: Script
    labels: np.ndarray


class Director:
    """Turns the untimed event list into frames and timed events.

    Each move is a ``Script`` played by ``_perform``; a script that releases early goes on
    in the frames of the next (two hands in view at once), which the habits use.
    """

    def __init__(self, table: Table, fps: float, rng: np.random.Generator) -> None:
        self.table = table
        self.fps = fps
        self.rng = rng
        self.frame_index = 0
        self.on_table: list[CardOnTable] = []
        self.timed: list[Event] = []
        self._going: list[_Going] = []
        #: The going actions' beats for the frame being put together, once taken.
        self._pending: list[Beat] | None = None

    @property
    def t(self) -> float:
        return self.frame_index / self.fps

    # -- frames -----------------------------------------------------------------------------

    def _show(self, state: FrameState) -> Frame:
        frame, labels = render_frame(self.table, state, self.rng)
        self.frame_index += 1
        return frame, labels

    def _frames(self, seconds: float, step: Callable[[float], FrameState]) -> Iterator[Frame]:
        """Render ``seconds`` of animation; ``step(u)`` gives the state at progress u in [0, 1]."""
        n = self._count(seconds)
        for i in range(n):
            yield self._show(step((i + 1) / n))

    def _still(self, seconds: float) -> Iterator[Frame]:
        state = FrameState(list(self.on_table))
        yield from self._frames(seconds, lambda u: state)

    def _count(self, seconds: float) -> int:
        return max(1, round(seconds * self.fps))

    def _others(self) -> list[Beat]:
        """The going actions' beats for the next frame (each advanced once per frame)."""
        if self._pending is None:
            self._pending = []
            for going in list(self._going):
                try:
                    self._pending.append(going.script.send(going.labels))
                except StopIteration:
                    self._going.remove(going)
        return self._pending

    def _compose(self, beats: list[Beat]) -> Frame:
        """Render the table with every beat's cards and arms; the going actions see the labels."""
        state = FrameState(self.on_table + [c for b in beats for c in b.held], [a for b in beats for a in b.arms])
        frame, labels = self._show(state)
        self._pending = None
        for going in self._going:
            going.labels = labels
        return frame, labels

    def _perform(self, script: Script) -> Iterator[Frame]:
        """Render ``script`` with whatever going actions are still moving, until it ends or
        releases (then it goes on in the frames of what comes next)."""
        labels: np.ndarray | None = None
        while True:
            others = self._others()
            try:
                beat = next(script) if labels is None else script.send(labels)
            except StopIteration:
                return
            frame, labels = self._compose([*others, beat])
            yield frame, labels
            if beat.release:
                self._going.append(_Going(script, labels))
                return

    def _drain(self) -> Iterator[Frame]:
        """Render until every going action has ended."""
        while True:
            beats = self._others()
            if not beats:
                self._pending = None
                return
            yield self._compose(beats)

    def _steps(self, seconds: float, beat: Callable[[float], Beat]) -> Generator[Beat, np.ndarray, None]:
        n = self._count(seconds)
        for i in range(n):
            yield beat((i + 1) / n)

    def _idle(self, seconds: float) -> Generator[Beat, np.ndarray, None]:
        yield from self._steps(seconds, lambda u: Beat())

    def _think(self, seat: int, base: float) -> float:
        return float(base * self.table.tempo[seat] * self.rng.lognormal(0.0, 0.35))

    def _free_label(self) -> int:
        """The smallest label no card in view has."""
        used = {c.label for c in self.on_table} | {c.label for b in self._pending or [] for c in b.held}
        return next(k for k in range(1, 256) if k not in used)

    def _slot(self, event: Event) -> int:
        """Append ``event`` untimed, in its place in the list; its time comes with the frames."""
        self.timed.append(event)
        return len(self.timed) - 1

    def _fill(self, slot: int, t: float) -> None:
        self.timed[slot] = replace(self.timed[slot], t=round(t, 3))

    # -- laying a card ------------------------------------------------------------------------

    def plan_lay(self, seat: int, card: str, label: int) -> Lay:
        """Where ``seat`` lays ``card`` and how its hand comes in (all the draws of a lay)."""
        tb, rng = self.table, self.rng
        dist = tb.card_h * float(rng.uniform(0.25, 0.5) if tb.near else rng.uniform(0.55, 0.85))
        tangent = SEAT_DIRS[(seat + 1) % 4] * tb.card_h * float(rng.normal(0, 0.15))
        pos = tb.centre + SEAT_DIRS[seat] * dist + tangent
        angle = SEAT_ANGLES[seat] + float(rng.uniform(-25, 25) if tb.near else rng.normal(0, 10))
        final = Pose(pos[0], pos[1], tb.card_h, angle)
        lateral = float(rng.uniform(-0.3, 0.9))
        shoulder = tb.ideal(tb.seat_point(seat, 4.0, lateral))
        grip = SEAT_DIRS[seat] * tb.card_h * float(rng.uniform(-0.25, 0.05))  # fingertips past the card centre
        twist = float(rng.normal(0, 15))
        arm = Arm(shoulder, tb.ideal(pos + grip), tb.arms[seat], curl=float(rng.uniform(0.1, 0.5)))
        return Lay(seat, card, final, label, twist, grip, tb.seat_point(seat, 1.0, lateral), arm)

    def carrying(self, lay: Lay, u: float) -> Beat:
        """The hand bringing the card in, at progress ``u``: the card raised and turned at first."""
        e = ease(u)
        tip = lay.tip_away + (lay.tip_rest - lay.tip_away) * e
        c = tip - lay.grip
        pose = replace(lay.final, x=float(c[0]), y=float(c[1]), angle=lay.final.angle + lay.twist * (1 - e))
        return Beat([CardOnTable(lay.card, pose, lay.label, lift=1 - e)], [replace(lay.arm, tip=self.table.ideal(tip))])

    def withdrawing(self, lay: Lay, u: float) -> Beat:
        tip = lay.tip_rest + (lay.tip_away - lay.tip_rest) * ease(u)
        return Beat(arms=[replace(lay.arm, tip=self.table.ideal(tip), curl=0.6)])

    def _withdraw(self, lay: Lay, seconds: float) -> Generator[Beat, np.ndarray, float]:
        """The hand leaves the laid card; returns when the camera first sees it uncovered."""
        n = self._count(seconds)
        seen_at: float | None = None
        for i in range(n):
            labels = yield self.withdrawing(lay, (i + 1) / n)
            if seen_at is None and uncovered(self.table, labels, lay.final):
                seen_at = self.t - 1 / self.fps
        return self.t if seen_at is None else seen_at

    def _laying(self, seat: int, card: str) -> Script:
        lay = self.plan_lay(seat, card, self._free_label())
        slot = self._slot(CardPlayed(seat=seat, card=card, source="camera"))
        yield from self._idle(self._think(seat, 0.8))
        yield from self._steps(self._think(seat, 0.5), lambda u: self.carrying(lay, u))
        self.on_table.append(CardOnTable(card, lay.final, lay.label))
        yield from self._steps(float(self.rng.uniform(0.15, 0.4)), lambda u: Beat(arms=[lay.arm]))
        seen_at = yield from self._withdraw(lay, self._think(seat, 0.45))
        self._fill(slot, seen_at)

    def play(self, seat: int, card: str) -> Iterator[Frame]:
        """A hand brings ``card`` from ``seat``'s edge, lays it, covers it a moment, withdraws."""
        yield from self._perform(self._laying(seat, card))

    # -- collecting a trick -------------------------------------------------------------------

    def plan_gather(self, winner: int) -> Gather:
        tb, rng = self.table, self.rng
        lateral = float(rng.uniform(-0.3, 0.6))
        away = tb.seat_point(winner, 1.0, lateral)
        arm = Arm(tb.ideal(tb.seat_point(winner, 4.0, lateral)), tb.ideal(away), tb.arms[winner], curl=0.3)
        pile = tb.centre + SEAT_DIRS[winner] * tb.card_h * 0.3
        grip = SEAT_DIRS[winner] * tb.card_h * -0.2
        return Gather(winner, lateral, arm, away, pile, grip, SEAT_ANGLES[winner] + float(rng.normal(0, 8)))

    def _gathering(self, g: Gather, cards: list[CardOnTable]) -> Generator[Beat, np.ndarray, list[CardOnTable]]:
        """The hand reaches in and pushes ``cards`` together into a pile; returns the pile."""
        tb = self.table

        def reach(u: float) -> Beat:
            return Beat(arms=[replace(g.arm, tip=tb.ideal(g.away + (g.pile + g.grip - g.away) * ease(u)))])

        def gather(u: float) -> Beat:
            e = ease(u)
            moved = [
                replace(
                    c,
                    pose=replace(
                        c.pose,
                        x=c.pose.x + (g.pile[0] - c.pose.x) * e,
                        y=c.pose.y + (g.pile[1] - c.pose.y) * e,
                        angle=c.pose.angle + (g.pile_angle - c.pose.angle) * e,
                    ),
                )
                for c in cards
            ]
            return Beat(moved, [replace(g.arm, tip=tb.ideal(g.pile + g.grip), curl=0.3 + 0.4 * e)])

        yield from self._steps(self._think(g.seat, 0.5), reach)
        self.on_table = [c for c in self.on_table if all(c is not k for k in cards)]  # in the hand's now
        yield from self._steps(float(self.rng.uniform(0.3, 0.6)), gather)
        return gather(1.0).held

    def _take_off(self, g: Gather, pile: list[CardOnTable]) -> Generator[Beat, np.ndarray, float]:
        """The pile swept off toward the winner's edge; returns when the last card left the image."""
        tb = self.table
        sweep_to = tb.seat_point(g.seat, 1.5, g.lateral)
        gone_at: float | None = None
        n = self._count(self._think(g.seat, 0.8))
        for i in range(n):
            shift = (sweep_to - g.pile) * ease((i + 1) / n)
            cards = [replace(c, pose=replace(c.pose, x=c.pose.x + shift[0], y=c.pose.y + shift[1])) for c in pile]
            yield Beat(cards, [replace(g.arm, tip=tb.ideal(g.pile + g.grip + shift), curl=0.7)])
            if gone_at is None and not any_in_view(tb, cards):
                gone_at = self.t - 1 / self.fps
        return self.t if gone_at is None else gone_at

    def _collecting(self, winner: int) -> Script:
        slot = self._slot(TrickCollected(seat=winner))
        yield from self._idle(float(self.rng.uniform(0.8, 2.0)))
        g = self.plan_gather(winner)
        pile = yield from self._gathering(g, list(self.on_table))
        gone_at = yield from self._take_off(g, pile)
        self._fill(slot, gone_at)
        yield from self._idle(float(self.rng.uniform(0.3, 0.8)))

    def collect(self, winner: int) -> Iterator[Frame]:
        """Pause, then the winner gathers the four cards and sweeps them off their edge."""
        yield from self._perform(self._collecting(winner))

    # -- the game ------------------------------------------------------------------------------

    def bodentrumpf(self, card: str, dealer: int) -> Iterator[Frame]:
        """Speck: the turned-up Bodentrumpf lies at the dealer's edge a while, then is taken up."""
        tb, rng = self.table, self.rng
        p = tb.centre + SEAT_DIRS[dealer] * (tb.half_extent(dealer) - 0.8 * tb.card_h)
        p = p + SEAT_DIRS[(dealer + 1) % 4] * tb.card_h * 1.2
        pose = Pose(float(p[0]), float(p[1]), tb.card_h, SEAT_ANGLES[dealer] + float(rng.normal(0, 20)))
        shown = [CardOnTable(card, pose, 1)]
        yield from self._frames(float(rng.uniform(1.5, 2.5)), lambda u: FrameState(shown))
        away = tb.seat_point(dealer, 1.0) - pose.corners().mean(0)

        def take(u: float) -> FrameState:
            e = ease(u)
            return FrameState([CardOnTable(card, replace(pose, x=pose.x + away[0] * e, y=pose.y + away[1] * e), 1)])

        yield from self._frames(0.6, take)
        yield from self._still(float(rng.uniform(0.5, 1.0)))

    def run(self, events: list[Event]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Play the untimed ``events`` (from :func:`simulate_game`) and yield frames."""
        first_round = True
        for ev in events:
            if isinstance(ev, GameConfigured):
                self.timed.append(replace(ev, t=0.0))
                yield from self._still(float(self.rng.uniform(1.0, 1.5)))
            elif isinstance(ev, RoundStarted):
                if not first_round:
                    yield from self._still(float(self.rng.uniform(2.0, 3.5)))
                first_round = False
                self.timed.append(replace(ev, t=round(self.t, 3)))
                if ev.bodentrumpf:
                    yield from self.bodentrumpf(ev.bodentrumpf, (ev.forehand + 3) % 4)
            elif isinstance(ev, CardPlayed):
                yield from self.play(ev.seat, ev.card)
            elif isinstance(ev, TrickCollected):
                if ev.seat is None:
                    raise ValueError("simulated trick_collected events must name the winner")
                yield from self.collect(ev.seat)
            else:  # Weis and Stöck: announced at the table as the card they follow is laid
                last = self.timed[-1].t if self.timed else 0.0
                self.timed.append(replace(ev, t=last))


# ---------------------------------------------------------------- render to a recording


def render_game(
    seed: int,
    out: str | Path,
    *,
    contract: str | None = None,
    deck: str = "swiss-xvii",
    style: str = "clean",
    rounds: int = 1,
    fps: float = 10.0,
    size: tuple[int, int] | None = None,
    variant: str = "schieber",
    geometry: Geometry | None = None,
    layout: str = "near-centre",
    codec: str = "mp4v",
    overwrite: bool = False,
    progress: Callable[[int], None] | None = None,
    habits: bool | Habits = False,
) -> dict[str, Any]:
    """Simulate a game for ``seed`` and write it as a recording folder at ``out``.

    Returns a summary: frames, duration, events, and the simulator's untimed events
    (``simulated``) so callers can check the recording against them. ``geometry``: the
    mounting; default the hardware guide's (``vision.synth.geometry.GUIDE``: 1280 x 960,
    cards 9-10 % of the short side), at ``size`` when that is given. ``layout``: how tricks
    are laid (``make_table``). ``habits``: the players' habits (``vision.synth.habits``), with
    their default chances or the ``Habits`` given; off, a seed renders as it always did.
    """
    if geometry is None:
        geometry = GUIDE if size is None else replace(GUIDE, width=size[0], height=size[1])
    size = (geometry.width, geometry.height)
    if style not in ("clean", "hard"):
        raise ValueError(f"style must be 'clean' or 'hard', got {style!r}")
    if deck not in available_decks() and deck not in OTHER_DECKS:
        raise ValueError(f"unknown deck {deck!r}; available: {', '.join(available_decks() + list(OTHER_DECKS))}")
    if not 1 <= fps <= 60:
        raise ValueError(f"fps must be between 1 and 60, got {fps}")
    width, height = size
    if not (64 <= width <= 4096 and 64 <= height <= 4096) or width % 2 or height % 2:
        raise ValueError(f"size {width}x{height}: width and height must be even and within 64..4096")
    events = simulate_game(seed, rounds=rounds, contract=contract, variant=variant)
    rng = np.random.default_rng(seed)
    table = make_table(rng, width, height, deck, style, geometry, layout)
    director = _director(seed, table, fps, rng, habits)
    chances = getattr(director, "habits", None)
    config = next(e for e in events if isinstance(e, GameConfigured))
    rules = {k: v for k, v in event_to_dict(config).items() if k not in ("type", "v", "t")}
    writer = RecordingWriter(
        out,
        fps=fps,
        width=width,
        height=height,
        camera={
            "source": "synthetic",
            "model": "vision.synth renderer",
            "distortion_k": table.camera.k_steps * 0.01,
            "lens": geometry.lens,
            "card_length_px": round(table.card_h, 1),
            "layout": layout,
        },
        deck=deck,
        rules=rules,
        start_time="2026-01-01T20:00:00+00:00",
        extra={
            "ground_truth": True,
            "generator": {
                "tool": "jasscam render-game",
                "seed": seed,
                "style": style,
                "rounds": rounds,
                "contract": contract,
                "variant": variant,
                **({"habits": asdict(chances)} if chances is not None else {}),
            },
        },
        codec=codec,
        overwrite=overwrite,
    )
    try:
        for frame, _ in director.run(events):
            writer.write_frame(frame)
            if progress is not None and writer.frame_count % 100 == 0:
                progress(writer.frame_count)
        for ev in director.timed:
            writer.add_event(ev)
        by_trick = getattr(director, "by_trick", None)
        if by_trick is not None:
            # The habits each trick was laid and collected with (the last entry is the trick
            # that never came): a benchmark tells which habits its lost tricks had.
            writer.meta["generator"]["habits_by_trick"] = [dict(c) for c in by_trick[:-1]]
    finally:
        writer.close()
    return {
        "path": str(writer.path),
        "frames": writer.frame_count,
        "duration_s": writer.frame_count / fps,
        "events": director.timed,
        "simulated": events,
    }


def _director(seed: int, table: Table, fps: float, rng: np.random.Generator, habits: bool | Habits) -> Director:
    """The plain Director, or one whose players have habits (imported here: it builds on this module)."""
    if habits is False:
        return Director(table, fps, rng)
    from vision.synth.habits import HabitDirector, Habits

    return HabitDirector(table, fps, rng, seed, habits if isinstance(habits, Habits) else None)
