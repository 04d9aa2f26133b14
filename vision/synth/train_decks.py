"""Procedurally drawn French-suited decks, for training the identifier only.

Why: the identifier learnt its embedding from one Swiss-German artist's cards, so it
barely tells a club from a spade or counts a French 7 from an 8, and a French deck
enrolled from one picture per card is read less surely than the built-in one (issue 8).
Training also on many French decks, each drawn with its own pip shapes, proportions,
red and black inks, index fonts and letters, court figures and backs, teaches the
embedding what French suits and ranks look like in general, without ever showing it a
deck that a benchmark measures.

Held apart from what is measured: the paris deck's art is never used, and the two
benchmark decks of ``vision.synth.other_decks`` are not drawn here (no four-colour
inks, no pips on a plain grid, no court letters on coloured bands, no Swiss suits).
``render_edged_scene`` gives half the decks coloured edges (bands at the
short ends, along the long sides, or a coloured margin all round, ``edge_look``): the
flat benchmark deck has bands at its short ends, and outlines stop at them. The shipped
refiner and verifier were not trained on these edges (models/README.md says which
models saw them), so that benchmark deck stays unseen.
Labels are the canonical Swiss ids the scoring uses: kreuz=eicheln, schaufel=schilten,
herz=rosen, ecken=schellen.

``render_scene`` has ``vision.synth.scene.render_scene``'s signature, so
``python -m vision.train render --renderer vision.synth.train_decks:render_scene`` renders
training chunks with one of ``DECKS`` decks per scene.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.synth import scene as _scene
from vision.synth.assets import BACK, art_levels
from vision.synth.deck import DeckStyle, rounded_alpha
from vision.synth.geometry import Geometry

#: Distinct decks: scene ``seed`` uses deck ``(seed // RUN) % DECKS``, so runs of seeds
#: share a deck and a chunk of scenes draws a few decks, not one per scene.
DECKS = 48
RUN = 25
FAMILY = "french-train"
W0, H0 = 316, 492
AA = cv2.LINE_AA
Colour = tuple[int, int, int]
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
    cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC,
)
#: Court and ace letters in the languages French-suited decks are printed in (J Q K A; B D K A; V D R 1).
LETTERS = (
    {"under": "J", "ober": "Q", "koenig": "K", "ass": "A"},
    {"under": "B", "ober": "D", "koenig": "K", "ass": "A"},
    {"under": "V", "ober": "D", "koenig": "R", "ass": "1"},
    {"under": "J", "ober": "D", "koenig": "K", "ass": "As"},
)
#: Classic French pip positions (column, row) as fractions of the pip box; pips below the middle are turned.
LAYOUTS: dict[str, list[tuple[float, float]]] = {
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


@dataclass(frozen=True)
class FrenchLook:
    """Everything that makes one drawn deck differ from another."""

    paper: Colour
    red: Colour
    black: Colour
    heart: tuple[float, float, float]  # lobe radius, lobe spread, point depth
    spade: tuple[float, float, float]
    club: tuple[float, float]  # leaf radius, leaf spread
    diamond: float  # width / height
    outline: bool  # pips drawn as outlines with a lighter fill
    pip: float  # pip size, pixels at full resolution
    box: tuple[float, float]  # pip box margins (x, y) as fractions of the card
    font: int
    index_scale: float
    letters: dict[str, str]
    four_indices: bool
    frame: int  # 0 none, 1 line, 2 double line
    court_colours: tuple[Colour, Colour, Colour]
    back_colour: Colour
    back_pattern: int
    #: Coloured card edges: 0 none, 1 bands across both short ends, 2 a margin
    #: all round (a card printed on coloured stock), 3 bands along both long sides.
    edge: int = 0
    edge_size: float = 0.0  # band width, fraction of the card's side it runs across
    edge_colour: Colour = (0, 0, 0)

    @classmethod
    def random(cls, rng: np.random.Generator) -> FrenchLook:
        def ink(base: Colour, spread: int) -> Colour:
            return tuple(int(np.clip(c + rng.integers(-spread, spread + 1), 0, 255)) for c in base)  # type: ignore[return-value]

        palette = [
            (40, 40, 200),
            (160, 70, 30),
            (40, 170, 220),
            (60, 130, 50),
            (120, 40, 120),
            (30, 30, 30),
            (200, 200, 220),
        ]
        picks = rng.choice(len(palette), 3, replace=False)
        return cls(
            paper=ink((245, 248, 250), 10),
            red=ink((45, 35, 200), 30),
            black=ink((30, 30, 30), 25),
            heart=(float(rng.uniform(0.34, 0.48)), float(rng.uniform(0.3, 0.45)), float(rng.uniform(0.85, 1.1))),
            spade=(float(rng.uniform(0.34, 0.46)), float(rng.uniform(0.3, 0.42)), float(rng.uniform(0.9, 1.15))),
            club=(float(rng.uniform(0.28, 0.4)), float(rng.uniform(0.38, 0.52))),
            diamond=float(rng.uniform(0.55, 0.8)),
            outline=bool(rng.random() < 0.15),
            pip=float(rng.uniform(24, 38)),
            box=(float(rng.uniform(0.22, 0.3)), float(rng.uniform(0.14, 0.2))),
            font=int(FONTS[int(rng.integers(len(FONTS)))]),
            index_scale=float(rng.uniform(1.0, 1.6)),
            letters=LETTERS[int(rng.integers(len(LETTERS)))],
            four_indices=bool(rng.random() < 0.3),
            frame=int(rng.integers(3)),
            court_colours=tuple(ink(palette[int(k)], 20) for k in picks),  # type: ignore[arg-type]
            back_colour=ink(palette[int(rng.integers(len(palette) - 1))], 30),
            back_pattern=int(rng.integers(3)),
        )


def edge_look(index: int) -> tuple[int, float, Colour]:
    """Deck ``index``'s coloured edges, from a generator of their own (the rest of the deck is drawn as without).

    Why: a refiner and a verifier that saw only cards with paper-coloured edges put a
    banded card's outline where the paper meets the band, cutting off both bands (the
    flat benchmark deck's corner error is in models/README.md). Half the drawn decks get
    coloured edges of some kind.
    """
    rng = np.random.default_rng(9_900_000 + index)
    if rng.random() < 0.5:
        return 0, 0.0, (0, 0, 0)
    kind = int(rng.integers(1, 4))
    size = float(rng.uniform(0.06, 0.16) if kind == 1 else rng.uniform(0.04, 0.12))
    hue = int(rng.integers(180))
    sat, val = int(rng.integers(60, 256)), int(rng.integers(40, 240))
    bgr = cv2.cvtColor(np.array([[[hue, sat, val]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return kind, size, (int(bgr[0]), int(bgr[1]), int(bgr[2]))


def _edges(img: np.ndarray, look: FrenchLook) -> None:
    if look.edge == 1:
        b = round(H0 * look.edge_size)
        img[:b] = look.edge_colour
        img[H0 - b :] = look.edge_colour
    elif look.edge == 2:
        b = round(W0 * look.edge_size)
        img[:b] = img[H0 - b :] = look.edge_colour
        img[:, :b] = img[:, W0 - b :] = look.edge_colour
    elif look.edge == 3:
        b = round(W0 * look.edge_size)
        img[:, :b] = look.edge_colour
        img[:, W0 - b :] = look.edge_colour


def _poly(cx: float, cy: float, s: float, pts: list[tuple[float, float]], flip: bool) -> np.ndarray:
    f = -1.0 if flip else 1.0
    return np.array([[cx + x * s, cy + f * y * s] for x, y in pts], np.int32)


def _pip_mask(
    look: FrenchLook, suit: str, cx: float, cy: float, s: float, flip: bool, shape: tuple[int, int]
) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    f = -1.0 if flip else 1.0

    def disc(dx: float, dy: float, r: float) -> None:
        cv2.circle(m, (int(cx + dx * s), int(cy + f * dy * s)), max(1, int(r * s)), 255, -1, AA)

    if suit == "schellen":
        w = look.diamond
        cv2.fillPoly(m, [_poly(cx, cy, s, [(0, -1), (w, 0), (0, 1), (-w, 0)], flip)], 255, AA)
    elif suit == "rosen":
        r, spread, depth = look.heart
        disc(-spread, -0.3, r)
        disc(spread, -0.3, r)
        cv2.fillPoly(
            m, [_poly(cx, cy, s, [(-spread - r * 0.95, -0.2), (spread + r * 0.95, -0.2), (0, depth)], flip)], 255, AA
        )
    elif suit == "schilten":
        r, spread, depth = look.spade
        disc(-spread, 0.25, r)
        disc(spread, 0.25, r)
        cv2.fillPoly(
            m, [_poly(cx, cy, s, [(-spread - r * 0.95, 0.15), (spread + r * 0.95, 0.15), (0, -depth)], flip)], 255, AA
        )
        cv2.fillPoly(m, [_poly(cx, cy, s, [(-0.08, 0.3), (0.08, 0.3), (0.28, 1), (-0.28, 1)], flip)], 255, AA)
    else:  # eicheln: a club
        r, spread = look.club
        disc(0, -0.48, r)
        disc(-spread, 0.1, r)
        disc(spread, 0.1, r)
        disc(0, -0.05, r * 0.6)
        cv2.fillPoly(m, [_poly(cx, cy, s, [(-0.08, 0), (0.08, 0), (0.28, 1), (-0.28, 1)], flip)], 255, AA)
    return m


def _pip(img: np.ndarray, look: FrenchLook, suit: str, cx: float, cy: float, s: float, flip: bool = False) -> None:
    colour = look.red if suit in ("rosen", "schellen") else look.black
    m = _pip_mask(look, suit, cx, cy, s, flip, img.shape[:2])
    if look.outline:
        inner = cv2.erode(m, np.ones((5, 5), np.uint8))
        light = tuple(int(c + (255 - c) * 0.6) for c in colour)
        img[m > 127] = colour
        img[inner > 127] = light
    else:
        a = (m.astype(np.float32) / 255)[..., None]
        img[:] = (img * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _index(img: np.ndarray, look: FrenchLook, suit: str, rank: str) -> None:
    """Rank and a small pip in the top-left corner (and top-right with ``four_indices``), then turned for the bottom."""
    text = look.letters.get(rank, rank)
    colour = look.red if suit in ("rosen", "schellen") else look.black
    thick = max(2, int(look.index_scale * 2))
    (tw, th), _ = cv2.getTextSize(text, look.font, look.index_scale, thick)
    mask = np.zeros(img.shape[:2], np.uint8)
    corners = [16] + ([W0 - 16 - tw] if look.four_indices else [])
    for x in corners:
        cv2.putText(mask, text, (x, 14 + th), look.font, look.index_scale, 255, thick, AA)
        pip = _pip_mask(look, suit, x + tw / 2, 14 + th + 26, 15, False, img.shape[:2])
        mask = np.maximum(mask, pip)
    mask = np.maximum(mask, mask[::-1, ::-1])
    a = (mask.astype(np.float32) / 255)[..., None]
    img[:] = (img * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _court(img: np.ndarray, look: FrenchLook, suit: str, rank: str, rng: np.random.Generator) -> None:
    """A double-headed figure in a frame: the top half drawn, the bottom half its half-turn."""
    x0, y0 = int(W0 * look.box[0] * 0.7), int(H0 * look.box[1] * 0.8)
    x1, y1 = W0 - x0, H0 - y0
    c1, c2, c3 = look.court_colours
    top = img[y0 : (y0 + y1) // 2, x0:x1].copy()
    h, w = top.shape[:2]
    cx = w // 2 + int(rng.integers(-12, 13))
    cv2.fillPoly(
        top,
        [np.array([[cx - 70, h], [cx + 70, h], [cx + 45, int(h * 0.45)], [cx - 45, int(h * 0.45)]], np.int32)],
        c1,
        AA,
    )
    cv2.fillPoly(top, [np.array([[cx - 30, h], [cx + 30, h], [cx, int(h * 0.55)]], np.int32)], c2, AA)
    cv2.circle(top, (cx, int(h * 0.32)), 28, (170, 195, 235), -1, AA)
    if rank == "koenig":
        cv2.fillPoly(
            top,
            [
                np.array(
                    [
                        [cx - 30, int(h * 0.2)],
                        [cx - 22, int(h * 0.05)],
                        [cx - 8, int(h * 0.16)],
                        [cx, int(h * 0.02)],
                        [cx + 8, int(h * 0.16)],
                        [cx + 22, int(h * 0.05)],
                        [cx + 30, int(h * 0.2)],
                    ],
                    np.int32,
                )
            ],
            (40, 190, 230),
            AA,
        )
    elif rank == "ober":
        cv2.ellipse(top, (cx, int(h * 0.27)), (36, 30), 0, 180, 360, c3, -1, AA)
    else:
        cv2.rectangle(top, (cx - 32, int(h * 0.14)), (cx + 32, int(h * 0.22)), c3, -1)
        cv2.line(top, (cx + 50, h - 5), (cx + 60, int(h * 0.25)), c3, 5, AA)
    img[y0 : y0 + h, x0:x1] = top
    bottom = top[::-1, ::-1]
    img[y1 - h : y1, x0:x1] = bottom
    cv2.line(img, (x0, (y0 + y1) // 2), (x1, (y0 + y1) // 2), c3, 2, AA)
    _pip(img, look, suit, x0 + 28, y0 + 30, 18)
    _pip(img, look, suit, x1 - 28, y1 - 30, 18, flip=True)
    cv2.rectangle(img, (x0, y0), (x1, y1), look.black, 2, AA)


def draw_face(look: FrenchLook, card: str, rng: np.random.Generator) -> np.ndarray:
    suit, rank = card.split("-", 1)
    img = np.empty((H0, W0, 3), np.uint8)
    img[:] = look.paper
    _edges(img, look)
    if look.frame:
        cv2.rectangle(img, (8, 8), (W0 - 9, H0 - 9), look.black, 1, AA)
        if look.frame == 2:
            cv2.rectangle(img, (13, 13), (W0 - 14, H0 - 14), look.red, 1, AA)
    bx0, by0 = W0 * look.box[0], H0 * look.box[1]
    bx1, by1 = W0 - bx0, H0 - by0
    if rank == "ass":
        _pip(img, look, suit, W0 / 2, H0 / 2, look.pip * float(rng.uniform(2.4, 3.4)))
    elif rank in LAYOUTS:
        for fx, fy in LAYOUTS[rank]:
            _pip(img, look, suit, bx0 + fx * (bx1 - bx0), by0 + fy * (by1 - by0), look.pip, flip=fy > 0.5)
    else:
        _court(img, look, suit, rank, rng)
    _index(img, look, suit, rank)
    return img


def draw_back(look: FrenchLook) -> np.ndarray:
    img = np.empty((H0, W0, 3), np.uint8)
    img[:] = look.back_colour
    light = tuple(int(c + (255 - c) * 0.5) for c in look.back_colour)
    if look.back_pattern == 0:
        for k in range(-H0, W0, 14):
            cv2.line(img, (k, 0), (k + H0, H0), light, 2, AA)
            cv2.line(img, (k + H0, 0), (k, H0), light, 2, AA)
    elif look.back_pattern == 1:
        for y in range(10, H0, 20):
            for x in range(10 + (y // 20 % 2) * 10, W0, 20):
                cv2.circle(img, (x, y), 5, light, -1, AA)
    else:
        for r in range(10, 300, 16):
            cv2.ellipse(img, (W0 // 2, H0 // 2), (r, int(r * 1.5)), 0, 0, 360, light, 2, AA)
    cv2.rectangle(img, (0, 0), (W0 - 1, H0 - 1), (245, 245, 245), 14)
    return img


@lru_cache(maxsize=8)
def french_deck(index: int, edges: bool = False) -> dict[str, tuple[np.ndarray, ...]]:
    """Deck ``index`` (0..DECKS-1): all 36 faces and the back as BGRA, one array per LEVEL_HEIGHTS.

    ``edges``: with the deck's coloured edges (``edge_look``); the shipped models were
    trained without them.
    """
    if not 0 <= index < DECKS:
        raise ValueError(f"deck index must be in 0..{DECKS - 1}, got {index}")
    rng = np.random.default_rng(8_800_000 + index)
    look = FrenchLook.random(rng)
    if edges:
        edge, size, colour = edge_look(index)
        look = replace(look, edge=edge, edge_size=size, edge_colour=colour)
    alpha = rounded_alpha(H0, W0, int(rng.integers(10, 26)))
    return {
        card: art_levels(np.dstack([draw_back(look) if card == BACK else draw_face(look, card, rng), alpha]))
        for card in (*ALL_CARD_IDS, BACK)
    }


def render_scene(
    seed: int,
    *,
    width: int = 640,
    height: int = 480,
    style: str = "mixed",
    deck: str = FAMILY,
    geometry: Geometry | None = None,
) -> _scene.Scene:
    """A rendered table like ``vision.synth.scene.render_scene``'s, dealt with French deck ``(seed // RUN) % DECKS``."""
    return _render(seed, width=width, height=height, style=style, edges=False, geometry=geometry)


