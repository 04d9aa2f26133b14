"""Render simulated Jass games as camera video with exact ground-truth events.

The simulator (``scoring.simulate``) decides what is played; this module decides how it
looks and when: for each card a hand comes in from the player's edge carrying the card,
lays it near that player's seat, covers it for a moment and withdraws; after the fourth
card a pause, then the winner's hand gathers the trick and sweeps it off toward the
winner's edge; the table is empty between tricks. Timings vary per player and per move.

Event times are read off the rendered frames, so they are what a camera could see:
``card_played.t`` is the first frame in which the laid card is at rest and no longer
covered by the hand, ``trick_collected.t`` the first frame in which all four cards have
left the image.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
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
from vision.synth import props
from vision.synth.assets import available_decks, level_for
from vision.synth.camera import Camera, Light, random_light
from vision.synth.compose import Pose, fill_quad, paste_card
from vision.synth.deck import CardCache, DeckStyle, random_style
from vision.synth.game_events import VARIANTS, simulate_game
from vision.synth.geometry import GUIDE, Geometry
from vision.synth.other_decks import OTHER_DECKS, other_deck
from vision.synth.scene import SEAT_ANGLES, SEAT_DIRS, CardSource, DrawnCards
from vision.synth.textures import fine_noise, surface

#: How a trick is laid (``make_table``).
LAYOUTS = ("near-centre", "apart")

__all__ = [
    "LAYOUTS",
    "VARIANTS",
    "Arm",
    "CardOnTable",
    "Director",
    "FrameState",
    "Table",
    "make_table",
    "render_frame",
    "render_game",
    "simulate_game",
]

# ---------------------------------------------------------------- what is on screen


@dataclass
class CardOnTable:
    card: str
    pose: Pose
    label: int
    lift: float = 0.0


@dataclass
class Arm:
    start: np.ndarray  # shoulder, ideal image coordinates, off-screen
    tip: np.ndarray
    style: props.ArmStyle
    curl: float = 0.2


@dataclass
class FrameState:
    cards: list[CardOnTable] = field(default_factory=list)
    arms: list[Arm] = field(default_factory=list)


def _ease(u: float) -> float:
    u = min(max(u, 0.0), 1.0)
    return 0.5 - 0.5 * float(np.cos(np.pi * u))


@dataclass
class Table:
    """Everything fixed for one video: size, camera, light, deck, surface, people."""

    width: int
    height: int
    camera: Camera
    light: Light
    background: np.ndarray
    cards: CardSource
    card_h: float
    level: int
    centre: np.ndarray
    arms: list[props.ArmStyle]
    noise: float
    blur: float
    tempo: list[float]
    #: Tricks laid close about the centre (``make_table``'s "near-centre" layout).
    near: bool = False

    def half_extent(self, seat: int) -> float:
        return self.height / 2 if seat in (0, 2) else self.width / 2

    def seat_point(self, seat: int, out: float, lateral: float = 0.0) -> np.ndarray:
        """Table point ``out`` card heights beyond the seat's image edge (``lateral``: to the player's right)."""
        d = SEAT_DIRS[seat]
        right = SEAT_DIRS[(seat + 3) % 4]  # the player faces the centre; their right hand side
        return (self.centre + d * (self.half_extent(seat) + out * self.card_h)) + right * lateral * self.card_h

    def ideal(self, p: np.ndarray) -> np.ndarray:
        return self.camera.to_ideal(np.asarray(p, float).reshape(1, 2))[0]


def _card_source(rng: np.random.Generator, deck: str) -> CardSource:
    """The deck's art: a bundled deck (the training deck in a random procedural style) or a
    procedural benchmark deck."""
    if deck in OTHER_DECKS:
        return DrawnCards(DeckStyle(deck=deck), other_deck(deck))
    return CardCache(random_style(rng, deck, 1.0 if deck == "swiss-xvii" else 0.0))


def make_table(
    rng: np.random.Generator,
    width: int,
    height: int,
    deck: str,
    style: str,
    geometry: Geometry | None = None,
    layout: str = "apart",
) -> Table:
    """The table of one game: camera, cloth, light, deck, card size, the players' arms.

    ``geometry``: the mounting (card size, lens, tilt); without it cards are 19-24 % of the
    short side. ``layout``: "near-centre" lays each trick as real players do (close about
    the centre, overlapping, each card turned toward its player by up to 25 degrees),
    "apart" a card's length from the centre toward each player.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    hard = style == "hard"
    d = float(rng.uniform(0.55, 0.8)) if hard else float(rng.uniform(0.0, 0.2))
    if geometry is None:
        camera = Camera.random(rng, width, height, 0.5)
    else:
        camera = Camera.random(rng, width, height, 0.5 * geometry.tilt, geometry.distortion_steps(rng))
    tex = surface(rng, height, width, str(rng.choice(["felt", "felt", "cloth", "wood", "mat_on_wood", "plastic"])))
    background = cv2.warpPerspective(tex, camera.H, (width, height), borderMode=cv2.BORDER_REFLECT)
    light = random_light(rng, height, width, d)
    card_h = min(width, height) * float(rng.uniform(0.19, 0.24)) if geometry is None else geometry.card_length(rng)
    scale = float(np.sqrt(abs(np.linalg.det(camera.H[:2, :2]))))
    centre = np.array([width / 2, height / 2]) + rng.normal(0, 0.02, 2) * [width, height]
    return Table(
        width=width,
        height=height,
        camera=camera,
        light=light,
        background=background,
        cards=_card_source(rng, deck),
        card_h=card_h,
        level=level_for(card_h * scale),
        centre=centre,
        arms=[props.ArmStyle(rng, card_h * scale) for _ in range(4)],
        noise=float(rng.uniform(0.4, 0.9) + (4.0 if hard else 0.0)),
        blur=float(rng.uniform(0.0, 0.5) + (1.0 if hard else 0.0)),
        tempo=[float(rng.uniform(0.7, 1.4)) for _ in range(4)],
        near=layout == "near-centre",
    )


