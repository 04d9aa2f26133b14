"""What the players enter on their phones during a recorded game, replayed into the store
beside the camera (``jasscam demo``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from jasscam.sources.base import Frame
from jasscam.store import EventStore, validation_errors
from scoring.events import CardPlayed, Event, GameConfigured, TrickCollected
from vision.tracker.evaluate import camera_cards

log = logging.getLogger(__name__)


class TableScript:
    """What the players enter on their phones during a recorded game, replayed into the store.

    For the demo: the recording's events that do not come from the camera
    (``round_started``, Weis, Stöck, corrections) are appended when the video reaches
    their time, and not before the camera has stored as many cards and collections as
    came before them, because the rules engine judges a Stöck or a Weis by what lies on
    the table. A trick swept with a card never read counts for that card as well. If the
    camera missed a card otherwise, the entry goes in ``grace_s`` late anyway.
    """

    def __init__(self, store: EventStore, game_id: int, events: Sequence[Event], *, grace_s: float = 5.0) -> None:
        self.store = store
        self.game_id = game_id
        self.grace_s = grace_s
        self.pending: list[tuple[Event, int]] = []
        camera_before = 0
        for event in events:
            if isinstance(event, GameConfigured):
                continue
            if isinstance(event, TrickCollected) or (isinstance(event, CardPlayed) and event.source == "camera"):
                camera_before += 1
            else:
                self.pending.append((event, camera_before))
        self.appended: list[Event] = []
        self.refused: list[tuple[Event, str]] = []

    def on_frame(self, frame: Frame) -> None:
        """Called from the capture thread before the frame is recognised."""
        while self.pending:
            event, needed = self.pending[0]
            due = event.t if event.t is not None else 0.0
            if frame.t + 1e-9 < due:
                return
            camera_events = sum(
                camera_cards(e)
                for e in self.store.events(self.game_id)
                if not (isinstance(e, CardPlayed) and e.source != "camera")
            )
            if camera_events < needed and frame.t < due + self.grace_s:
                return
            self.pending.pop(0)
            try:
                self.store.append(self.game_id, event, by_hand=True)
                self.appended.append(event)
            except validation_errors() as exc:
                log.warning("the table's entry %s was refused: %s", event.type, exc)
                self.refused.append((event, str(exc)))