def render_edged_scene(
    seed: int, *, width: int = 640, height: int = 480, style: str = "mixed", deck: str = FAMILY
) -> _scene.Scene:
    """As ``render_scene``, the decks with their coloured edges (``edge_look``; half the decks have some)."""
    return _render(seed, width=width, height=height, style=style, edges=True)


def _render(
    seed: int,
    *,
    width: int,
    height: int,
    style: str,
    edges: bool,
    geometry: Geometry | None = None,
) -> _scene.Scene:
    if style not in _scene.STYLES:
        raise ValueError(f"style must be one of {', '.join(_scene.STYLES)}, got {style!r}")
    rng = np.random.default_rng(seed)
    d = _scene._difficulty(rng, style)
    index = (seed // RUN) % DECKS
    cards = _scene.DrawnCards(DeckStyle(deck=f"{FAMILY}-{index}", double_headed=True), french_deck(index, edges))
    scene = _scene.draw_table(
        rng,
        d,
        cards,
        seed=seed,
        width=width,
        height=height,
        style=style,
        deck=FAMILY,
        geometry=geometry,
    )
    # Indices in two opposite corners and pips turned below the middle: a French card reads
    # the same either way up, so no crop teaches which end is up.
    scene.cards = [replace(t, symmetric=True) for t in scene.cards]
    return scene
