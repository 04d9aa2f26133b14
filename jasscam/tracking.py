"""Glue between the trick tracker and the event store, for the live pipeline.

Why it exists: the tracker (``vision.tracker.TrickTracker``) is pure, frame in, events
out, and knows nothing of games. At the table the contract of each round is entered on
the dashboard, so the tracker must learn every ``round_started`` from the store; the
dashboard may start a new game at any time; and after a crash or a power cut the
appliance restarts in the middle of a round, with cards on the table that the store
already holds. This module handles those three things:

- ``round_started`` events that appear in the store start the tracker's rounds, and the
  Weis the table declares tell it whose hand the declared cards are in;
- a change of the current game gives a fresh tracker;
- on (re)start the round in progress is resumed: the tracker starts that round again
  and sees the cards still lying on the table as new, so camera events for cards the
  store already has in this round are dropped instead of being stored twice.

``GatedRecognizer`` skips recognition on frames where nothing changed (``FrameGate``),
handing the previous detections on, as ``jasscam replay`` does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

import numpy as np

from jasscam.store import EventStore
from scoring.events import (
    CardCorrected,
    CardPlayed,
    Event,
    EventVoided,
    MisplayRuled,
    RoundStarted,
    TrickCollected,
    WeisDeclared,
)
from scoring.game import fold, resolve
from vision.detection import Detection, FrameDetections
from vision.tracker.reread import SecondThought, correction
from vision.tracker.tracker import TrackerEvent

log = logging.getLogger(__name__)


class Tracker(Protocol):
    """What this glue needs of a tracker (``vision.tracker.TrickTracker`` has it)."""

    def start_round(self, event: RoundStarted, history: Sequence[Event] = ()) -> None: ...

    def amend(self, history: Sequence[Event]) -> None: ...

    def declare(self, event: WeisDeclared) -> None: ...

    def update(self, frame: FrameDetections) -> list[TrackerEvent]: ...

    def finish(self, t: float | None = None) -> list[TrackerEvent]: ...


class GameTracker:
    """A ``Pipeline`` track callable: one tracker per game, rounds from the store, resume."""

    def __init__(
        self,
        store: EventStore,
        make_tracker: Callable[[int], Tracker],
        *,
        game: Callable[[], int | None] | None = None,
        layout_key: Callable[[int], Any] | None = None,
    ) -> None:
        self.store = store
        self.make_tracker = make_tracker
        self.game = game or store.current_game
        self.layout_key = layout_key
        self._key: Any = None
        self.tracker: Tracker | None = None
        self.game_id: int | None = None
        self.resumed_cards: set[str] = set()  # this round's cards the store had at (re)start
        self.dropped_duplicates = 0
        self._seen = 0  # store events already looked at

    def __call__(self, frame: FrameDetections) -> list[TrackerEvent]:
        self._follow()
        if self.tracker is None:
            return []
        return self._filter(self.tracker.update(frame))

    def finish(self, t: float | None = None) -> list[TrackerEvent]:
        """The source ended: let the tracker count cards that were about to count."""
        self._follow()
        return self._filter(self.tracker.finish(t)) if self.tracker is not None else []

    # -- following the store ------------------------------------------------------------

    def _follow(self) -> None:
        game = self.game()
        if game != self.game_id:
            self._switch(game)
            return
        if game is None:
            return
        if self.store.count(game) > self._seen:
            events = self.store.events(game)
            corrected = False
            for event in events[self._seen :]:
                if isinstance(event, RoundStarted):
                    self._refresh_layout(game)
                    assert self.tracker is not None
                    self.tracker.start_round(event)
                    self.resumed_cards = set()
                    corrected = False
                elif isinstance(event, WeisDeclared):
                    assert self.tracker is not None
                    self.tracker.declare(event)
                elif isinstance(event, (CardCorrected, EventVoided, MisplayRuled)):
                    corrected = True
            self._seen = len(events)
            if corrected and (round_so_far := round_history(events)) is not None:
                # The table's word on a card is the rules engine's: a corrected card of a
                # collected trick can change who won it, so who leads next.
                assert self.tracker is not None
                self.tracker.amend(round_so_far[1])

    def _switch(self, game: int | None) -> None:
        self.game_id = game
        self.tracker = None
        self.resumed_cards = set()
        self._seen = 0
        if game is None:
            return
        self._key = self.layout_key(game) if self.layout_key else None
        self.tracker = self.make_tracker(game)
        events = self.store.events(game)
        self._seen = len(events)
        self._resume(events)

    def _refresh_layout(self, game: int) -> None:
        """The seat layout is set on the dashboard with the game; a changed one needs a new tracker."""
        if self.layout_key is None:
            return
        key = self.layout_key(game)
        if key != self._key:
            self._key = key
            self.tracker = self.make_tracker(game)

    def _resume(self, events: Sequence[Event]) -> None:
        """Start the round in progress (if any) and remember its cards already stored."""
        assert self.tracker is not None
        state = fold(events)
        if state.game_over is not None or state.round is None or state.round.complete:
            return
        # The round as the fold sees it (undo and corrections applied): its tricks already
        # collected count as done (who leads, which cards are gone, how many tricks are
        # left); the trick on the table the camera will see again.
        round_so_far = round_history(events)
        if round_so_far is None:
            return
        self.tracker.start_round(*round_so_far)
        self.resumed_cards = set(state.round.played)
        if self.resumed_cards:
            log.info(
                "resuming game %s mid-round: %d cards already stored, %d on the table",
                self.game_id,
                len(self.resumed_cards),
                len(state.round.trick),
            )

    def _filter(self, events: list[TrackerEvent]) -> list[TrackerEvent]:
        if not self.resumed_cards:
            return events
        out = []
        for event in events:
            if isinstance(event, CardPlayed) and event.card in self.resumed_cards:
                self.dropped_duplicates += 1
                continue
            out.append(event)
        return out


def round_history(events: Sequence[Event]) -> tuple[RoundStarted, list[Event]] | None:
    """The last round of a game's log as the rules engine counts it: its ``round_started``
    and the events after it, with undo and corrections applied and a card the table named
    for one never seen put into its trick; None before the first round."""
    resolved = resolve(events)
    out: list[Event] = []
    for pos, event in resolved.events:
        if isinstance(event, RoundStarted):
            out = []
        if isinstance(event, TrickCollected) and (filled := resolved.fills_of(pos)):
            out.extend(filled)
            event = replace(event, unseen=tuple(s for s in event.unseen if s not in {c.seat for c in filled}))
        out.append(event)
    if not out or not isinstance(out[0], RoundStarted):
        return None
    return out[0], out[1:]


def reread_correction(store: EventStore, game_id: int, reread: SecondThought) -> CardCorrected | EventVoided | None:
    """The tracker reconsidered a card it reported: the ``card_corrected`` (a reread) or
    ``event_voided`` (a card taken back) that points at that card's event in this game's
    log (phones may have stored events in between), or None (logged) when the round holds
    no such card any more."""
    fix = correction(store.events(game_id), reread)
    if fix is None:
        log.info(
            "second thought on %s (%s): no such card in the round; dropped",
            getattr(reread, "was", reread.card),
            reread.type,
        )
    return fix


class GatedRecognizer:
    """Runs ``recognize`` only when the frame changed; otherwise repeats the last detections."""

    def __init__(self, recognize: Callable[[np.ndarray], list[Detection]], gate: Any | None = None) -> None:
        if gate is None:
            from vision.tracker.gate import FrameGate

            gate = FrameGate()
        self.recognize = recognize
        self.gate = gate
        self.last: list[Detection] = []
        self.ran = 0
        self.skipped = 0

    def __call__(self, image: np.ndarray) -> list[Detection]:
        if self.gate.changed(image):
            self.last = self.recognize(image)
            self.ran += 1
        else:
            self.skipped += 1
        return self.last
