"""The identifier's training labels: the 36 card ids in canonical order, then ``"back"``."""

from __future__ import annotations

from scoring.cards import ALL_CARD_IDS
from vision.detection import BACK

LABELS: tuple[str, ...] = (*ALL_CARD_IDS, BACK)
