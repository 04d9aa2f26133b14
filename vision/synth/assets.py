"""Card art on disk (vision/assets/decks/<deck>/<card-id>.png) loaded once per process.

The art is kept at three sizes so a card warped into a 640x480 scene is resampled from a
source of about its own size (downsampling 4-6x with a bilinear warp aliases badly).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS, FRENCH_TO_SWISS

DECKS_DIR = Path(__file__).resolve().parent.parent / "assets" / "decks"

#: The deck the recogniser trains on; its procedural variants are made from it.
TRAINING_DECK = "swiss-xvii"
#: Held out from training: measures how well a deck the model has never seen is read.
HELD_OUT_DECKS: tuple[str, ...] = ("paris",)

#: Height of each art level in pixels (width follows the art's aspect).
LEVEL_HEIGHTS: tuple[int, ...] = (492, 246, 123)

BACK = "back"


class DeckError(ValueError):
    """A deck that is not in vision/assets/decks or lacks cards."""


def available_decks() -> list[str]:
    return sorted(p.name for p in DECKS_DIR.iterdir() if p.is_dir() and (p / "back.png").exists())


def _file_for(deck_dir: Path, card: str) -> Path:
    """Swiss decks name files by canonical id; French decks by their own suit names."""
    if card == BACK:
        return deck_dir / "back.png"
    direct = deck_dir / f"{card}.png"
    if direct.exists():
        return direct
    suit, rank = card.split("-", 1)
    for french, swiss in FRENCH_TO_SWISS.items():
        if swiss == suit and (deck_dir / f"{french}-{rank}.png").exists():
            return deck_dir / f"{french}-{rank}.png"
    raise DeckError(f"deck {deck_dir.name!r} has no art for {card!r}")


def _clean_edge(img: np.ndarray) -> np.ndarray:
    """Replace the art's thick black outline with paper: real cards show a white rim."""
    alpha = img[..., 3]
    border = max(2, round(img.shape[1] * 6 / 316))
    inner = cv2.erode((alpha > 200).astype(np.uint8), np.ones((2 * border + 1, 2 * border + 1), np.uint8))
    rim = (alpha > 0) & (inner == 0)
    out = img.copy()
    out[rim, :3] = 255
    return out


@lru_cache(maxsize=8)
def load_deck(deck: str) -> dict[str, tuple[np.ndarray, ...]]:
    """All 36 faces and the back of ``deck`` as BGRA arrays, one per level of LEVEL_HEIGHTS."""
    deck_dir = DECKS_DIR / deck
    if not deck_dir.is_dir():
        raise DeckError(f"unknown deck {deck!r}; available: {', '.join(available_decks())}")
    out: dict[str, tuple[np.ndarray, ...]] = {}
    for card in (*ALL_CARD_IDS, BACK):
        path = _file_for(deck_dir, card)
        img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if img is None or img.ndim != 3 or img.shape[2] != 4:
            raise DeckError(f"{path} is not a readable RGBA PNG")
        out[card] = art_levels(_clean_edge(img))
    return out


def art_levels(img: np.ndarray) -> tuple[np.ndarray, ...]:
    """One card's art at every height of LEVEL_HEIGHTS (the art itself where it is that tall)."""
    return tuple(
        img
        if h == img.shape[0]
        else cv2.resize(img, (round(img.shape[1] * h / img.shape[0]), h), interpolation=cv2.INTER_AREA)
        for h in LEVEL_HEIGHTS
    )


def level_for(height_px: float) -> int:
    """Index into LEVEL_HEIGHTS of the smallest art at least 1.25x the drawn height."""
    for i in range(len(LEVEL_HEIGHTS) - 1, -1, -1):
        if LEVEL_HEIGHTS[i] >= 1.25 * height_px:
            return i
    return 0
