"""The one interface every frame source implements, and the errors it may raise.

Why three errors: the pipeline must tell apart a source that can never work as
configured (tell the user what to install or connect, and stop), a source that worked
and stopped delivering (reopen with backoff, show "camera lost"), and a finite source
that has simply ended (a replayed recording).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import cv2
import numpy as np


class SourceUnavailable(RuntimeError):
    """The source cannot be used at all; the message says what to install or connect."""


class SourceLost(RuntimeError):
    """The source was working and stopped delivering (unplugged, driver error, stall)."""


class EndOfStream(Exception):
    """A finite source (a recording) has no more frames."""


@dataclass(frozen=True)
class Frame:
    """One captured frame at analysis size.

    ``image`` is BGR uint8 (H, W, 3), the array the recogniser and the recorder get;
    nobody writes into it after capture, so stages share it without copying. ``t`` is
    seconds since the source started (for a recording: the recorded time), ``index``
    counts frames delivered by this source, including ones dropped later.
    """

    image: np.ndarray
    t: float
    index: int

    @property
    def height(self) -> int:
        return int(self.image.shape[0])

    @property
    def width(self) -> int:
        return int(self.image.shape[1])


class FrameSource(ABC):
    """Open, read frames, close. A source may be opened again after ``close``."""

    #: Short name for logs and the dashboard ("picamera2", "opencv /dev/video0", ...).
    name: str = "source"
    #: True for sources that end (recordings): the pipeline stops at EndOfStream.
    finite: bool = False

    @abstractmethod
    def open(self) -> None:
        """Acquire the device; raise SourceUnavailable (never works) or SourceLost (try again)."""

    @abstractmethod
    def read(self, timeout: float) -> Frame:
        """The next frame within ``timeout`` seconds, else SourceLost; EndOfStream when finished."""

    @abstractmethod
    def close(self) -> None:
        """Release the device; safe to call twice or without open."""

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fit_width(image: np.ndarray, width: int) -> np.ndarray:
    """Scale ``image`` down to ``width`` keeping its aspect (never up; no copy if it fits)."""
    h, w = image.shape[:2]
    if w <= width:
        return image
    height = max(1, round(h * width / w))
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
