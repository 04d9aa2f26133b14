"""The one boundary type between recognition and tracking: what was seen in one frame.

Modelled on supervision's ``Detections``: a plain value, no behaviour beyond
convenience constructors, so trackers can be fed synthetic detections in tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: ``Detection.card`` for a card lying face down (its back).
BACK: str = "back"


@dataclass(frozen=True)
class Detection:
    """One card seen in one frame.

    ``card`` is a canonical card id (``scoring.cards.ALL_CARD_IDS``) or ``BACK``.
    ``corners`` are the four corners in frame pixels, clockwise, starting with the
    corner at the top-left of the card's artwork when the card is upright, so the
    card's angle and position on the table follow from them. They are the whole card's,
    also where part of it is hidden: the recogniser guesses the hidden corners (for an
    enrolled deck, from the card's proportions), so they may lie under a hand or
    another card, or outside the frame. ``alternatives`` holds
    the next most likely ids with their confidence, best first, so the tracker can use
    the game's constraints to resolve an uncertain read.
    """

    card: str
    confidence: float
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels
    corners: tuple[tuple[float, float], ...]  # 4 points (x, y), clockwise
    alternatives: tuple[tuple[str, float], ...] = field(default_factory=tuple)

    @property
    def center(self) -> tuple[float, float]:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    @property
    def face_up(self) -> bool:
        return self.card != BACK


@dataclass(frozen=True)
class FrameDetections:
    """Everything the recogniser found in one frame, with the frame's time in seconds."""

    t: float
    detections: tuple[Detection, ...]
    width: int
    height: int
