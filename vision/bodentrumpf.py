"""The Bodentrumpf from the camera: a proposal the table confirms by one tap.

Speck Jass 2.2.1: after the cut the bottom card is laid face up on the table and its suit
is trump. Before the first card of a game is played, that card is the only face-up card
on the table (held hands and stacks show their backs), so a frame whose detections hold
exactly one face-up card is a reading of the Bodentrumpf. One frame can be wrong (a card
glimpsed while dealing, 2.8.1), so :class:`BodentrumpfWatcher` proposes a card only after
it was read in ``frames`` consecutive frames, and forgets it as soon as the frames
disagree. It never writes an event: the proposal is shown on the Speck screen and the
table confirms it (or taps another card), which writes the ``round_started``.

How the appliance calls it: in the pipeline, for every frame's detections of a Speck
game, ``watcher.update(game_id, detections, awaiting=awaiting_bodentrumpf(events))``; and
the dashboard is built with ``register_speck(app, bodentrumpf=watcher.proposal)``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.cards import ALL_CARD_IDS
from scoring.events import Event
from scoring.game import fold
from vision.detection import Detection

DEFAULT_MIN_CONFIDENCE = 0.6
DEFAULT_FRAMES = 5


@dataclass(frozen=True)
class Proposal:
    """The card read as the Bodentrumpf, its confidence, and over how many frames."""

    card: str
    confidence: float
    frames: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "confidence": round(self.confidence, 3), "frames": self.frames}


def propose_bodentrumpf(
    detections: Sequence[Detection], *, min_confidence: float = DEFAULT_MIN_CONFIDENCE
) -> Proposal | None:
    """The Bodentrumpf in one frame: the single face-up card, if there is exactly one.

    None when no face-up card is seen, when several are (which one would it be?), or
    when the one card is read with less than ``min_confidence``. Face-down cards (the
    dealt hands, the rest of the deck) are ignored.
    """
    if not 0 <= min_confidence <= 1:
        raise ValueError(f"min_confidence must be between 0 and 1, got {min_confidence!r}")
    face_up = [d for d in detections if d.face_up]
    if len(face_up) != 1:
        return None
    d = face_up[0]
    if d.card not in ALL_CARD_IDS or d.confidence < min_confidence:
        return None
    return Proposal(d.card, float(d.confidence))


def awaiting_bodentrumpf(events: Sequence[Event]) -> bool:
    """True while a Speck game waits for its Bodentrumpf: no game running, not all played."""
    if not events:
        return False
    state = fold(events)
    if state.config.variant != "speck" or state.game_over is not None:
        return False
    cur = state.round
    return cur is None or cur.complete or cur.abandoned


class BodentrumpfWatcher:
    """Stable Bodentrumpf proposals per game from a stream of frames (thread-safe).

    A card becomes the proposal after ``frames`` consecutive frames read it; the proposal
    then stays (the dealer may pick the card up again) until another card is read as
    steadily or the game starts (``awaiting=False``). ``update`` is called by the
    pipeline thread, ``proposal`` by the web server's threads.
    """

    def __init__(self, frames: int = DEFAULT_FRAMES, min_confidence: float = DEFAULT_MIN_CONFIDENCE) -> None:
        if frames < 1:
            raise ValueError(f"frames must be at least 1, got {frames!r}")
        if not 0 <= min_confidence <= 1:
            raise ValueError(f"min_confidence must be between 0 and 1, got {min_confidence!r}")
        self.frames = frames
        self.min_confidence = min_confidence
        self._lock = threading.Lock()
        self._streak: dict[int, Proposal] = {}  # game -> card being read, frames so far, best confidence
        self._stable: dict[int, Proposal] = {}

    def update(self, game_id: int, detections: Sequence[Detection], *, awaiting: bool = True) -> Proposal | None:
        """Feed one frame; returns the game's current proposal (or None). ``awaiting=False``
        (a game is running, or it is not a Speck game) clears the game's proposal."""
        with self._lock:
            if not awaiting:
                self._streak.pop(game_id, None)
                self._stable.pop(game_id, None)
                return None
            seen = propose_bodentrumpf(detections, min_confidence=self.min_confidence)
            if seen is None:
                self._streak.pop(game_id, None)
            else:
                run = self._streak.get(game_id)
                if run is None or run.card != seen.card:
                    run = Proposal(seen.card, seen.confidence, 1)
                else:
                    run = Proposal(run.card, max(run.confidence, seen.confidence), run.frames + 1)
                self._streak[game_id] = run
                if run.frames >= self.frames:
                    self._stable[game_id] = run
            return self._stable.get(game_id)

    def proposal(self, game_id: int) -> dict[str, Any] | None:
        """For ``register_speck(app, bodentrumpf=...)``: the stable proposal as JSON, or None."""
        with self._lock:
            found = self._stable.get(game_id)
        return found.to_dict() if found else None
