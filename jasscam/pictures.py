"""Where the dashboard's trick pictures come from: the recorded frame of a game's moment.

Why here: only the composition root knows both clocks. A game the appliance recorded
has its own recording folder (``jasscam.recorder``: ``game-<id>-<stamp>``) whose event
list follows the store's order with video times, so the event at a position gives the
frame. A replay (``jasscam demo``, a recording as the camera) stamps the store's camera
events with the replayed video's own times, so the store's ``t`` gives the frame there.
web.trickshot draws the cards on it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from jasscam.store import EventStore
from vision.detection import Detection
from vision.recording import Recording, RecordingError

log = logging.getLogger(__name__)


def frame_at_time(folder: Path, t: float) -> np.ndarray | None:
    """The first frame of the recording at or after ``t`` seconds, or None past its end."""
    for _, frame in Recording.open(folder, check_video=False).frames(start=t):
        return frame
    return None


class GamePictures:
    """``frame_at(game_id, position)`` for ``web.app.create_app``."""

    def __init__(self, store: EventStore, recordings_dir: Path | None = None, replayed: Path | None = None) -> None:
        self.store = store
        self.recordings_dir = recordings_dir
        self.replayed = replayed  # the recording the camera source replays, if any

    def folder_of(self, game_id: int) -> Path | None:
        """The newest recording folder of ``game_id`` (a game recorded again after a restart has several)."""
        if self.recordings_dir is None or not self.recordings_dir.is_dir():
            return None
        folders = sorted(self.recordings_dir.glob(f"game-{game_id}-*"))
        return folders[-1] if folders else None

    def __call__(self, game_id: int, position: int) -> np.ndarray | None:
        try:
            if self.replayed is not None:
                events = self.store.events(game_id)
                t = events[position].t if position < len(events) else None
                return frame_at_time(self.replayed, t) if t is not None else None
            folder = self.folder_of(game_id)
            if folder is None:
                return None
            recorded = Recording.open(folder, check_video=False).events
            t = recorded[position].t if position < len(recorded) else None
            return frame_at_time(folder, t) if t is not None else None
        except (RecordingError, OSError, LookupError) as exc:  # a damaged or deleted recording: no picture
            log.warning("no picture of game %s event %s: %s", game_id, position, exc)
            return None


def serialized(recognize: Callable[[np.ndarray], Sequence[Detection]]) -> Callable[[np.ndarray], list[Detection]]:
    """The recogniser for pictures, one request at a time (it also serves the camera)."""
    lock = threading.Lock()

    def run(frame: np.ndarray) -> list[Detection]:
        with lock:
            return list(recognize(frame))

    return run
