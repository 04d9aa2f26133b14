"""The camera's picture of one moment of a game, with the cards it read outlined and named.

Why: a disputed card is settled by looking at what the camera saw. The Verlauf opens,
for each trick, the recorded frame at the moment its last card lay on the table; the
recogniser reads that frame again and every card it finds is outlined with its name, so
the table sees both the picture and the reading.

web/ does not know where recordings live or how their clock relates to the store's: the
composition root hands in ``frame_at(game_id, position)`` (the recorded frame at the time
of the event at ``position``, or None) and ``recognize(frame)`` (detections with corners).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

FrameAt = Callable[[int, int], "np.ndarray | None"]


class Seen(Protocol):
    """What a drawing needs of a detection (``vision.detection.Detection`` has it)."""

    @property
    def card(self) -> str: ...

    @property
    def confidence(self) -> float: ...

    @property
    def corners(self) -> tuple[tuple[float, float], ...]: ...


@dataclass(frozen=True)
class Pictures:
    """Where the recorded pictures come from (``app.extensions["jasscam_pictures"]``).

    ``frame_at(game, position)``: the recorded frame at that event's time, and
    ``recognize(frame)``: the recogniser; both None on a dashboard without recordings.
    """

    frame_at: FrameAt | None = None
    recognize: Callable[[Any], Sequence[Seen]] | None = None


#: BGR colours: cards of the trick in the dashboard's accent, other cards in white.
TRICK_BGR = (75, 184, 242)
OTHER_BGR = (235, 235, 235)


def annotate(frame: np.ndarray, seen: Sequence[Seen], name: Callable[[str], str], trick_cards: set[str]) -> np.ndarray:
    """A copy of ``frame`` with each read card's outline and ``name(card)`` drawn on it."""
    import cv2

    out = frame.copy()
    scale = max(1.0, out.shape[1] / 640)
    for det in seen:
        colour = TRICK_BGR if det.card in trick_cards else OTHER_BGR
        pts = np.array(det.corners, np.float32).round().astype(np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [pts], True, colour, max(2, round(2 * scale)), cv2.LINE_AA)
        label = f"{name(det.card)} {round(100 * det.confidence)}%"
        x, y = (int(v) for v in pts.reshape(-1, 2).min(axis=0))
        size = 0.5 * scale
        (w, h), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, size, 1)
        y = max(y, h + 6)
        cv2.rectangle(out, (x, y - h - 6), (x + w + 6, y), (20, 20, 20), -1)
        cv2.putText(out, label, (x + 3, y - 4), cv2.FONT_HERSHEY_SIMPLEX, size, colour, 1, cv2.LINE_AA)
    return out


def jpeg(image: np.ndarray, width: int = 960) -> bytes:
    """The image as JPEG, at most ``width`` pixels wide (a phone screen's worth)."""
    import cv2

    if image.shape[1] > width:
        scale = width / image.shape[1]
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 82])
    if not ok:
        raise ValueError("the picture could not be encoded as JPEG")
    return bytes(data.tobytes())


def card_namer(words: dict[str, Any]) -> Callable[[str], str]:
    """Card ids in the page's language (``web.i18n.STRINGS``), as the phones name them."""

    def name(card: str) -> str:
        suit, _, rank = card.partition("-")
        if not rank:
            return str(words.get(card, card))  # a card back
        return f"{words.get(suit, suit)} {words.get('r_' + rank, rank)}"

    return name
