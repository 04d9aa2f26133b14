"""What a rendered game shows in one frame: the table (camera, cloth, light, deck, card
size, the players' arms), the cards lying on it and the arms over it; and the plans of the
hands that move them (a card laid, a trick gathered), frame by frame.

``vision.synth.game`` animates these into a game; the pieces live here so that the
animation module stays about timing, not drawing.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.synth import props
from vision.synth.assets import level_for
from vision.synth.camera import Camera, Light, random_light
from vision.synth.compose import Pose, fill_quad, paste_card
from vision.synth.deck import CardCache, DeckStyle, random_style
from vision.synth.geometry import Geometry
from vision.synth.other_decks import OTHER_DECKS, other_deck
from vision.synth.scene import SEAT_DIRS, CardSource, DrawnCards
from vision.synth.textures import fine_noise, surface

#: How a trick is laid (``make_table``).
LAYOUTS = ("near-centre", "apart")


@dataclass
class CardOnTable:
    """A card in view: its art, where it lies, its label in the label map, and how far it is
    raised (``lift``: 0 lying, 1 held up)."""

    card: str
    pose: Pose
    label: int
    lift: float = 0.0


@dataclass
class Arm:
    """A player's arm reaching from its shoulder off-screen to its fingertips at ``tip``."""

    start: np.ndarray  # shoulder, ideal image coordinates, off-screen
    tip: np.ndarray
    style: props.ArmStyle
    curl: float = 0.2


@dataclass
class FrameState:
    """Everything drawn in one frame: the cards (bottom first), then the arms over them."""

    cards: list[CardOnTable] = field(default_factory=list)
    arms: list[Arm] = field(default_factory=list)


def ease(u: float) -> float:
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


def uncovered(table: Table, labels: np.ndarray, pose: Pose) -> bool:
    """No arm pixel lies on the card (checked in the distorted frame)."""
    quad = table.camera.project(pose.corners())
    mask = np.zeros_like(labels)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return not bool(np.any(labels[mask > 0] == props.OCCLUDER))


def any_in_view(table: Table, cards: list[CardOnTable]) -> bool:
    """Whether any pixel of these cards is in the frame, hands ignored (the same
    rasterisation and lens mapping as the rendered label map)."""
    mask = np.zeros((table.height, table.width), np.uint8)
    for c in cards:
        fill_quad(mask, table.camera.to_ideal(c.pose.corners()), 1)
    return bool(table.camera.distort(mask, cv2.INTER_NEAREST).any())


# ---------------------------------------------------------------- what moves it


#: One rendered frame and its label map.
Frame = tuple[np.ndarray, np.ndarray]


@dataclass
class Beat:
    """One frame of one action: the cards it holds or moves (drawn over the cards lying on
    the table) and its arms. ``release``: after this frame the next action may begin while
    this one goes on (a hand still withdrawing as the next comes in)."""

    held: list[CardOnTable] = field(default_factory=list)
    arms: list[Arm] = field(default_factory=list)
    release: bool = False


#: An action, frame by frame: it yields a Beat per frame and is sent that frame's label map,
#: so that it can time what the camera sees (a card uncovered, a trick gone).
Script = Generator[Beat, np.ndarray, None]


@dataclass
class Lay:
    """One card's way onto the table: where it comes to rest and the hand that brings it."""

    seat: int
    card: str
    final: Pose
    label: int
    twist: float  # degrees the card is turned in the hand before it lies straight
    grip: np.ndarray  # the fingertips, from the card's centre (table coordinates)
    tip_away: np.ndarray  # the fingertips once the hand is out of view
    arm: Arm  # its tip where the card lies

    @property
    def tip_rest(self) -> np.ndarray:
        return np.array([self.final.x, self.final.y]) + self.grip


@dataclass
class Gather:
    """The winner's hand that gathers cards into a pile in front of them and takes it off."""

    seat: int
    lateral: float  # where along the edge the arm comes in, card heights to the player's right
    arm: Arm  # its tip out of view, at ``away``
    away: np.ndarray
    pile: np.ndarray
    grip: np.ndarray
    pile_angle: float
