"""A recording folder (``vision.recording``) replayed as if it were the live camera.

Used by ``jasscam demo`` (the bundled game in real time), by ``camera.source =
"recording"``, by tests and by the benchmark. Metadata, events and the video are
checked when the source opens, so a corrupt or truncated recording gives one clear
error naming the file instead of a silently short game, and so do events out of time
order (``check_event_order``).

Resume: after a crash the appliance starts the source where the trick in progress in the
store's current game began (``resume_time``, set as ``start_at``), so the tracker does
not read the tricks already stored into the resumed game again, yet sees every card of
the trick on the table laid; a recording shorter than that is refused.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from jasscam.sources.base import EndOfStream, Frame, FrameSource, SourceUnavailable, fit_width
from scoring.events import Event, EventError, RoundStarted, TrickCollected
from scoring.game import RuleError, fold, resolve
from vision.recording import Recording, RecordingError


class RecordingSource(FrameSource):
    """Frames of a recording at their recorded times (``realtime``) or as fast as read."""

    finite = True

    def __init__(
        self,
        path: str | Path,
        *,
        realtime: bool = True,
        start_at: float = 0.0,
        analysis_width: int | None = None,
        resume: bool = False,
    ) -> None:
        """``resume``: the appliance sets ``start_at`` to where the store's current game stood
        (``camera.source = "recording"``); the demo, which starts a new game, does not."""
        self.path = Path(path)
        self.resume = resume
        self.name = f"recording {self.path.name}"
        self.realtime = realtime
        self.start_at = start_at
        self.analysis_width = analysis_width
        self.recording: Recording | None = None
        self._frames: Iterator[tuple[float, np.ndarray]] | None = None
        self._index = 0
        self._clock0 = 0.0

    def open(self) -> None:
        try:
            self.recording = Recording.open(self.path)
            check_event_order(self.recording)
        except (RecordingError, OSError, UnicodeDecodeError) as exc:
            raise SourceUnavailable(f"cannot replay {self.path}: {exc}") from None
        if self.start_at > 0 and self.start_at >= self.recording.duration:
            raise SourceUnavailable(
                f"cannot resume {self.path} at {self.start_at:.1f} s where the store's game stood: the recording is "
                f"{self.recording.duration:.1f} s long, so it is not the one this game was played from "
                "(start a new game on the dashboard, or replay the right recording)"
            )
        self._frames = self.recording.frames(self.start_at)
        self._index = 0
        self._clock0 = time.monotonic() - self.start_at

    def read(self, timeout: float) -> Frame:
        if self._frames is None:
            raise EndOfStream
        try:
            t, image = next(self._frames)
        except StopIteration:
            raise EndOfStream from None
        except (RecordingError, cv2.error) as exc:
            raise SourceUnavailable(f"cannot replay {self.path}: {exc}") from None
        if self.realtime:
            delay = self._clock0 + t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        if self.analysis_width:
            image = fit_width(image, self.analysis_width)
        frame = Frame(image, t, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        frames, self._frames = self._frames, None
        if frames is not None and hasattr(frames, "close"):
            frames.close()  # releases the VideoCapture inside the generator


#: How much earlier than an event before it an event may be stamped: the tracker stores a
#: card with the time it came to rest, a second or two after a phone's entry may have been
#: stored with its arrival time. A file whose times go back further is out of order.
ORDER_SLACK_S = 5.0


def check_event_order(recording: Recording) -> None:
    """Raise RecordingError naming the line of the first event stamped well before one above it.

    Why: replay starts each round at its ``round_started`` time and merges the table's
    entries by their order, so a shuffled ``events.jsonl`` would give a silently wrong
    (empty) score sheet.
    """
    from vision.recording import EVENTS_FILE

    path = recording.path / str(recording.meta.get("events", EVENTS_FILE))
    lines = [n for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line.strip()]
    latest: tuple[float, int] | None = None
    for event, line in zip(recording.events, lines, strict=False):
        if event.t is None:
            continue
        if latest is not None and event.t < latest[0] - ORDER_SLACK_S:
            raise RecordingError(
                f"{path} line {line}: t = {event.t:g} s comes after line {latest[1]} at {latest[0]:g} s: "
                "the events are out of time order (a recording keeps them in the order they happened)"
            )
        if latest is None or event.t > latest[0]:
            latest = (event.t, line)


#: How far before the collection of the last trick a resumed recording starts: cards of
#: that trick still lying there are then first seen before it was collected, so the
#: tracker knows them as old cards (``TrickTracker._may_be_old_card``) and not as new ones.
RESUME_BEFORE_COLLECTED_S = 0.5


def resume_time(events: Sequence[Event]) -> float:
    """Where in its recording a game's camera should go on: the start of the trick in progress.

    Camera events carry the time of the recording's frame that decided them, entries on
    the phones the video time at which they arrived. Why not the latest event: the
    tracker holds a card back while another laid almost together with it may be the one
    whose turn it is, and it seats cards by the order they are laid. Resumed at the last
    event, a card laid but not yet reported when the appliance died would lie there from
    the first frame, never "laid", and cards of the trick seen all at once have no order.
    Replayed from the trick's start, the tracker sees its cards laid again one by one;
    those the store already has are dropped as duplicates (``jasscam.tracking``).
    A round's first trick starts at its ``round_started``, never earlier (the cards of
    the round before would be new to the tracker). With no round in progress it is the
    latest time (0 for a new game).
    """
    latest = max((float(e.t) for e in events if e.t is not None), default=0.0)
    try:
        state = fold(events)
    except (RuleError, EventError):
        return latest
    if state.game_over is not None or state.round is None or state.round.complete:
        return latest
    resolved = [ev for _, ev in resolve(events).events]
    for i in range(len(resolved) - 1, -1, -1):
        event = resolved[i]
        if isinstance(event, (TrickCollected, RoundStarted)):
            before = [float(e.t) for e in resolved[: i + 1] if e.t is not None]
            start = float(event.t) if event.t is not None else max(before, default=0.0)
            if isinstance(event, TrickCollected):
                start -= RESUME_BEFORE_COLLECTED_S
            return max(0.0, min(start, latest))
    return latest
