"""The one boundary type between recognition and tracking: what was seen in one frame.

Modelled on supervision's ``Detections``: a plain value, no behaviour beyond
convenience constructors, so trackers can be fed synthetic detections in tests. Like
``Detections`` it checks its fields when it is made: a NaN corner, a box of negative
size or an id no deck has would otherwise surface frames later as a wrong seat or a
card nobody played, far from the recogniser or test that made it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from numbers import Integral

from scoring.cards import CARD_INDEX

#: ``Detection.card`` for a card lying face down (its back).
BACK: str = "back"
#: The image edges, as ``FrameDetections.arms`` and the table layout name them.
EDGES: tuple[str, ...] = ("bottom", "right", "top", "left")


class DetectionError(ValueError):
    """A detection or a frame's detections with a field out of its range."""


def _real(value: object) -> bool:
    """A finite real number (numpy's scalars included, bools not)."""
    if isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)  # type: ignore[arg-type]
    except TypeError:
        return False


def _check_confidence(value: object, what: str) -> None:
    if not _real(value) or not 0.0 <= value <= 1.0:  # type: ignore[operator]
        raise DetectionError(f"{what} must be a finite number from 0 to 1, got {value!r}")


def _check_card(card: object, what: str) -> None:
    if not isinstance(card, str) or (card != BACK and card not in CARD_INDEX):
        raise DetectionError(f"{what} must be a card id (scoring.cards) or {BACK!r}, got {card!r}")


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

    def __post_init__(self) -> None:
        _check_card(self.card, "card")
        _check_confidence(self.confidence, f"confidence of {self.card}")
        box = tuple(self.box)
        if len(box) != 4 or not all(_real(v) for v in box):
            raise DetectionError(f"box of {self.card} must be four finite numbers x0, y0, x1, y1, got {self.box!r}")
        if box[2] < box[0] or box[3] < box[1]:
            raise DetectionError(f"box of {self.card} has a negative size (x1 < x0 or y1 < y0): {self.box!r}")
        corners = tuple(self.corners)
        if len(corners) != 4 or not all(len(p) == 2 and _real(p[0]) and _real(p[1]) for p in corners):
            raise DetectionError(f"corners of {self.card} must be four finite points (x, y), got {self.corners!r}")
        for alt in self.alternatives:
            if len(alt) != 2:
                raise DetectionError(f"an alternative of {self.card} must be (card id, confidence), got {alt!r}")
            _check_card(alt[0], f"alternative of {self.card}")
            _check_confidence(alt[1], f"confidence of the alternative {alt[0]} of {self.card}")

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
    """Everything the recogniser found in one frame, with the frame's time in seconds.

    ``arms``: the image edges (``EDGES``) an arm or hand reaches in from in this frame
    (``vision.arms.ArmWatcher``), empty when none does or nobody looked: the tracker's
    evidence of whose hand laid a card.
    """

    t: float
    detections: tuple[Detection, ...]
    width: int
    height: int
    arms: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not _real(self.t):
            raise DetectionError(f"a frame's time must be a finite number of seconds, got {self.t!r}")
        if not all(isinstance(v, Integral) and not isinstance(v, bool) and v > 0 for v in (self.width, self.height)):
            raise DetectionError(f"a frame's size must be two whole numbers > 0, got {self.width!r} x {self.height!r}")
        for det in self.detections:
            if not isinstance(det, Detection):
                raise DetectionError(f"a frame's detections must be Detection, got {type(det).__name__}")
        if not isinstance(self.arms, frozenset) or not self.arms <= frozenset(EDGES):
            raise DetectionError(
                f"a frame's arms must be a frozenset of edge names ({', '.join(EDGES)}), got {self.arms!r}"
            )
