"""A synthetic table for pipeline tests: a real video, a real detector, a simple tracker.

Each card is drawn as white card stock around a saturated face whose hue encodes its
index (36 cards, 5 OpenCV hue steps apart), laid at its seat's edge; a trick stays until it is collected.
The detector finds the rectangles with thresholding and contours, the way a classic
vision pipeline would, so the pipeline runs real pixels through real OpenCV code. The
tracker is deliberately simple but resumes from the store's events after a restart,
which is what the appliance's real tracker must do too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS, CARD_INDEX
from scoring.events import CardPlayed, Event, RoundStarted, TrickCollected
from vision.detection import Detection, FrameDetections
from vision.recording import RecordingWriter

W, H = 320, 240
CARD_W, CARD_H = 30, 44
SEAT_CENTRES = {0: (W // 2, H - 40), 1: (W - 40, H // 2), 2: (W // 2, 40), 3: (40, H // 2)}


def _hue(card: str) -> int:
    return CARD_INDEX[card] * 5


def draw(cards: Sequence[tuple[int, str]]) -> np.ndarray:
    """The table with ``(seat, card)`` laid, as a BGR image."""
    hsv = np.zeros((H, W, 3), np.uint8)
    hsv[..., 2] = 90  # a dark grey-green table: no saturation
    for seat, card in cards:
        cx, cy = SEAT_CENTRES[seat]
        w, h = (CARD_W, CARD_H) if seat in (0, 2) else (CARD_H, CARD_W)
        # White card stock (what makes a card stand out to FrameGate), a coloured face.
        hsv[cy - h // 2 : cy + h // 2, cx - w // 2 : cx + w // 2] = (0, 0, 250)
        hsv[cy - h // 2 + 3 : cy + h // 2 - 3, cx - w // 2 + 3 : cx + w // 2 - 3] = (_hue(card), 230, 230)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def game_frames(
    events: Sequence[Event], *, per_card: int = 4, hold: int = 4, gap: int = 2, grain: float = 0.0
) -> list[np.ndarray]:
    """Frames showing the round's tricks card by card; a collected trick disappears.

    ``grain`` adds sensor noise of that standard deviation to every frame, so frames
    compress like a camera's instead of like flat colour.
    """
    frames: list[np.ndarray] = [draw([])] * gap
    on_table: list[tuple[int, str]] = []
    for event in events:
        if isinstance(event, CardPlayed):
            on_table.append((event.seat, event.card))
            frames += [draw(on_table)] * per_card
        elif isinstance(event, TrickCollected):
            frames += [draw(on_table)] * hold
            on_table = []
            frames += [draw([])] * gap
    if grain:
        rng = np.random.default_rng(0)
        frames = [
            np.clip(f.astype(np.int16) + rng.normal(0, grain, f.shape).astype(np.int16), 0, 255).astype(np.uint8)
            for f in frames
        ]
    return frames


def write_recording(
    path: Path, events: Sequence[Event], fps: float, codec: str = "MJPG", grain: float = 0.0, gap: int = 2
) -> Path:
    """A recording folder of the round ``events`` (round_started first) with its ground truth."""
    with RecordingWriter(path, fps=fps, width=W, height=H, codec=codec, deck="synthetic") as writer:
        for frame in game_frames(events[1:], grain=grain, gap=gap):
            writer.write_frame(frame)
        for event in events:
            writer.add_event(event)
    return path


def detect(image: np.ndarray) -> list[Detection]:
    """Saturated rectangles -> detections; the median hue inside names the card."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    mask = (hsv[..., 1] > 120).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = []
    for contour in contours:
        if cv2.contourArea(contour) < 200:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        inner = hsv[y + 3 : y + h - 3, x + 3 : x + w - 3, 0]
        index = int(round(float(np.median(inner)) / 5)) % len(ALL_CARD_IDS)
        corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
        found.append(
            Detection(
                card=ALL_CARD_IDS[index],
                confidence=0.95,
                box=(float(x), float(y), float(x + w), float(y + h)),
                corners=tuple((float(a), float(b)) for a, b in corners),
            )
        )
    return found


def seat_of(det: Detection, width: int, height: int) -> int:
    cx, cy = det.center
    dx, dy = (cx - width / 2) / width, (cy - height / 2) / height
    if abs(dy) >= abs(dx):
        return 0 if dy > 0 else 2
    return 1 if dx > 0 else 3


class SimpleTracker:
    """New card seen for ``stable`` frames -> card_played; table empty after 4 -> trick_collected.

    ``resume`` takes the game's stored events so a restarted appliance neither repeats
    cards already recorded nor forgets the trick lying on the table.
    """

    def __init__(self, resume: Sequence[Event] = (), stable: int = 2) -> None:
        self.stable = stable
        self.recorded: set[str] = set()
        self.trick: list[str] = []
        self.seen: dict[str, int] = {}
        self.empty_frames = 0
        for event in resume:
            if isinstance(event, RoundStarted):
                self.recorded, self.trick = set(), []
            elif isinstance(event, CardPlayed):
                self.recorded.add(event.card)
                self.trick.append(event.card)
            elif isinstance(event, TrickCollected):
                self.trick = []

    def __call__(self, fd: FrameDetections) -> list[Event]:
        out: list[Event] = []
        present = {d.card: d for d in fd.detections}
        self.seen = {card: self.seen.get(card, 0) + 1 for card in present}
        for card, det in present.items():
            if card not in self.recorded and self.seen[card] >= self.stable:
                self.recorded.add(card)
                self.trick.append(card)
                out.append(CardPlayed(seat=seat_of(det, fd.width, fd.height), card=card, t=fd.t, confidence=0.95))
        self.empty_frames = 0 if present else self.empty_frames + 1
        if len(self.trick) == 4 and self.empty_frames >= self.stable:
            out.append(TrickCollected(t=fd.t))
            self.trick = []
        return out
