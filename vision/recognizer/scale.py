"""How large a card is at this mounting, learnt from the cards the recogniser was sure of.

The detector reads cards best at one size in its input (``RecognizerSettings.card_input_px``);
the frame is scaled for it by the card length at this mounting. A camera hangs where the
table put it and every card of a deck is one size, so that length is one number per
mounting: until it is known each frame is searched for it (``Recognizer.find_card_length``,
a few extra detector runs); once enough sure cards agree it is kept, and it follows
slowly if the camera is moved. The set-up page shows it, so the table can see whether
the mounting is good (``verdict``).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable

import numpy as np

from vision.detection import Detection
from vision.recognizer.geometry import quad_lengths

#: A card this long in the camera's frame is read reliably; shorter, its index corner is
#: only a few pixels (the hardware guide's mounting gives about 90 px at 1280 x 960).
GOOD_CARD_PX = 70.0
LEAST_CARD_PX = 45.0


def card_length(corners: Iterable[tuple[float, float]]) -> float:
    """A card outline's long side (mean of the two long edges), in its pixels."""
    return float(quad_lengths(np.asarray(list(corners), np.float64))[0])


class CardScale:
    """The mounting's card length: fixed by configuration, or learnt from sure detections.

    ``observe`` takes each frame's detections; cards read at least ``sure`` (confidence)
    count. The length is the median of the last ``window`` such cards once ``least`` of
    them lie within 15 % of that median; before that it is None (search each frame).
    Thread-safe: the recogniser thread observes, the dashboard reads.
    """

    def __init__(self, fixed: float | None = None, *, sure: float = 0.8, window: int = 60, least: int = 6) -> None:
        if fixed is not None and not (np.isfinite(fixed) and fixed > 0):
            raise ValueError(f"a fixed card length must be a positive number of pixels, got {fixed!r}")
        if window < least or least < 1:
            raise ValueError("need 1 <= least <= window")
        self.fixed = float(fixed) if fixed else None
        self.sure = sure
        self.least = least
        self._seen: deque[float] = deque(maxlen=window)
        self._lock = threading.Lock()
        self._length: float | None = None

    @property
    def length(self) -> float | None:
        """The card length to read the next frame at, in frame pixels (None: not known yet)."""
        return self.fixed if self.fixed is not None else self._length

    def observe(self, detections: Iterable[Detection]) -> None:
        if self.fixed is not None:
            return
        with self._lock:
            for d in detections:
                if d.confidence >= self.sure:
                    length = card_length(d.corners)
                    if np.isfinite(length) and length > 4:
                        self._seen.append(length)
            if len(self._seen) < self.least:
                return
            seen = np.asarray(self._seen)
            median = float(np.median(seen))
            if int(np.sum(np.abs(seen - median) <= 0.15 * median)) >= self.least:
                self._length = median

    def reset(self) -> None:
        """Forget the learnt length (the camera was moved or changed)."""
        with self._lock:
            self._seen.clear()
            self._length = None

    def verdict(self) -> dict[str, object]:
        """What the set-up page shows: the length, whether it was measured, and whether it is enough."""
        length = self.length
        if length is None:
            state = "unknown"
        elif length >= GOOD_CARD_PX:
            state = "good"
        elif length >= LEAST_CARD_PX:
            state = "small"
        else:
            state = "too-small"
        return {
            "card_length_px": None if length is None else round(length, 1),
            "measured": self.fixed is None,
            "cards_seen": len(self._seen),
            "state": state,
            "good_px": GOOD_CARD_PX,
            "least_px": LEAST_CARD_PX,
        }


class LearningRecognizer:
    """A recogniser callable that reads each frame at the mounting's card length and learns it.

    Replay, the demo and the appliance use it alike, so a recording is read as it was live.
    """

    def __init__(self, recognizer: object, scale: CardScale | None = None) -> None:
        self.recognizer = recognizer
        self.scale = scale or CardScale()

    def __call__(self, frame: np.ndarray) -> list[Detection]:
        dets: list[Detection] = self.recognizer.recognize(frame, self.scale.length)  # type: ignore[attr-defined]
        self.scale.observe(dets)
        return dets

    recognize = __call__
