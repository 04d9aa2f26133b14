"""Which image edges an arm reaches in from, frame by frame: the hand that lays a card.

The recogniser sees a card only once the hand that carries it lets go of most of it, near
the centre, so where a card was first seen says little about whose hand brought it. The
arm is seen all along: a large thing that is not the table, reaching in across the image
border from the edge its player sits at. The tracker keeps, per card, which edges reached
in while that card came in, as evidence that it was laid out of turn.

How, cheaply (a few hundred microseconds a frame): the frame is shrunk to a small copy
(``width`` pixels wide, block-averaged so sensor noise and compression artefacts average
out), compared with a background of the empty table that is learnt slowly, and the parts
that differ are split into connected regions. A region that touches the border and reaches
well inward is an arm, from the edge it crosses most. Cards laid on the table differ from
the background too, but they do not touch the border. The background follows the table
fast where nothing is seen, slowly where something moves (an arm moving in and out for a
second or two, resting a moment to lay its card, leaves too little of itself in the
background to be seen after it left), and in between where something has lain still for
a while: a hand resting at the rim, or a pile of won tricks there, fades into the table
within seconds, and so does the "ghost" of the table seen again where such a hand rested,
once it goes. A change of most of the picture at
once (the light switched on, the camera knocked) is learnt as the new table at once.

Pure OpenCV and numpy; no model, no state but the background, so it runs on every frame,
also those the ``FrameGate`` spares the recogniser.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.detection import EDGES


class ArmWatcher:
    """Says, per frame, from which image edges an arm or hand reaches into the picture.

    ``width``: the small copy's width in pixels (its height keeps the frame's aspect).
    ``threshold``: the colour difference (0-255, largest over the three channels) from the
    table at which a pixel counts as something over it: above sensor noise and shadows of
    the cards, below the contrast of skin or a sleeve on cloth. ``relative``: in a dim
    room or on a dark cloth every contrast is smaller in proportion, so a pixel's threshold
    is ``relative`` times the table's brightness there (the mean of its channels), at
    least ``floor`` and at most ``threshold``; 0 keeps ``threshold`` everywhere. Skin on an
    ochre or brown table differs from it by little more than 20, and a single threshold
    above that missed the arms of whole seats (``models/README.md``). ``reach``: how far in a
    region must reach from the edge it touches (share of the frame's short side): a hand
    coming to lay a card reaches a third of the way to the middle and beyond, a hand
    lingering at the rim or a card held over the edge does not. ``min_area``: the
    smallest region (share of the small copy) that can be an arm, not a speck of noise.
    ``learn_s`` / ``still_s`` / ``hold_s``: time constants (seconds) of the background
    where nothing is seen, where something has lain still for ``settle_s`` (a hand
    resting for a few ``still_s`` fades), and where something moves or has just stopped
    (a hand resting a moment on the card it lays must not become table).
    ``reset_share``: when this share of the picture differs at once, the light or the
    camera changed: that picture is the new table.
    """

    def __init__(
        self,
        width: int = 80,
        threshold: float = 22.0,
        reach: float = 0.18,
        min_area: float = 0.01,
        learn_s: float = 1.0,
        still_s: float = 2.5,
        hold_s: float = 20.0,
        settle_s: float = 1.0,
        reset_share: float = 0.5,
        relative: float = 0.25,
        floor: float = 6.0,
    ) -> None:
        if not isinstance(width, int) or isinstance(width, bool) or not 16 <= width <= 640:
            raise ValueError(f"width must be a whole number of pixels from 16 to 640, got {width!r}")
        for name, value, low, high in (
            ("threshold", threshold, 1.0, 255.0),
            ("reach", reach, 0.0, 1.0),
            ("min_area", min_area, 0.0, 1.0),
            ("reset_share", reset_share, 0.0, 1.0),
            ("floor", floor, 0.0, 255.0),
        ):
            if not (isinstance(value, (int, float)) and low < value <= high):
                raise ValueError(f"{name} must be a number in ({low}, {high}], got {value!r}")
        if not (isinstance(relative, (int, float)) and 0.0 <= relative <= 1.0):
            raise ValueError(f"relative must be a number in [0, 1], got {relative!r}")
        if floor > threshold:
            raise ValueError(f"floor ({floor!r}) must not be above threshold ({threshold!r})")
        for name, value in (("learn_s", learn_s), ("still_s", still_s), ("hold_s", hold_s), ("settle_s", settle_s)):
            if not (isinstance(value, (int, float)) and value > 0 and math.isfinite(value)):
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        self.width = width
        self.threshold = float(threshold)
        self.reach = float(reach)
        self.min_area = float(min_area)
        self.learn_s = float(learn_s)
        self.still_s = float(still_s)
        self.hold_s = float(hold_s)
        self.settle_s = float(settle_s)
        self.reset_share = float(reset_share)
        self.relative = float(relative)
        self.floor = float(floor)
        self._background: np.ndarray | None = None
        self._previous: np.ndarray | None = None
        #: Seconds since each pixel of the small copy last changed.
        self._still: np.ndarray | None = None
        self._last_t: float | None = None

    def small(self, image: np.ndarray) -> np.ndarray:
        """The frame shrunk to ``width`` pixels wide (block means), as float32 BGR."""
        if image.ndim not in (2, 3) or image.shape[0] < 2 or image.shape[1] < 2:
            raise ValueError(f"a frame must be an HxW or HxWxC image, got shape {image.shape}")
        h, w = image.shape[:2]
        height = max(2, round(self.width * h / w))
        out = cv2.resize(image, (self.width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
        return out if out.ndim == 3 else out[:, :, None]

    def update(self, image: np.ndarray, t: float) -> frozenset[str]:
        """The edges (``vision.detection.EDGES``) an arm reaches in from in ``image``, the
        frame at ``t`` seconds (time in order; a frame out of order restarts the table)."""
        small = self.small(image)
        if (
            self._background is None
            or self._background.shape != small.shape
            or self._last_t is None
            or not t >= self._last_t
        ):
            self._background, self._previous = small.copy(), small
            self._still = np.zeros(small.shape[:2], np.float32)
            self._last_t = t
            return frozenset()
        assert self._previous is not None and self._still is not None
        dt = min(t - self._last_t, 5.0)
        self._last_t = t
        limit = self._limit()
        fg = np.abs(small - self._background).max(axis=2) > limit
        changed = np.abs(small - self._previous).max(axis=2) > limit / 2
        self._still = np.where(changed, np.float32(0.0), self._still + np.float32(dt))
        self._previous = small
        if fg.mean() >= self.reset_share:
            self._background = small.copy()
            return frozenset()
        rates = [np.float32(1.0 - math.exp(-dt / tau)) for tau in (self.learn_s, self.still_s, self.hold_s)]
        rate = np.where(fg, np.where(self._still >= self.settle_s, rates[1], rates[2]), rates[0])[:, :, None]
        self._background += (small - self._background) * rate
        return self._edges(fg)

    def _limit(self) -> np.ndarray | float:
        """Each pixel's threshold: in proportion to the table's brightness there."""
        if self.relative <= 0:
            return self.threshold
        assert self._background is not None
        level = self._background.mean(axis=2)
        return np.clip(self.relative * level, self.floor, self.threshold)

    def _edges(self, fg: np.ndarray) -> frozenset[str]:
        h, w = fg.shape
        count, labels, stats, _ = cv2.connectedComponentsWithStats(fg.astype(np.uint8), connectivity=8)
        if count <= 1:
            return frozenset()
        short = min(w, h)
        borders = {
            "bottom": labels[h - 1, :],
            "right": labels[:, w - 1],
            "top": labels[0, :],
            "left": labels[:, 0],
        }
        contact = {edge: np.bincount(line, minlength=count) for edge, line in borders.items()}
        out: set[str] = set()
        for label in range(1, count):
            x, y, bw, bh, area = (int(v) for v in stats[label])
            if area < self.min_area * w * h:
                continue
            touches = {edge: int(contact[edge][label]) for edge in EDGES}
            edge = max(EDGES, key=lambda e: touches[e])
            if touches[edge] == 0:
                continue  # a card or anything else lying on the table
            depth = {"bottom": h - y, "top": y + bh, "left": x + bw, "right": w - x}[edge]
            if depth >= self.reach * short:
                out.add(edge)
        return frozenset(out)


__all__ = ["ArmWatcher"]
