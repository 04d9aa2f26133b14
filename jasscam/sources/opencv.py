"""A camera through OpenCV's VideoCapture (a USB camera on the Pi or a laptop's webcam)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2

from jasscam.sources.base import Frame, FrameSource, SourceLost, SourceUnavailable, fit_width


def device_path(device: int | str) -> str:
    return f"/dev/video{device}" if isinstance(device, int) else str(device)


class OpenCVSource(FrameSource):
    """``cv2.VideoCapture`` on a device index or path, frames scaled to ``analysis_width``."""

    def __init__(
        self,
        device: int | str = 0,
        *,
        width: int = 1280,
        height: int = 960,
        fps: float = 10,
        analysis_width: int = 1280,
    ) -> None:
        self.device = device
        self.size = (width, height)
        self.fps = fps
        self.analysis_width = analysis_width
        self.name = f"opencv {device_path(device)}"
        self._cap: cv2.VideoCapture | None = None
        self._index = 0
        self._t0 = 0.0

    def open(self) -> None:
        path = device_path(self.device)
        if sys.platform.startswith("linux") and not Path(path).exists():
            raise SourceUnavailable(
                f"no camera at {path}: connect a USB camera (or the Pi camera module and set "
                'camera.source = "picamera2"), or set camera.device to an existing /dev/video*'
            )
        api = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
        cap = cv2.VideoCapture(self.device, api, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, 5000])
        if not cap.isOpened():
            cap.release()
            # The node exists but cannot be opened: busy, permissions, or not a capture device.
            raise SourceLost(f"{path} exists but cannot be opened (in use, or not in the video group?)")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        cap.set(cv2.CAP_PROP_FPS, float(self.fps))
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a stale one from the driver queue
        cap.set(cv2.CAP_PROP_READ_TIMEOUT_MSEC, 3000)
        self._cap = cap
        if not self._t0:  # one time base across reopens: the tracker needs t to keep rising
            self._t0 = time.monotonic()

    def read(self, timeout: float) -> Frame:
        if self._cap is None:
            raise SourceLost(f"{self.name} is not open")
        ok, image = self._cap.read()
        if not ok or image is None:
            raise SourceLost(f"{self.name} delivered no frame")
        frame = Frame(fit_width(image, self.analysis_width), time.monotonic() - self._t0, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
