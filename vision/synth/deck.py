"""Procedural deck variants made from the swiss-xvii art.

A model trained on one drawing learns that drawing. Each scene draws a ``DeckStyle``
(one physical deck: its paper, print colours, frame, layout, whether court cards are
double-headed, whether it has corner indices, whose pips it uses) and renders every card
of the scene in that style. Only the training deck gets structural variants; a held-out
deck (paris) is drawn as it is, so measuring on it stays honest.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import glyphs
from vision.synth.assets import BACK, TRAINING_DECK, load_deck

COURT_RANKS = ("under", "ober", "koenig")
NUMBER_RANKS = ("6", "7", "8", "9", "10", "ass")
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX)


@dataclass(frozen=True)
class DeckStyle:
    """What makes one physical deck look different from another."""

    deck: str = TRAINING_DECK
    hue_shift: int = 0  # OpenCV hue units (0..180)
    saturation: float = 1.0
    contrast: float = 1.0
    gamma: float = 1.0
    paper: tuple[int, int, int] = (255, 255, 255)  # BGR tint of the card stock
    corner_radius: float = -1.0  # fraction of card width; < 0 keeps the art's own corners
    art_scale: float = 1.0  # < 1 shrinks the printed art inside a wider paper margin
    frame: int = 0  # 0 none, 1 thin line, 2 thick band, 3 double line
    frame_colour: tuple[int, int, int] = (30, 30, 30)
    double_headed: bool = False  # court cards mirrored top half onto bottom half
    indices: int = 0  # 0 none added, otherwise 1 + index into glyphs.INDEX_LABELS
    index_font: int = cv2.FONT_HERSHEY_SIMPLEX
    redrawn_pips: bool = False  # number cards drawn from procedural pips
    pip_seed: int = 0
    back_kind: int = 0  # 0 the deck's back, 1 recoloured, 2 procedural lattice
    back_colour: tuple[int, int, int] = (120, 40, 30)

    @property
    def symmetric_courts(self) -> bool:
        return self.double_headed


def plain_style(deck: str) -> DeckStyle:
    return DeckStyle(deck=deck)


def random_style(rng: np.random.Generator, deck: str = TRAINING_DECK, strength: float = 1.0) -> DeckStyle:
    """A random deck style; ``strength`` 0 gives the plain art, 1 the full range."""
    if deck != TRAINING_DECK:
        return plain_style(deck)  # held-out decks: no procedural variants, ever

    def chance(p: float) -> bool:
        return bool(rng.random() < p * strength)

    papers = ((255, 255, 255), (225, 242, 250), (235, 240, 240), (245, 245, 235), (215, 235, 245))
    frame_colours = ((30, 30, 30), (90, 40, 20), (30, 30, 140), (40, 100, 40), (20, 90, 160))
    return DeckStyle(
        deck=deck,
        hue_shift=int(rng.integers(-9, 10)) if chance(0.5) else 0,
        saturation=float(rng.uniform(0.65, 1.25)) if chance(0.6) else 1.0,
        contrast=float(rng.uniform(0.8, 1.15)) if chance(0.5) else 1.0,
        gamma=float(rng.uniform(0.8, 1.25)) if chance(0.5) else 1.0,
        paper=papers[int(rng.integers(len(papers)))] if chance(0.7) else (255, 255, 255),
        corner_radius=float(rng.uniform(0.02, 0.12)) if chance(0.5) else -1.0,
        art_scale=float(rng.uniform(0.84, 0.97)) if chance(0.35) else 1.0,
        frame=int(rng.integers(1, 4)) if chance(0.35) else 0,
        frame_colour=frame_colours[int(rng.integers(len(frame_colours)))],
        double_headed=chance(0.45),
        indices=int(rng.integers(1, len(glyphs.INDEX_LABELS) + 1)) if chance(0.4) else 0,
        index_font=FONTS[int(rng.integers(len(FONTS)))],
        redrawn_pips=chance(0.3),
        pip_seed=int(rng.integers(2**31)),
        back_kind=int(rng.choice(3, p=[0.4, 0.3, 0.3])) if strength > 0 else 0,
        back_colour=tuple(int(v) for v in rng.integers(20, 200, 3)),  # type: ignore[arg-type]
    )


def rounded_alpha(h: int, w: int, r: int) -> np.ndarray:
    """Opacity of an h x w card whose corners are rounded with radius ``r`` pixels."""
    alpha = np.zeros((h, w), np.uint8)
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


def _procedural_back(h: int, w: int, style: DeckStyle) -> np.ndarray:
    img = np.empty((h, w, 3), np.uint8)
    img[:] = style.back_colour
    light = tuple(min(255, int(c) + 90) for c in style.back_colour)
    step = max(4, w // 9)
    for k in range(-h, w + h, step):
        cv2.line(img, (k, 0), (k + h, h), light, 1, cv2.LINE_AA)
        cv2.line(img, (k, h), (k + h, 0), light, 1, cv2.LINE_AA)
    b = max(2, w // 14)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (250, 250, 250), b)
    cv2.rectangle(img, (b + 2, b + 2), (w - b - 3, h - b - 3), light, 1, cv2.LINE_AA)
    return img


def _photometric(bgr: np.ndarray, style: DeckStyle) -> np.ndarray:
    """Print colours, ink contrast and paper tint of one deck."""
    if style.hue_shift or style.saturation != 1.0:
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
        if style.hue_shift:
            hsv[..., 0] = ((hsv[..., 0].astype(np.int16) + style.hue_shift) % 180).astype(np.uint8)
        if style.saturation != 1.0:
            hsv[..., 1] = cv2.convertScaleAbs(hsv[..., 1], alpha=style.saturation)
        bgr = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if style.contrast != 1.0 or style.gamma != 1.0 or style.paper != (255, 255, 255):
        x = np.arange(256, dtype=np.float32) / 255.0
        x = np.clip((x - 1.0) * style.contrast + 1.0, 0, 1) ** style.gamma  # keep paper white, move ink
        luts = [np.clip(x * p, 0, 255).astype(np.uint8) for p in style.paper]
        bgr = cv2.merge([cv2.LUT(bgr[..., i], luts[i]) for i in range(3)])
    return bgr


def card_image(card: str, style: DeckStyle, level: int) -> np.ndarray:
    """The BGRA image of ``card`` (a canonical id or ``back``) printed in ``style``."""
    base = load_deck(style.deck)[card][level]
    h, w = base.shape[:2]
    bgr = base[..., :3].copy()
    alpha = base[..., 3] if style.corner_radius < 0 else rounded_alpha(h, w, max(1, round(style.corner_radius * w)))
    paper = (255, 255, 255)
    if card == BACK:
        if style.back_kind == 2:
            bgr = _procedural_back(h, w, style)
        elif style.back_kind == 1:
            hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
            target = cv2.cvtColor(np.array([[style.back_colour]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
            hsv[..., 0] = target[0]
            hsv[..., 1] = np.maximum(hsv[..., 1], target[1] // 2)
            bgr = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
        return np.dstack([_photometric(bgr, style), alpha])

    suit, rank = card.split("-", 1)
    rng = np.random.default_rng((style.pip_seed, level))
    palette = glyphs.suit_palette(rng)
    if style.redrawn_pips and rank in NUMBER_RANKS:
        bgr[:] = paper
        glyphs.draw_number_card(bgr, suit, rank, palette[suit], rng)
    if style.double_headed and rank in COURT_RANKS:
        half = h // 2
        top = bgr[:half].copy()
        bgr[h - half :] = top[::-1, ::-1]
        cv2.line(bgr, (round(w * 0.08), h // 2), (round(w * 0.92), h // 2), style.frame_colour, max(1, w // 80))
    if style.art_scale < 1.0:
        sw, sh = round(w * style.art_scale), round(h * style.art_scale)
        small = cv2.resize(bgr, (sw, sh), interpolation=cv2.INTER_AREA)
        bgr[:] = paper
        y0, x0 = (h - sh) // 2, (w - sw) // 2
        bgr[y0 : y0 + sh, x0 : x0 + sw] = small
    if style.frame:
        t = max(1, w // 60)
        m = round(w * 0.04)
        if style.frame == 1:
            cv2.rectangle(bgr, (m, m), (w - 1 - m, h - 1 - m), style.frame_colour, t, cv2.LINE_AA)
        elif style.frame == 2:
            cv2.rectangle(bgr, (m // 2, m // 2), (w - 1 - m // 2, h - 1 - m // 2), style.frame_colour, 3 * t)
        else:
            cv2.rectangle(bgr, (m, m), (w - 1 - m, h - 1 - m), style.frame_colour, t, cv2.LINE_AA)
            cv2.rectangle(bgr, (2 * m, 2 * m), (w - 1 - 2 * m, h - 1 - 2 * m), style.frame_colour, t, cv2.LINE_AA)
    if style.indices:
        labels = glyphs.INDEX_LABELS[style.indices - 1]
        text_colour = palette[suit][0] if suit in ("rosen", "schellen") else (25, 25, 25)
        glyphs.draw_index(bgr, suit, rank, palette[suit], labels, style.index_font, text_colour, paper)
    return np.dstack([_photometric(bgr, style), alpha])


class CardCache:
    """Card images of one deck style, made once: a scene or a video reuses them."""

    def __init__(self, style: DeckStyle) -> None:
        self.style = style
        self._cache: dict[tuple[str, int], np.ndarray] = {}

    def get(self, card: str, level: int) -> np.ndarray:
        key = (card, level)
        img = self._cache.get(key)
        if img is None:
            img = card_image(card, self.style, level)
            self._cache[key] = img
        return img
