"""Records every game at the table as a recording folder (``vision.recording`` format).

Why: a game played at the table can then be replayed (``jasscam replay``), re-scored
after a fix, or used to improve the model. The recording holds exactly the frames the
recogniser saw (scaled to ``recording.width``, thinned to ``recording.fps``), the game's
events in store order (so ``ref`` positions stay valid), and the metadata.

Why it can never hurt the game:

- It runs in its own thread, fed by a small lossy queue: a slow SD card drops recorded
  frames (counted), never camera frames or events.
- Any write error (disk full, a file that may not grow, an unwritable directory) stops
  the recording with one logged warning; the game and the event store go on.
- It stops *before* the disk is full: below ``min_free_mb`` free it stops, leaving
  room for the event store (which lives on the same card); it stops as well once the
  store says the disk is full (``EventStore.disk_full``), and the whole recordings
  folder is kept within ``max_total_mb`` by deleting the oldest finished recordings.
- Video is MJPG in AVI, because a file cut off by a power loss is still readable up to
  its last frame (an MP4 without its closing index is not).

Time: the video's frame times (frame_times.txt) start at 0 with the first recorded
frame. Camera events carry the source time of the frame that decided them and are
shifted by the same origin; events entered at the dashboard get the video time at
which they arrived.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import re
import shutil
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from jasscam.pipeline import DropQueue, _Closed
from jasscam.sources.base import Frame
from jasscam.store import EventStore
from scoring.events import CardPlayed, Event, GameConfigured, TrickCollected, event_to_dict
from vision.recording import RecordingError, RecordingWriter

log = logging.getLogger(__name__)

#: Check free space and file growth this often (seconds of wall time).
CHECK_EVERY_S = 1.0
#: The video writer buffers this much before the file grows (measured: OpenCV's FFmpeg
#: AVI writer grows the file in 256 KiB steps), with margin.
WRITER_BUFFER_BYTES = 3 * 256 * 1024
#: The video file must have grown within at least this many written frames.
STALL_FRAMES = 12
#: Smallest plausible MJPG frame, for the stall window before the file ever grew.
MIN_FRAME_BYTES = 1024
_FOLDER = re.compile(r"^game-(\d+)-")


class RecorderStopped(RuntimeError):
    """Why the current recording stopped early (kept in ``Recorder.problem``)."""


def folder_size(path: Path) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):  # a file deleted while we walk
                total += (Path(root) / name).stat().st_size
    return total


class Recorder:
    """Follows the store's current game and records it; ``offer`` is called per captured frame."""

    def __init__(
        self,
        directory: str | os.PathLike[str],
        store: EventStore,
        *,
        fps: float = 5.0,
        width: int = 640,
        max_total_mb: int = 4000,
        min_free_mb: int = 500,
        camera: dict[str, Any] | None = None,
        queue_size: int = 8,
        lossless: bool = False,
    ) -> None:
        self.directory = Path(directory)
        self.store = store
        self.fps = float(fps)
        self.width = int(width)
        self.max_total_bytes = int(max_total_mb) * 1024 * 1024
        self.min_free_bytes = int(min_free_mb) * 1024 * 1024
        self.camera = dict(camera or {})
        self.frames_written = 0
        self.frames_dropped = 0
        self.problem: str | None = None  # why recording stopped early; None while fine
        self.game_id: int | None = None
        self.folder: Path | None = None
        # Lossy for a camera (a slow card must not stall capture); lossless for replays.
        self._queue: DropQueue[Frame] = DropQueue(queue_size, lossless=lossless)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._writer: RecordingWriter | None = None
        self._size: tuple[int, int] | None = None
        self._origin: float | None = None
        self._last_slot: int | None = None
        self._last_video_t = 0.0
        self._events_written = 0
        self._dead_game: int | None = None  # a game whose recording failed: not retried
        self._last_check = 0.0
        self._last_file_size = -1
        self._frames_at_growth = 0

    # -- feeding (capture thread) -----------------------------------------------------

    def offer(self, frame: Frame) -> None:
        """Take a captured frame if it is due at the recording's frame rate; never blocks."""
        slot = math.floor(frame.t * self.fps + 1e-6)  # one frame per 1/fps slot of source time
        if self._last_slot is not None and slot <= self._last_slot:
            return
        self._last_slot = slot
        self._queue.put(frame)
        self.frames_dropped = self._queue.dropped

    # -- control ----------------------------------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="jasscam-recorder", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Finish the current recording (final metadata) and end the thread."""
        self._stop.set()
        self._queue.close()
        if self._thread is not None:
            self._thread.join(timeout)
        self._finish()

    def status(self) -> dict[str, Any]:
        return {
            "recording": self._writer is not None,
            "folder": str(self.folder) if self.folder else None,
            "frames_written": self.frames_written,
            "frames_dropped": self.frames_dropped,
            "problem": self.problem,
        }

    # -- the thread -------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            item = self._queue.get(0.2)
            if isinstance(item, _Closed):
                self._sync_events()
                return
            try:
                self._follow_game()
                if item is not None and self.folder is not None and self.game_id != self._dead_game:
                    self._write(item)
                self._sync_events()
                self._check_health()
            except (OSError, RecordingError, cv2.error, RecorderStopped) as exc:
                self._abandon(str(exc))
            if self._stop.is_set() and item is None:
                self._sync_events()
                return

    def _follow_game(self) -> None:
        game = self.store.current_game()
        if game == self.game_id:
            return
        self._finish()
        self.game_id = game
        self.folder = None
        if game is None or game == self._dead_game:
            return
        self._prune()
        self._begin(game)

    def _begin(self, game: int) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        self.folder = self.directory / f"game-{game}-{stamp}"
        self._origin = None
        self._size = None
        self._events_written = 0
        self._last_file_size = -1
        self._frames_at_growth = 0
        self.problem = None
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecorderStopped(f"cannot create the recordings directory {self.directory}: {exc}") from exc
        self._check_free_space()
        log.info("recording game %s to %s", game, self.folder)

    def _open_writer(self, frame: Frame) -> RecordingWriter:
        assert self.folder is not None and self.game_id is not None
        h, w = frame.image.shape[:2]
        if w > self.width:
            h, w = max(2, round(h * self.width / w)), self.width
        self._size = (w - w % 2, h - h % 2)
        events = self.store.events(self.game_id)
        config = events[0] if events and isinstance(events[0], GameConfigured) else None
        writer = RecordingWriter(
            self.folder,
            fps=self.fps,
            width=self._size[0],
            height=self._size[1],
            camera=self.camera,
            rules=event_to_dict(events[0]) if events else {},
            # The seats as the table set them up: a replay must read the camera's evidence
            # (whose hand, who took the trick) against the same edges.
            seat_layout={str(seat): edge for seat, edge in enumerate(config.seat_edges)}
            if config is not None and config.seat_edges is not None
            else None,
            codec="MJPG",
            variable_rate=True,
            extra={"origin": "appliance", "game_id": self.game_id},
        )
        self._origin = frame.t
        return writer

    def _write(self, frame: Frame) -> None:
        if self._writer is None:
            self._writer = self._open_writer(frame)
        assert self._size is not None and self._origin is not None
        image = frame.image
        if (image.shape[1], image.shape[0]) != self._size:
            image = cv2.resize(image, self._size, interpolation=cv2.INTER_AREA)
        video_t = max(frame.t - self._origin, self._last_video_t)
        self._writer.write_frame(np.ascontiguousarray(image), video_t)
        self._last_video_t = video_t
        self.frames_written += 1

    def _sync_events(self) -> None:
        """Copy the game's new events from the store, in store order, with video times."""
        if self._writer is None or self.game_id is None:
            return
        events = self.store.events(self.game_id)
        for event in events[self._events_written :]:
            self._writer.add_event(self._video_time(event))
            self._events_written += 1

    def _video_time(self, event: Event) -> Event:
        from_camera = isinstance(event, TrickCollected) or (isinstance(event, CardPlayed) and event.source == "camera")
        if from_camera and event.t is not None and self._origin is not None:
            return replace(event, t=round(max(0.0, event.t - self._origin), 4))
        return replace(event, t=round(self._last_video_t, 4))

    def _check_health(self) -> None:
        if self._writer is not None and self.store.disk_full:
            # A flag already set, so checked on every frame, not every CHECK_EVERY_S:
            # each frame written after the store went into its reserve takes room from it.
            self._check_free_space()
        now = time.monotonic()
        if self._writer is None or now - self._last_check < CHECK_EVERY_S:
            return
        self._last_check = now
        self._check_free_space()
        assert self.folder is not None
        size = folder_size(self.folder)
        if size > self.max_total_bytes:
            raise RecorderStopped(f"the recording reached recording.max_total_mb ({self.max_total_bytes >> 20} MB)")
        # OpenCV's VideoWriter reports no write errors: a video file that stopped growing
        # while frames were written means the disk (or a file size limit) refuses them.
        video = self.folder / str(self._writer.meta["video"])
        file_size = video.stat().st_size
        if file_size > self._last_file_size:
            self._last_file_size = file_size
            self._frames_at_growth = self.frames_written
            return
        # Small frames sit in the writer's buffer for a while, so the window is sized in
        # bytes: the file must grow once a buffer's worth of frames was written.
        per_frame = max(file_size / self._frames_at_growth if self._frames_at_growth else 0, MIN_FRAME_BYTES)
        window = max(STALL_FRAMES, math.ceil(WRITER_BUFFER_BYTES / per_frame))
        if self.frames_written - self._frames_at_growth >= window:
            raise RecorderStopped(f"{video} stopped growing: the disk refuses more data")

    def _check_free_space(self) -> None:
        if self.store.disk_full:
            # The store's own view counts, not only ours: on a small card (or with a low
            # min_free_mb) the disk can fill before our check trips, and then every byte
            # the video takes is one the score's reserve no longer has.
            raise RecorderStopped(
                f"the disk holding the event store {self.store.path} is full (the score goes on in its reserve); "
                "recording stopped to leave the room to the game"
            )
        try:
            free = shutil.disk_usage(self.directory).free
        except OSError as exc:
            raise RecorderStopped(f"cannot check free space in {self.directory}: {exc}") from exc
        if free < self.min_free_bytes:
            raise RecorderStopped(
                f"only {free >> 20} MB free in {self.directory} (recording.min_free_mb is "
                f"{self.min_free_bytes >> 20}); recording stopped to keep room for the game store"
            )

    def _abandon(self, reason: str) -> None:
        """Stop recording this game after a problem; the game itself goes on."""
        if self.problem is None:
            log.warning("recording stopped: %s (the game goes on; its events are safe in the store)", reason)
        self.problem = reason
        self._dead_game = self.game_id
        writer, self._writer = self._writer, None
        if writer is not None:
            try:
                writer.close()
            except (OSError, RecordingError, cv2.error) as exc:
                log.warning("could not finalise the recording %s: %s", self.folder, exc)

    def _finish(self) -> None:
        writer, self._writer = self._writer, None
        if writer is None:
            return
        try:
            self._writer = writer
            self._sync_events()
            self._writer = None
            writer.close()
            log.info("recording finished: %s (%d frames)", self.folder, self.frames_written)
        except (OSError, RecordingError, cv2.error) as exc:
            self._writer = None
            log.warning("could not finalise the recording %s: %s", self.folder, exc)

    def _prune(self) -> None:
        """Delete the oldest finished recordings until the folder fits its budget."""
        if not self.directory.is_dir():
            return
        folders = sorted(
            (p for p in self.directory.iterdir() if p.is_dir() and _FOLDER.match(p.name)),
            key=lambda p: p.stat().st_mtime,
        )
        sizes = {p: folder_size(p) for p in folders}
        total = sum(sizes.values())
        budget = self.max_total_bytes * 3 // 4  # room for the game about to be recorded
        for old in folders:
            if total <= budget:
                break
            log.info("deleting old recording %s to stay within recording.max_total_mb", old)
            shutil.rmtree(old, ignore_errors=True)
            total -= sizes[old]
