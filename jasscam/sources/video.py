"""A video file played as if it were a live camera (for recordings, the demo and tests).

Why pacing matters: the tracker's timing (a card counts after it rested for a few
frames, a trick is collected when its cards are gone for a while) is in recording time,
and the dashboard should see the game unfold as it did at the table. ``realtime=True``
delivers each frame at its recorded time (frames the consumer is too slow for are
dropped downstream, as with a camera); ``realtime=False`` delivers as fast as asked.

A truncated or corrupt file is reported as SourceUnavailable naming the file and what
is wrong with it, never as a silent short game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from jasscam.sources.base import EndOfStream, Frame, FrameSource, SourceUnavailable, fit_width


class VideoFileSource(FrameSource):
    """Frames of ``path`` with times from ``frame_times`` (seconds) or ``index / fps``.

    ``expected_frames`` (from the recording's metadata) turns an early end into an
    error: the file was cut short. ``start_at`` skips frames recorded before that time
    (resuming a replay after a restart).
    """

    finite = True

    def __init__(
        self,
        path: str | Path,
        *,
        fps: float | None = None,
        frame_times: Sequence[float] | None = None,
        expected_frames: int | None = None,
        realtime: bool = True,
        start_at: float = 0.0,
        analysis_width: int | None = None,
    ) -> None:
        self.path = Path(path)
        self.name = f"recording {self.path.parent.name or self.path.name}"
        self.fps = fps
        self.frame_times = list(frame_times) if frame_times is not None else None
        self.expected_frames = expected_frames
        if self.expected_frames is None and self.frame_times is not None:
            self.expected_frames = len(self.frame_times)
        self.realtime = realtime
        self.start_at = start_at
        self.analysis_width = analysis_width
        self._cap: cv2.VideoCapture | None = None
        self._first: np.ndarray | None = None
        self._index = 0
        self._clock0 = 0.0

    def _time_of(self, index: int) -> float:
        if self.frame_times is not None and index < len(self.frame_times):
            return float(self.frame_times[index])
        fps = self.fps or 10.0
        return index / fps

    def open(self) -> None:
        if not self.path.is_file():
            raise SourceUnavailable(f"video {self.path} does not exist")
        if self.path.stat().st_size == 0:
            raise SourceUnavailable(f"video {self.path} is empty (0 bytes): the recording was cut off")
        cap = cv2.VideoCapture(str(self.path), cv2.CAP_FFMPEG)
        if not cap.isOpened():
            cap.release()
            raise SourceUnavailable(
                f"video {self.path} cannot be opened: the file is corrupt or truncated "
                "(an MP4 that was never finalised lacks its index), or its codec is not supported"
            )
        ok, first = cap.read()
        if not ok or first is None:
            cap.release()
            raise SourceUnavailable(f"video {self.path} holds no readable frame: the file is corrupt or truncated")
        self._cap = cap
        self._first = first
        self._index = 0
        # Skip to start_at by decoding (seeking by time is unreliable across codecs).
        while self._time_of(self._index) < self.start_at:
            ok, frame = cap.read()
            if not ok or frame is None:
                self._truncated()
                raise EndOfStream
            self._index += 1
            self._first = frame
        self._clock0 = time.monotonic() - self._time_of(self._index)

    def _truncated(self) -> None:
        if self.expected_frames is not None and self._index < self.expected_frames:
            raise SourceUnavailable(
                f"video {self.path} is truncated: it ends after {self._index} of "
                f"{self.expected_frames} frames its recording promises"
            )

    def read(self, timeout: float) -> Frame:
        if self._cap is None:
            raise EndOfStream
        if self._first is not None:
            image, self._first = self._first, None
        else:
            ok, image = self._cap.read()
            if not ok or image is None:
                self._truncated()
                raise EndOfStream
        t = self._time_of(self._index)
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
        if self._cap is not None:
            self._cap.release()
            self._cap = None