def render_frame(table: Table, state: FrameState, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One camera frame of ``state`` and its label map (card labels, props.OCCLUDER for arms)."""
    img = table.background.copy()
    labels = np.zeros((table.height, table.width), np.uint8)
    for c in state.cards:
        paste_card(
            img, labels, table.cards.get(c.card, table.level), c.pose, table.camera, c.label, shadow=0.3, lift=c.lift
        )
    for arm in state.arms:
        props.draw_arm(img, labels, arm.start, arm.tip, arm.style, curl=arm.curl, height=1.2)
    img = table.light.apply(img)
    img = table.camera.distort(img)
    labels = table.camera.distort(labels, cv2.INTER_NEAREST)
    if table.blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), table.blur)
    noisy = img.astype(np.float32) + fine_noise(rng, table.height, table.width) * table.noise
    return np.clip(noisy, 0, 255).astype(np.uint8), labels


def _uncovered(table: Table, labels: np.ndarray, pose: Pose) -> bool:
    """No arm pixel lies on the card (checked in the distorted frame)."""
    quad = table.camera.project(pose.corners())
    mask = np.zeros_like(labels)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return not bool(np.any(labels[mask > 0] == props.OCCLUDER))


def _any_in_view(table: Table, cards: list[CardOnTable]) -> bool:
    """Whether any pixel of these cards is in the frame, hands ignored (the same
    rasterisation and lens mapping as the rendered label map)."""
    mask = np.zeros((table.height, table.width), np.uint8)
    for c in cards:
        fill_quad(mask, table.camera.to_ideal(c.pose.corners()), 1)
    return bool(table.camera.distort(mask, cv2.INTER_NEAREST).any())


# ---------------------------------------------------------------- the animation


class Director:
    """Turns the untimed event list into frames and timed events."""

    def __init__(self, table: Table, fps: float, rng: np.random.Generator) -> None:
        self.table = table
        self.fps = fps
        self.rng = rng
        self.frame_index = 0
        self.on_table: list[CardOnTable] = []
        self.timed: list[Event] = []

    @property
    def t(self) -> float:
        return self.frame_index / self.fps

    def _frames(self, seconds: float, step: Callable[[float], FrameState]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Render ``seconds`` of animation; ``step(u)`` gives the state at progress u in [0, 1]."""
        n = max(1, round(seconds * self.fps))
        for i in range(n):
            frame, labels = render_frame(self.table, step((i + 1) / n), self.rng)
            self.frame_index += 1
            yield frame, labels

    def _still(self, seconds: float) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        state = FrameState(list(self.on_table))
        yield from self._frames(seconds, lambda u: state)

    def _think(self, seat: int, base: float) -> float:
        return float(base * self.table.tempo[seat] * self.rng.lognormal(0.0, 0.35))

    def play(self, seat: int, card: str) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """A hand brings ``card`` from ``seat``'s edge, lays it, covers it a moment, withdraws."""
        tb, rng = self.table, self.rng
        dist = tb.card_h * float(rng.uniform(0.25, 0.5) if tb.near else rng.uniform(0.55, 0.85))
        tangent = SEAT_DIRS[(seat + 1) % 4] * tb.card_h * float(rng.normal(0, 0.15))
        pos = tb.centre + SEAT_DIRS[seat] * dist + tangent
        angle = SEAT_ANGLES[seat] + float(rng.uniform(-25, 25) if tb.near else rng.normal(0, 10))
        final = Pose(pos[0], pos[1], tb.card_h, angle)
        lateral = float(rng.uniform(-0.3, 0.9))
        shoulder = tb.ideal(tb.seat_point(seat, 4.0, lateral))
        grip = SEAT_DIRS[seat] * tb.card_h * float(rng.uniform(-0.25, 0.05))  # fingertips past the card centre
        tip_rest = pos + grip
        tip_away = tb.seat_point(seat, 1.0, lateral)
        twist = float(rng.normal(0, 15))
        arm = Arm(shoulder, tb.ideal(tip_rest), tb.arms[seat], curl=float(rng.uniform(0.1, 0.5)))
        label = len(self.on_table) + 1
        yield from self._still(self._think(seat, 0.8))

        def approach(u: float) -> FrameState:
            e = _ease(u)
            tip = tip_away + (tip_rest - tip_away) * e
            c = tip - grip
            pose = replace(final, x=float(c[0]), y=float(c[1]), angle=angle + twist * (1 - e))
            return FrameState(
                self.on_table + [CardOnTable(card, pose, label, lift=1 - e)], [replace(arm, tip=tb.ideal(tip))]
            )

        yield from self._frames(self._think(seat, 0.5), approach)
        laid = CardOnTable(card, final, label)
        rest = FrameState(self.on_table + [laid], [arm])
        yield from self._frames(float(rng.uniform(0.15, 0.4)), lambda u: rest)
        self.on_table.append(laid)
        seen_at: float | None = None

        def withdraw(u: float) -> FrameState:
            tip = tip_rest + (tip_away - tip_rest) * _ease(u)
            return FrameState(list(self.on_table), [replace(arm, tip=tb.ideal(tip), curl=0.6)])

        for frame, labels in self._frames(self._think(seat, 0.45), withdraw):
            if seen_at is None and _uncovered(tb, labels, final):
                seen_at = self.t - 1 / self.fps
            yield frame, labels
        if seen_at is None:
            seen_at = self.t
        self.timed.append(CardPlayed(seat=seat, card=card, t=round(seen_at, 3), source="camera"))

    def collect(self, winner: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Pause, then the winner gathers the four cards and sweeps them off their edge."""
        tb, rng = self.table, self.rng
        yield from self._still(float(rng.uniform(0.8, 2.0)))
        lateral = float(rng.uniform(-0.3, 0.6))
        shoulder = tb.ideal(tb.seat_point(winner, 4.0, lateral))
        away = tb.seat_point(winner, 1.0, lateral)
        pile = tb.centre + SEAT_DIRS[winner] * tb.card_h * 0.3
        grip = SEAT_DIRS[winner] * tb.card_h * -0.2
        arm = Arm(shoulder, tb.ideal(away), tb.arms[winner], curl=0.3)
        start = [c.pose for c in self.on_table]
        pile_angle = SEAT_ANGLES[winner] + float(rng.normal(0, 8))

        def reach(u: float) -> FrameState:
            tip = away + (pile + grip - away) * _ease(u)
            return FrameState(list(self.on_table), [replace(arm, tip=tb.ideal(tip))])

        yield from self._frames(self._think(winner, 0.5), reach)

        def gather(u: float) -> FrameState:
            e = _ease(u)
            cards = [
                replace(
                    c,
                    pose=replace(
                        p,
                        x=p.x + (pile[0] - p.x) * e,
                        y=p.y + (pile[1] - p.y) * e,
                        angle=p.angle + (pile_angle - p.angle) * e,
                    ),
                )
                for c, p in zip(self.on_table, start, strict=True)
            ]
            return FrameState(cards, [replace(arm, tip=tb.ideal(pile + grip), curl=0.3 + 0.4 * e)])

        yield from self._frames(float(rng.uniform(0.3, 0.6)), gather)
        gathered = gather(1.0).cards
        sweep_to = tb.seat_point(winner, 1.5, lateral)
        gone_at: float | None = None

        def sweep(u: float) -> FrameState:
            shift = (sweep_to - pile) * _ease(u)
            cards = [replace(c, pose=replace(c.pose, x=c.pose.x + shift[0], y=c.pose.y + shift[1])) for c in gathered]
            return FrameState(cards, [replace(arm, tip=tb.ideal(pile + grip + shift), curl=0.7)])

        n = max(1, round(self._think(winner, 0.8) * self.fps))
        for i in range(n):
            state = sweep((i + 1) / n)
            frame, labels = render_frame(tb, state, rng)
            self.frame_index += 1
            if gone_at is None and not _any_in_view(tb, state.cards):
                gone_at = self.t - 1 / self.fps
            yield frame, labels
        if gone_at is None:
            gone_at = self.t
        self.on_table = []
        self.timed.append(TrickCollected(seat=winner, t=round(gone_at, 3)))
        yield from self._still(float(rng.uniform(0.3, 0.8)))

    def bodentrumpf(self, card: str, dealer: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Speck: the turned-up Bodentrumpf lies at the dealer's edge a while, then is taken up."""
        tb, rng = self.table, self.rng
        p = tb.centre + SEAT_DIRS[dealer] * (tb.half_extent(dealer) - 0.8 * tb.card_h)
        p = p + SEAT_DIRS[(dealer + 1) % 4] * tb.card_h * 1.2
        pose = Pose(float(p[0]), float(p[1]), tb.card_h, SEAT_ANGLES[dealer] + float(rng.normal(0, 20)))
        shown = [CardOnTable(card, pose, 1)]
        yield from self._frames(float(rng.uniform(1.5, 2.5)), lambda u: FrameState(shown))
        away = tb.seat_point(dealer, 1.0) - pose.corners().mean(0)

        def take(u: float) -> FrameState:
            e = _ease(u)
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
) -> dict[str, Any]:
    """Simulate a game for ``seed`` and write it as a recording folder at ``out``.

    Returns a summary: frames, duration, events, and the simulator's untimed events
    (``simulated``) so callers can check the recording against them. ``geometry``: the
    mounting; default the hardware guide's (``vision.synth.geometry.GUIDE``: 1280 x 960,
    cards 9-10 % of the short side), at ``size`` when that is given. ``layout``: how tricks
    are laid (``make_table``).
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
    director = Director(table, fps, rng)
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
    finally:
        writer.close()
    return {
        "path": str(writer.path),
        "frames": writer.frame_count,
        "duration_s": writer.frame_count / fps,
        "events": director.timed,
        "simulated": events,
    }
