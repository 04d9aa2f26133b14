"""The pipeline runner: capture -> recognition -> tracking -> event store, one thread each.

Why this shape (after Frigate's camera processes):

- Each stage runs in its own thread so a slow recogniser never blocks the camera and a
  slow store write never blocks recognition. OpenCV and onnxruntime release the GIL
  while they work, so the threads really overlap on the Pi's four cores.
- Stages talk through small bounded queues. For a live camera a full queue drops its
  *oldest* item and counts it: the tracker wants the newest picture of the table, not a
  backlog of stale ones. For a recording replayed as fast as possible nothing is dropped
  (the queues block instead), so a replay is deterministic.
- Frames are passed by reference; nobody writes into a captured image, so the recogniser
  and the recorder share the same array and no frame is copied between stages.
- The recognition thread also runs the arm stage (``vision.arms``) on every frame it
  takes, the ones the frame gate spares the recogniser included: it learns the table
  frame by frame, in order, and says which edges an arm reaches in from
  (``FrameDetections.arms``), the tracker's evidence of whose hand laid a card.
- One ``stop`` event ends everything; ``join`` waits for the threads in pipeline order.
- The recogniser and the tracker are passed in as plain callables, so the runner does
  not depend on which model or tracker is used (and tests use a small real detector).
  A tracker with a ``finish(t)`` method is told when a finite source has ended.
- Events go into the store, which validates them with the rules engine; an event the
  rules reject is logged and counted, the game is never half-changed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np

from jasscam.sources.base import EndOfStream, Frame, FrameSource
from jasscam.sources.resilient import ResilientSource, SourceStatus
from jasscam.store import EventStore, validation_errors
from jasscam.tracking import reread_correction
from scoring.events import Event, parse_event
from vision.arms import ArmWatcher
from vision.detection import Detection, FrameDetections
from vision.tracker.reread import CardReread, CardWithdrawn, SecondThought

log = logging.getLogger(__name__)

#: Detections for one BGR image.
Recognize = Callable[[np.ndarray], list[Detection]]
#: Events (dataclasses or dicts) the tracker derives from one frame's detections.
Track = Callable[[FrameDetections], Iterable[Event | SecondThought | Mapping[str, Any]]]

T = TypeVar("T")


class _Closed:
    """Sentinel: the producer has finished; nothing more will come."""


CLOSED = _Closed()


class DropQueue(Generic[T]):
    """A bounded queue that drops the oldest item when full (``lossless=False``) or blocks.

    ``dropped`` counts items thrown away. ``close`` makes ``get`` return CLOSED once the
    queue has been drained, so consumers finish the work they were given.
    """

    def __init__(self, maxsize: int, *, lossless: bool = False) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be at least 1, got {maxsize}")
        self.maxsize = maxsize
        self.lossless = lossless
        self.dropped = 0
        self._items: deque[T] = deque()
        self._cond = threading.Condition()
        self._closed = False

    def put(self, item: T, stop: threading.Event | None = None) -> bool:
        """Add ``item``; False if the queue was closed or ``stop`` set while blocking."""
        with self._cond:
            while self.lossless and len(self._items) >= self.maxsize and not self._closed:
                if stop is not None and stop.is_set():
                    return False
                self._cond.wait(0.1)
            if self._closed:
                return False
            if len(self._items) >= self.maxsize:
                self._items.popleft()
                self.dropped += 1
            self._items.append(item)
            self._cond.notify_all()
            return True

    def get(self, timeout: float) -> T | _Closed | None:
        """The oldest item; CLOSED when closed and empty; None on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._items:
                if self._closed:
                    return CLOSED
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)
            item = self._items.popleft()
            self._cond.notify_all()
            return item

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)


