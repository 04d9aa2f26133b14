"""Procedural decks in styles the recogniser never trained on, to measure unseen-deck reading.

The training deck (swiss-xvii) and its procedural variants share one artist's drawings;
the held-out paris deck is one more real deck. These decks are drawn here from scratch
with OpenCV primitives, in two styles unlike either: a four-colour French deck (green
clubs, blue diamonds, geometric pips on a grid, court cards as big letters on coloured
bands) and a flat Swiss-German deck (acorns, shields, roses and bells as simple
geometric shapes, Roman numerals, court cards as figures built from circles and
triangles). Only benchmarks and tests use them; the training code never imports this
module (check: ``grep -r other_decks vision/train`` finds nothing).

``render_other_scene`` is ``vision.synth.scene.render_scene`` with the card art swapped:
the same layout, props, camera, light and ground truth, drawn with an ``OtherDeck``.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.synth import scene as _scene
from vision.synth.assets import BACK, art_levels
from vision.synth.deck import DeckStyle, rounded_alpha
from vision.synth.geometry import Geometry

OTHER_DECKS: tuple[str, ...] = ("four-colour", "flat-swiss")
W0, H0 = 316, 492
AA = cv2.LINE_AA
Colour = tuple[int, int, int]

#: Four-colour French deck: kreuz (eicheln) green, schaufel (schilten) black, herz (rosen) red, ecken (schellen) blue.
FOUR_COLOURS: dict[str, Colour] = {
    "eicheln": (60, 140, 20),
    "schilten": (30, 30, 30),
    "rosen": (40, 30, 200),
    "schellen": (190, 90, 20),
}
FLAT_COLOURS: dict[str, Colour] = {
    "eicheln": (30, 110, 160),
    "schilten": (150, 60, 40),
    "rosen": (90, 40, 190),
    "schellen": (20, 170, 220),
}
ROMAN = {"6": "VI", "7": "VII", "8": "VIII", "9": "IX", "10": "X", "under": "U", "ober": "O", "koenig": "K", "ass": "A"}
FRENCH_INDEX = {
    "6": "6",
    "7": "7",
    "8": "8",
    "9": "9",
    "10": "10",
    "under": "J",
    "ober": "Q",
    "koenig": "K",
    "ass": "A",
}
PIPS = {"6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "ass": 1}


def _pts(cx: float, cy: float, s: float, pts: list[tuple[float, float]], flip: bool) -> np.ndarray:
    f = -1.0 if flip else 1.0
    return np.array([[cx + x * s, cy + f * y * s] for x, y in pts], np.int32)


def french_pip(img: np.ndarray, suit: str, cx: float, cy: float, s: float, colour: Colour, flip: bool = False) -> None:
    """Geometric French pips: club = three discs and a stem, spade = a pointed drop, heart, diamond."""
    f = -1.0 if flip else 1.0
    if suit == "schellen":  # diamond
        cv2.fillPoly(img, [_pts(cx, cy, s, [(0, -1), (0.7, 0), (0, 1), (-0.7, 0)], flip)], colour, AA)
    elif suit == "rosen":  # heart
        r = 0.42 * s
        cv2.circle(img, (int(cx - 0.38 * s), int(cy - f * 0.3 * s)), int(r), colour, -1, AA)
        cv2.circle(img, (int(cx + 0.38 * s), int(cy - f * 0.3 * s)), int(r), colour, -1, AA)
        cv2.fillPoly(img, [_pts(cx, cy, s, [(-0.78, -0.15), (0.78, -0.15), (0, 0.95)], flip)], colour, AA)
    elif suit == "eicheln":  # club
        r = 0.36 * s
        for dx, dy in ((0, -0.5), (-0.45, 0.12), (0.45, 0.12)):
            cv2.circle(img, (int(cx + dx * s), int(cy + f * dy * s)), int(r), colour, -1, AA)
        cv2.fillPoly(img, [_pts(cx, cy, s, [(-0.12, 0), (0.12, 0), (0.3, 1), (-0.3, 1)], flip)], colour, AA)
    else:  # spade
        r = 0.42 * s
        cv2.circle(img, (int(cx - 0.38 * s), int(cy + f * 0.25 * s)), int(r), colour, -1, AA)
        cv2.circle(img, (int(cx + 0.38 * s), int(cy + f * 0.25 * s)), int(r), colour, -1, AA)
        cv2.fillPoly(img, [_pts(cx, cy, s, [(-0.8, 0.15), (0.8, 0.15), (0, -1)], flip)], colour, AA)
        cv2.fillPoly(img, [_pts(cx, cy, s, [(-0.1, 0.3), (0.1, 0.3), (0.3, 1), (-0.3, 1)], flip)], colour, AA)


def swiss_pip(img: np.ndarray, suit: str, cx: float, cy: float, s: float, colour: Colour, flip: bool = False) -> None:
    """Flat Swiss pips: acorn = oval and hatched cap, shield = banded escutcheon, rose = five discs,
    bell = dome and rim."""
    f = -1.0 if flip else 1.0
    dark = tuple(max(0, c - 80) for c in colour)
    if suit == "eicheln":
        cv2.ellipse(img, (int(cx), int(cy + f * 0.25 * s)), (int(0.45 * s), int(0.6 * s)), 0, 0, 360, colour, -1, AA)
        cv2.ellipse(
            img,
            (int(cx), int(cy - f * 0.2 * s)),
            (int(0.55 * s), int(0.35 * s)),
            0,
            180 if not flip else 0,
            360 if not flip else 180,
            dark,
            -1,
            AA,
        )
        cv2.line(
            img,
            (int(cx), int(cy - f * 0.5 * s)),
            (int(cx + 0.15 * s), int(cy - f * 0.95 * s)),
            dark,
            max(1, int(0.12 * s)),
            AA,
        )
    elif suit == "schilten":
        poly = _pts(cx, cy, s, [(-0.7, -0.8), (0.7, -0.8), (0.7, 0.2), (0, 0.95), (-0.7, 0.2)], flip)
        cv2.fillPoly(img, [poly], colour, AA)
        cv2.line(
            img,
            (int(cx - 0.7 * s), int(cy - f * 0.25 * s)),
            (int(cx + 0.7 * s), int(cy - f * 0.25 * s)),
            (240, 240, 240),
            max(1, int(0.18 * s)),
            AA,
        )
        cv2.polylines(img, [poly], True, dark, max(1, int(0.08 * s)), AA)
    elif suit == "rosen":
        for k in range(5):
            a = 2 * np.pi * k / 5 - np.pi / 2
            cv2.circle(
                img, (int(cx + 0.45 * s * np.cos(a)), int(cy + f * 0.45 * s * np.sin(a))), int(0.38 * s), colour, -1, AA
            )
        cv2.circle(img, (int(cx), int(cy)), int(0.28 * s), (60, 200, 240), -1, AA)
    else:
        cv2.ellipse(
            img,
            (int(cx), int(cy + f * 0.1 * s)),
            (int(0.6 * s), int(0.75 * s)),
            0,
            180 if not flip else 0,
            360 if not flip else 180,
            colour,
            -1,
            AA,
        )
        cv2.rectangle(
            img, (int(cx - 0.75 * s), int(cy + f * 0.1 * s)), (int(cx + 0.75 * s), int(cy + f * 0.3 * s)), dark, -1, AA
        )
        cv2.circle(img, (int(cx), int(cy + f * 0.5 * s)), int(0.2 * s), dark, -1, AA)


def _grid(n: int) -> list[tuple[float, float]]:
    """Pip positions (fractions of the art box) for n pips: two or three columns."""
    if n == 1:
        return [(0.5, 0.5)]
    cols = 2 if n <= 8 else 3
    rows = int(np.ceil(n / cols))
    out = []
    for k in range(n):
        r, c = divmod(k, cols)
        in_row = min(cols, n - r * cols)
        x = 0.5 if in_row == 1 else (0.25 + 0.5 * c / (in_row - 1) if cols == 2 else 0.18 + 0.64 * c / (in_row - 1))
        out.append((x, 0.1 + 0.8 * r / max(rows - 1, 1)))
    return out


def _text(
    img: np.ndarray, text: str, org: tuple[int, int], scale: float, colour: Colour, thick: int, flip: bool = False
) -> None:
    if not flip:
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_DUPLEX, scale, colour, thick, AA)
        return
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
    patch = np.full((th + 12, tw + 8, 3), 255, np.uint8)
    cv2.putText(patch, text, (4, th + 4), cv2.FONT_HERSHEY_DUPLEX, scale, colour, thick, AA)
    patch = patch[::-1, ::-1]
    x, y = org
    y0, x0 = max(0, y - patch.shape[0] + 8), max(0, x - patch.shape[1])
    region = img[y0 : y0 + patch.shape[0], x0 : x0 + patch.shape[1]]
    mask = patch[: region.shape[0], : region.shape[1]].min(axis=2) < 200
    region[mask] = patch[: region.shape[0], : region.shape[1]][mask]


def _draw_face(deck: str, card: str) -> np.ndarray:
    suit, rank = card.split("-", 1)
    img = np.full((H0, W0, 3), 255 if deck == "four-colour" else 236, np.uint8)
    if deck == "flat-swiss":
        img[:] = (222, 240, 248)  # cream stock
    colours = FOUR_COLOURS if deck == "four-colour" else FLAT_COLOURS
    pip = french_pip if deck == "four-colour" else swiss_pip
    index = FRENCH_INDEX if deck == "four-colour" else ROMAN
    col = colours[suit]
    if deck == "four-colour":  # corner indices: big letter and a pip, top-left and (turned) bottom-right
        _text(img, index[rank], (14, 52), 1.5, col, 3)
        pip(img, suit, 36, 82, 20, col)
        _text(img, index[rank], (W0 - 14, H0 - 52), 1.5, col, 3, flip=True)
        pip(img, suit, W0 - 36, H0 - 82, 20, col, flip=True)
        box = (70, 40, W0 - 70, H0 - 40)
    else:  # a coloured band at top and bottom with the Roman numeral
        cv2.rectangle(img, (0, 0), (W0, 58), col, -1)
        cv2.rectangle(img, (0, H0 - 58), (W0, H0), col, -1)
        _text(img, index[rank], (18, 44), 1.3, (250, 250, 250), 3)
        _text(img, index[rank], (W0 - 18, H0 - 44), 1.3, (250, 250, 250), 3, flip=True)
        box = (40, 80, W0 - 40, H0 - 80)
    x0, y0, x1, y1 = box
    if rank in PIPS:
        n = PIPS[rank]
        size = 95 if n == 1 else (34 if deck == "four-colour" else 30)
        for k, (fx, fy) in enumerate(_grid(n)):
            pip(img, suit, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0), size, col, flip=n > 1 and fy > 0.5 and k >= 0)
        if rank == "ass":
            cv2.circle(img, ((x0 + x1) // 2, (y0 + y1) // 2), 130, col, 3, AA)
    else:  # court cards
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        shade = {"under": 0.55, "ober": 0.75, "koenig": 0.95}[rank]
        band = tuple(int(255 - (255 - c) * shade) for c in col)
        cv2.rectangle(img, (x0, y0), (x1, y1), band, -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), col, 4, AA)
        if deck == "four-colour":
            _text(img, index[rank], (cx - 45, cy + 40), 4.0, (255, 255, 255), 10)
            pip(img, suit, cx, y0 + 60, 32, col)
            pip(img, suit, cx, y1 - 60, 32, col, flip=True)
        else:  # a figure: head, body, a crown for the king, a pip in hand
            cv2.circle(img, (cx, cy - 90), 34, (180, 200, 240), -1, AA)
            cv2.fillPoly(img, [np.array([[cx, cy - 55], [cx + 70, cy + 120], [cx - 70, cy + 120]], np.int32)], col, AA)
            if rank == "koenig":
                cv2.fillPoly(
                    img,
                    [
                        np.array(
                            [
                                [cx - 34, cy - 120],
                                [cx - 20, cy - 150],
                                [cx, cy - 125],
                                [cx + 20, cy - 150],
                                [cx + 34, cy - 120],
                            ],
                            np.int32,
                        )
                    ],
                    (30, 200, 240),
                    AA,
                )
            elif rank == "ober":
                cv2.rectangle(img, (cx - 40, cy - 132), (cx + 40, cy - 118), (30, 30, 30), -1)
            pip(img, suit, cx + 75, cy + 20, 26, (250, 250, 250) if rank == "under" else col)
    return img


def _draw_back(deck: str) -> np.ndarray:
    img = np.empty((H0, W0, 3), np.uint8)
    img[:] = (40, 110, 30) if deck == "four-colour" else (60, 40, 120)
    for k in range(0, W0 + H0, 22):
        cv2.circle(img, (k % W0, (k * 7) % H0), 9, (200, 220, 200), 2, AA)
    cv2.rectangle(img, (10, 10), (W0 - 11, H0 - 11), (245, 245, 245), 8)
    return img


@lru_cache(maxsize=2)
def other_deck(deck: str) -> dict[str, tuple[np.ndarray, ...]]:
    """All 36 faces and the back of ``deck`` (one of OTHER_DECKS) as BGRA, one array per LEVEL_HEIGHTS."""
    if deck not in OTHER_DECKS:
        raise ValueError(f"unknown procedural deck {deck!r}; available: {', '.join(OTHER_DECKS)}")
    alpha = rounded_alpha(H0, W0, 18)
    return {
        card: art_levels(np.dstack([_draw_back(deck) if card == BACK else _draw_face(deck, card), alpha]))
        for card in (*ALL_CARD_IDS, BACK)
    }


def render_other_scene(
    seed: int,
    deck: str,
    *,
    width: int = 640,
    height: int = 480,
    style: str = "mixed",
    geometry: Geometry | None = None,
) -> _scene.Scene:
    """``render_scene(seed, style=style, geometry=geometry)``'s table, drawn with the procedural ``deck``."""
    if style not in _scene.STYLES:
        raise ValueError(f"style must be one of {', '.join(_scene.STYLES)}, got {style!r}")
    rng = np.random.default_rng(seed)
    d = _scene._difficulty(rng, style)
    rng.random()  # keep step with render_scene, which draws a deck style here
    return _scene.draw_table(
        rng,
        d,
        _scene.DrawnCards(DeckStyle(deck=deck), other_deck(deck)),
        seed=seed,
        width=width,
        height=height,
        style=style,
        deck=deck,
        geometry=geometry,
    )


def write_deck(deck: str, folder: str) -> list[str]:
    """Write ``deck`` as flat card PNGs (``<card-id>.png``, ``back.png``) into ``folder``, as a user would scan it."""
    from pathlib import Path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    names = []
    for card, levels in other_deck(deck).items():
        path = out / f"{card}.png"
        cv2.imwrite(str(path), levels[0])
        names.append(path.name)
    return names
