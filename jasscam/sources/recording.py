"""A recording folder (``vision.recording``) replayed as if it were the live camera.

Used by ``jasscam demo`` (the bundled game in real time), by ``camera.source =
"recording"``, by tests and by the benchmark. Metadata, events and the video are
checked when the source opens, so a corrupt or truncated recording gives one clear
error naming the file instead of a silently short game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from jasscam.sources.base import EndOfStream, Frame, FrameSource, SourceUnavailable, fit_width
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
    ) -> None:
        self.path = Path(path)
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
        except RecordingError as exc:
            raise SourceUnavailable(f"cannot replay {self.path}: {exc}") from None
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
        except RecordingError as exc:
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