@dataclass
class PipelineStats:
    """Counters for the dashboard, the watchdog and the benchmark (read without locking)."""

    captured: int = 0
    recognized: int = 0
    tracked: int = 0
    dropped_before_recognition: int = 0
    dropped_before_tracking: int = 0
    events_appended: int = 0
    events_rejected: int = 0
    events_without_game: int = 0
    recognize_seconds: float = 0.0
    arms_seconds: float = 0.0
    last_frame_t: float | None = None
    started: float = field(default_factory=time.monotonic)

    def as_dict(self) -> dict[str, Any]:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        return {
            "captured": self.captured,
            "recognized": self.recognized,
            "tracked": self.tracked,
            "dropped_before_recognition": self.dropped_before_recognition,
            "dropped_before_tracking": self.dropped_before_tracking,
            "events_appended": self.events_appended,
            "events_rejected": self.events_rejected,
            "events_without_game": self.events_without_game,
            "fps_tracked": self.tracked / elapsed,
            "recognize_ms_mean": 1000 * self.recognize_seconds / self.recognized if self.recognized else None,
            "arms_ms_mean": 1000 * self.arms_seconds / self.recognized if self.recognized else None,
            "last_frame_t": self.last_frame_t,
        }


class Pipeline:
    """Capture, recognition and tracking threads feeding ``store``.

    ``game`` returns the game the events belong to (default: the store's current game,
    so a game started on the dashboard is followed); events while it returns None are
    counted and dropped. ``on_frame`` sees every captured frame (the recorder hooks in
    here; it must not block). ``lossless`` makes the queues block instead of drop; by
    default it is on exactly for finite sources (recordings). ``arms``: the arm stage
    (default a fresh ``ArmWatcher``).
    """

    def __init__(
        self,
        source: FrameSource | ResilientSource,
        recognize: Recognize,
        track: Track,
        store: EventStore,
        *,
        game: Callable[[], int | None] | None = None,
        queue_size: int = 2,
        lossless: bool | None = None,
        on_frame: Callable[[Frame], None] | None = None,
        on_event: Callable[[int, int, Event], None] | None = None,
        arms: ArmWatcher | None = None,
    ) -> None:
        self.arms = arms or ArmWatcher()
        self.source = source if isinstance(source, ResilientSource) else ResilientSource(source)
        self.recognize = recognize
        self.track = track
        self.store = store
        self.game = game or store.current_game
        self.on_frame = on_frame
        self.on_event = on_event
        finite = self.source.source.finite
        self.lossless = finite if lossless is None else lossless
        self.stats = PipelineStats()
        self.stop_event = threading.Event()
        self.finished = threading.Event()  # set when the tracking thread ends
        self.error: BaseException | None = None
        self._to_recognize: DropQueue[Frame] = DropQueue(queue_size, lossless=self.lossless)
        self._to_track: DropQueue[FrameDetections] = DropQueue(max(queue_size, 4), lossless=self.lossless)
        self._threads: list[threading.Thread] = []
        self._rejections = validation_errors()

    # -- control ----------------------------------------------------------------------

    def start(self) -> None:
        """Open the source (SourceUnavailable propagates, nothing started) and start the threads."""
        self.source.open()
        self.stats = PipelineStats()
        for name, target in (
            ("capture", self._capture),
            ("recognize", self._recognize),
            ("track", self._track),
        ):
            thread = threading.Thread(target=self._guard(target), name=f"jasscam-{name}", daemon=True)
            self._threads.append(thread)
            thread.start()

    def stop(self) -> None:
        """Ask every stage to finish; frames already queued are abandoned."""
        self.stop_event.set()
        self._to_recognize.close()
        self._to_track.close()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the threads in pipeline order; True if all ended."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for thread in self._threads:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            thread.join(remaining)
        alive = [t.name for t in self._threads if t.is_alive()]
        if alive:
            log.warning("pipeline threads still running: %s", ", ".join(alive))
            return False
        self.source.close()
        return True

    def run(self, timeout: float | None = None) -> PipelineStats:
        """Start, wait until a finite source is done (or ``timeout``/stop), stop, join."""
        self.start()
        try:
            self.finished.wait(timeout)
        finally:
            self.stop()
            self.join(10.0)
        if self.error is not None:
            raise self.error
        return self.stats

    def status(self) -> dict[str, Any]:
        """Source state and counters, for the dashboard and ``systemctl status``."""
        source: SourceStatus = self.source.status()
        return {"source": source.as_dict(), **self.stats.as_dict(), "error": repr(self.error) if self.error else None}

    # -- stages -----------------------------------------------------------------------

    def _guard(self, target: Callable[[], None]) -> Callable[[], None]:
        """Run a stage; an unexpected exception stops the whole pipeline and is kept."""

        def run() -> None:
            try:
                target()
            except BaseException as exc:
                log.exception("pipeline stage %s failed", threading.current_thread().name)
                if self.error is None:
                    self.error = exc
                self.stop()
                self.finished.set()

        return run

    def _capture(self) -> None:
        try:
            while not self.stop_event.is_set():
                try:
                    frame = self.source.read(self.stop_event)
                except EndOfStream:
                    break
                if frame is None:
                    break
                self.stats.captured += 1
                if self.on_frame is not None:
                    self.on_frame(frame)
                if not self._to_recognize.put(frame, self.stop_event):
                    break
                self.stats.dropped_before_recognition = self._to_recognize.dropped
        finally:
            self._to_recognize.close()

    def _recognize(self) -> None:
        try:
            while True:
                item = self._to_recognize.get(0.5)
                if item is None:
                    if self.stop_event.is_set():
                        break
                    continue
                if isinstance(item, _Closed):
                    break
                started = time.perf_counter()
                detections = self.recognize(item.image)
                looked = time.perf_counter()
                self.stats.recognize_seconds += looked - started
                arms = self.arms.update(item.image, item.t)
                self.stats.arms_seconds += time.perf_counter() - looked
                self.stats.recognized += 1
                fd = FrameDetections(
                    t=item.t, detections=tuple(detections), width=item.width, height=item.height, arms=arms
                )
                if not self._to_track.put(fd, self.stop_event):
                    break
                self.stats.dropped_before_tracking = self._to_track.dropped
        finally:
            self._to_track.close()

    def _track(self) -> None:
        try:
            while True:
                item = self._to_track.get(0.5)
                if item is None:
                    if self.stop_event.is_set():
                        break
                    continue
                if isinstance(item, _Closed):
                    if not self.stop_event.is_set():
                        self._finish_tracking()
                    break
                for event in self.track(item):
                    self._append(event)
                self.stats.tracked += 1
                self.stats.last_frame_t = item.t
        finally:
            self.finished.set()

    def _finish_tracking(self) -> None:
        """The source ended: a tracker with ``finish(t)`` counts the cards about to count."""
        finish = getattr(self.track, "finish", None)
        if callable(finish):
            for event in finish(self.stats.last_frame_t):
                self._append(event)

    def _append(self, event: Event | SecondThought | Mapping[str, Any]) -> None:
        game_id = self.game()
        if game_id is None:
            self.stats.events_without_game += 1
            log.info("no game configured; dropping %s", getattr(event, "type", event))
            return
        if isinstance(event, (CardReread, CardWithdrawn)):
            fix = reread_correction(self.store, game_id, event)
            if fix is None:
                return
            event = fix
        try:
            if isinstance(event, Mapping):
                event = parse_event(dict(event))
            position = self.store.append(game_id, event)
        except self._rejections as exc:
            # The tracker saw something the rules do not allow (or a malformed event):
            # a matter for the table, not a crash. The game stays as it was.
            self.stats.events_rejected += 1
            log.warning("event rejected: %s (%s)", exc, event)
            return
        self.stats.events_appended += 1
        if self.on_event is not None:
            self.on_event(game_id, position, event)
