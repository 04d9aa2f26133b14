"""One synthetic overhead photo of a Jass table, with exact per-card ground truth.

``render_scene(seed)`` lays out what a camera over a Jass table sees mid-game (a trick
of up to four cards near their players' seats, a face-up Bodentrumpf, stacks of won
tricks, stray cards, a fan of held cards at the edge, arms, phones, glasses, coins, a
score slate), photographs it through a slightly tilted, distorting camera under uneven
light, and reports for every card its id, corners, box and visible fraction.

Ground truth comes from the same transforms that draw the image: card corners go through
the camera's homography and lens model, and the visible fraction counts the card's own
pixels in a label map rendered alongside the image, so occlusion and cropping are exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.synth import props
from vision.synth.assets import BACK, DeckError, available_decks, level_for
from vision.synth.camera import Camera, blur, lighting, sensor
from vision.synth.compose import Pose, paste_card
from vision.synth.deck import COURT_RANKS, CardCache, DeckStyle, random_style
from vision.synth.geometry import Geometry
from vision.synth.textures import TABLE_SURFACES, surface

STYLES = ("clean", "hard", "mixed")
#: Unit vectors from the table centre toward each seat: 0 bottom, 1 right, 2 top, 3 left.
SEAT_DIRS = np.array([(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)])
#: Rotation of a card laid by each seat so that it faces that player (degrees).
SEAT_ANGLES = (0.0, -90.0, 180.0, 90.0)


@dataclass
class CardTruth:
    """Ground truth for one card in a scene.

    ``card`` is a canonical id or ``"back"``. ``corners`` (4x2 float32, frame pixels) run
    clockwise from the top-left of the upright artwork, so a card turned 180 degrees has
    its first corner bottom-right on screen. ``box`` is the card's extent clipped to the
    frame; ``visible`` the fraction of its area neither hidden nor outside the frame.
    ``symmetric`` marks cards that look the same turned 180 degrees (backs, double-headed
    court cards), where the corner order cannot be read from pixels. ``role`` says how the
    card lies (trick, bodentrumpf, stack, single, held), ``seat`` who laid a trick card.
    """

    card: str
    corners: np.ndarray
    box: tuple[float, float, float, float]
    visible: float
    symmetric: bool = False
    role: str = "single"
    seat: int | None = None

    @property
    def face_up(self) -> bool:
        return self.card != BACK

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "box": [round(float(v), 2) for v in self.box],
            "visible": round(float(self.visible), 4),
            "symmetric": self.symmetric,
            "role": self.role,
            "seat": self.seat,
        }


@dataclass
class Scene:
    """A rendered frame (H, W, 3 uint8 BGR) and its cards, bottom-most first.

    ``mask`` is the label map behind ``visible``: 0 table, ``i + 1`` for ``cards[i]``'s
    placement (cards with nothing visible are dropped from ``cards`` but keep their
    label), 255 for props and arms. Use ``label_of(i)``.
    """

    image: np.ndarray
    cards: list[CardTruth]
    mask: np.ndarray = field(repr=False)
    seed: int = 0
    style: str = "mixed"
    deck: str = "swiss-xvii"
    difficulty: float = 0.0
    labels: list[int] = field(default_factory=list, repr=False)
    deck_style: DeckStyle | None = field(default=None, repr=False)

    def label_of(self, i: int) -> int:
        return self.labels[i]

    def to_json(self) -> dict[str, Any]:
        h, w = self.image.shape[:2]
        return {
            "seed": self.seed,
            "style": self.style,
            "deck": self.deck,
            "difficulty": round(self.difficulty, 3),
            "width": w,
            "height": h,
            "cards": [c.to_json() for c in self.cards],
        }


@dataclass
class Placed:
    card: str
    pose: Pose
    role: str
    seat: int | None = None
    lift: float = 0.0


def _difficulty(rng: np.random.Generator, style: str) -> float:
    if style == "clean":
        return float(rng.uniform(0.0, 0.25))
    if style == "hard":
        return float(rng.uniform(0.7, 1.0))
    return float(rng.uniform(0.0, 1.0))


def _trick(
    rng: np.random.Generator,
    centre: np.ndarray,
    card_h: float,
    d: float,
    draw: list[str],
    near: bool = False,
) -> list[Placed]:
    """A trick of up to four cards; ``near``: as real players lay them, close together about the
    centre, overlapping, each turned toward its player by up to 25 degrees."""
    n = int(rng.choice(5, p=[0.06, 0.16, 0.2, 0.25, 0.33]))
    leader = int(rng.integers(4))
    out = []
    for k in range(n):
        seat = (leader + k) % 4
        lo = (0.22 if near else 0.62) - 0.3 * d * (0.5 if near else 1.0)  # closer together on hard samples
        dist = card_h * rng.uniform(lo, lo + 0.35)
        tangent = SEAT_DIRS[(seat + 1) % 4] * card_h * rng.normal(0, 0.12)
        pos = centre + SEAT_DIRS[seat] * dist + tangent
        spread = rng.uniform(-25, 25) if near else rng.normal(0, 10 + 15 * d)
        angle = SEAT_ANGLES[seat] + spread
        if rng.random() < 0.08:
            angle += 180
        elif rng.random() < 0.06:
            angle = rng.uniform(-180, 180)
        out.append(Placed(draw.pop(), Pose(pos[0], pos[1], card_h, angle), "trick", seat))
    return out


def _near_edge(rng: np.random.Generator, w: int, h: int, card_h: float, outside: float = 0.3) -> np.ndarray:
    """A point near a random edge, sometimes so close that a card there is cut off."""
    side = int(rng.integers(4))
    t = rng.uniform(0.1, 0.9)
    inset = card_h * rng.uniform(-outside, 0.9)
    return np.array([(t * w, h - inset), (w - inset, t * h), (t * w, inset), (inset, t * h)][side], float)


def _layout(rng: np.random.Generator, w: int, h: int, card_h: float, d: float, near: bool = False) -> list[Placed]:
    """What lies on the table, bottom-most first (``near``: the trick laid as real players lay it)."""
    draw = [str(c) for c in rng.permutation(np.array(ALL_CARD_IDS))]
    placed: list[Placed] = []
    if rng.random() < 0.3:  # Bodentrumpf, often under a stack
        p = _near_edge(rng, w, h, card_h, 0.1)
        placed.append(Placed(draw.pop(), Pose(p[0], p[1], card_h, rng.uniform(-180, 180)), "bodentrumpf"))
    for _ in range(int(rng.poisson(0.5 + 0.7 * d))):  # stacks of won tricks, face down
        p = _near_edge(rng, w, h, card_h, 0.4)
        base = rng.uniform(-180, 180)
        for _ in range(int(rng.integers(2, 13))):
            q = p + rng.normal(0, 0.05 * card_h, 2)
            placed.append(Placed(BACK, Pose(q[0], q[1], card_h, base + rng.normal(0, 6)), "stack"))
    for _ in range(int(rng.poisson(0.7))):  # stray cards anywhere, some cut off by the frame
        q = np.array([rng.uniform(-0.1, 1.1) * w, rng.uniform(-0.1, 1.1) * h])
        card = draw.pop() if rng.random() < 0.75 else BACK
        placed.append(Placed(card, Pose(q[0], q[1], card_h, rng.uniform(-180, 180)), "single"))
    centre = np.array([w / 2, h / 2]) + rng.normal(0, 0.06, 2) * [w, h]
    if near and rng.random() < 0.15:  # sometimes played far off the centre
        centre = np.array([w / 2, h / 2]) + rng.uniform(-0.3, 0.3, 2) * [w, h]
    placed.extend(_trick(rng, centre, card_h, d, draw, near))
    if rng.random() < 0.12 + 0.15 * d:  # a fan of cards held over the table edge
        side = int(rng.integers(4))
        anchor = props.edge_point(rng, w, h, side, 0.6) - SEAT_DIRS[side] * card_h * rng.uniform(0.1, 0.5)
        face = rng.random() < 0.6
        n = int(rng.integers(3, 7))
        for k in range(n):
            a = SEAT_ANGLES[side] + (k - (n - 1) / 2) * rng.uniform(8, 14)
            rad = np.deg2rad(a)
            up = np.array([np.sin(rad), -np.cos(rad)])  # the card's top direction
            q = anchor + up * card_h * 0.45 + SEAT_DIRS[(side + 1) % 4] * (k - n / 2) * 3
            placed.append(Placed(draw.pop() if face else BACK, Pose(q[0], q[1], card_h * 1.05, a), "held", None, 1.0))
    return placed


def _props(
    rng: np.random.Generator,
    img: np.ndarray,
    labels: np.ndarray,
    placed: list[Placed],
    camera: Camera,
    card_h: float,
    d: float,
    kinds: dict[str, Any] | None = None,
) -> None:
    h, w = img.shape[:2]
    kinds = kinds or props.PROPS
    for _ in range(int(rng.poisson(0.3 + 1.2 * d))):
        kind = list(kinds)[int(rng.integers(len(kinds)))]
        if placed and rng.random() < 0.4 + 0.4 * d:  # over a card: occlusion
            target = placed[int(rng.integers(len(placed)))].pose
            c = camera.to_ideal(np.array([[target.x, target.y]]))[0] + rng.normal(0, 0.5 * card_h, 2)
        else:
            c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        kinds[kind](img, labels, rng, c, card_h)
    for _ in range(int(rng.poisson(0.25 + 1.1 * d))):
        side = int(rng.integers(4))
        start = props.edge_point(rng, w, h, side)
        if placed and rng.random() < 0.6:
            target = placed[int(rng.integers(len(placed)))].pose
            tip = camera.to_ideal(np.array([[target.x, target.y]]))[0] + rng.normal(0, 0.4 * card_h, 2)
        else:
            tip = np.array([rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h])
        style = props.ArmStyle(rng, card_h)
        props.draw_arm(
            img, labels, start, tip, style, curl=float(rng.uniform(0, 0.8)), height=float(rng.uniform(0.5, 2))
        )


def _truth(
    placed: list[Placed], camera: Camera, labels: np.ndarray, style: DeckStyle
) -> tuple[list[CardTruth], list[int]]:
    h, w = labels.shape
    counts = np.bincount(labels.ravel(), minlength=256)
    out: list[CardTruth] = []
    kept: list[int] = []
    for i, p in enumerate(placed):
        corners = camera.project(p.pose.corners())
        edge = camera.project(p.pose.outline())  # edges bend under lens distortion: use many points
        x, y = edge[:, 0], edge[:, 1]
        area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
        visible = min(1.0, counts[i + 1] / area) if area > 0 else 0.0
        if visible <= 0.0:
            continue
        box = (
            float(np.clip(edge[:, 0].min(), 0, w)),
            float(np.clip(edge[:, 1].min(), 0, h)),
            float(np.clip(edge[:, 0].max(), 0, w)),
            float(np.clip(edge[:, 1].max(), 0, h)),
        )
        symmetric = p.card == BACK or (style.double_headed and p.card.split("-", 1)[1] in COURT_RANKS)
        out.append(CardTruth(p.card, corners.astype(np.float32), box, float(visible), symmetric, p.role, p.seat))
        kept.append(i + 1)
    return out, kept


def render_scene(
    seed: int,
    *,
    width: int = 640,
    height: int = 480,
    style: str = "mixed",
    deck: str = "swiss-xvii",
    geometry: Geometry | None = None,
) -> Scene:
    """Render the scene for ``seed``; the same arguments always give the same pixels and truth.

    ``style``: "clean" (good light, little clutter), "hard" (strong blur, noise, glare, low
    light, heavy occlusion) or "mixed" (anything between). ``deck``: the card art; only
    the training deck (swiss-xvii) gets procedural deck variants. ``geometry``: the camera's
    mounting (frame size, card size, lens, tilt; ``vision.synth.geometry``), which replaces
    ``width`` and ``height`` and lays the trick as real players do; without it the cards
    are 17-30 % of the short side.
    """
    if geometry is not None:
        width, height = geometry.width, geometry.height
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
    if deck not in available_decks():
        raise DeckError(f"unknown deck {deck!r}; available: {', '.join(available_decks())}")
    if width < 64 or height < 64 or width > 4096 or height > 4096:
        raise ValueError(f"size {width}x{height} out of range 64..4096")
    rng = np.random.default_rng(seed)
    d = _difficulty(rng, style)
    deck_style = random_style(rng, deck, 0.0 if rng.random() < 0.2 else 1.0)
    return draw_table(
        rng,
        d,
        CardCache(deck_style),
        seed=seed,
        width=width,
        height=height,
        style=style,
        deck=deck,
        geometry=geometry,
    )


class CardSource(Protocol):
    """Card art by id and level of detail, and the ``DeckStyle`` it was drawn in (``CardCache`` and kin)."""

    @property
    def style(self) -> DeckStyle: ...

    def get(self, card: str, level: int) -> np.ndarray: ...


@dataclass(frozen=True)
class DrawnCards:
    """A ``CardSource`` for a deck drawn once in full: ``images[card]`` is its art per level."""

    style: DeckStyle
    images: dict[str, tuple[np.ndarray, ...]]

    def get(self, card: str, level: int) -> np.ndarray:
        return self.images[card][level]


def draw_table(
    rng: np.random.Generator,
    d: float,
    cards: CardSource,
    *,
    seed: int,
    width: int,
    height: int,
    style: str,
    deck: str,
    geometry: Geometry | None = None,
) -> Scene:
    """Camera, table, layout, props, light and sensor for one scene, with the cards drawn from ``cards``.

    Shared by ``render_scene`` and the renderers that swap the card art (procedural decks
    for benchmarks and for training), so every deck is seen on the same tables.
    """
    if geometry is None:
        camera = Camera.random(rng, width, height, 0.5 + 0.5 * d)
        card_h = min(width, height) * rng.uniform(0.17, 0.3)
    else:
        width, height = geometry.width, geometry.height
        strength = (0.5 + 0.5 * d) * geometry.tilt
        camera = Camera.random(rng, width, height, strength, geometry.distortion_steps(rng))
        card_h = geometry.card_length(rng)

    if geometry is None:
        table = surface(rng, height, width)
    else:
        table = surface(rng, height, width, str(TABLE_SURFACES[int(rng.integers(len(TABLE_SURFACES)))]))
    img = cv2.warpPerspective(table, camera.H, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    labels = np.zeros((height, width), np.uint8)
    placed = _layout(rng, width, height, card_h, d, near=geometry is not None)[:254]
    scale = float(np.sqrt(abs(np.linalg.det(camera.H[:2, :2]))))
    level = level_for(card_h * scale)
    for i, p in enumerate(placed):
        paste_card(
            img,
            labels,
            cards.get(p.card, level),
            p.pose,
            camera,
            i + 1,
            shadow=float(rng.uniform(0.15, 0.4)),
            lift=p.lift,
        )
    _props(rng, img, labels, placed, camera, card_h * scale, d, props.TABLE_PROPS if geometry is not None else None)
    img = lighting(rng, img, d)
    img = camera.distort(img)
    labels = camera.distort(labels, cv2.INTER_NEAREST)
    img = blur(rng, img, d)
    img = sensor(rng, img, d)
    truth, kept = _truth(placed, camera, labels, cards.style)
    return Scene(img, truth, labels, seed, style, deck, d, kept, cards.style)
