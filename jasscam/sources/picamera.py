"""The Raspberry Pi camera module through picamera2 (imported here only, when used).

Why two streams: the ``main`` stream runs at the sensor-friendly capture size, while the
ISP scales a ``lores`` stream to the analysis size in hardware. With the default analysis
width (the capture width) the main buffer is copied: at the hardware guide's mounting a
card is about 90 px long there and 45 px in a 640 px lores frame, too few for its index
corner, so the recogniser must cut each card from the full frame (it scales the frame for
its detector itself). A smaller analysis width copies only the lores buffer.

Why locked exposure and white balance: the recogniser was trained on cards under steady
light; a hand moving over the table would otherwise make auto-exposure change every
card's brightness and colour mid-trick. Either fixed values come from the configuration,
or the camera's own automatic values are read after ``settle_s`` and then frozen.
"""

from __future__ import annotations

import time
from typing import Any

import cv2

from jasscam.sources.base import Frame, FrameSource, SourceLost, SourceUnavailable

INSTALL_HINT = (
    "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` and "
    "create the virtualenv with --system-site-packages (systemd/install.sh does both)"
)


def picamera2_available() -> bool:
    """True when picamera2 imports and libcamera sees at least one camera."""
    try:
        from picamera2 import Picamera2
    except ImportError:
        return False
    try:
        return bool(Picamera2.global_camera_info())
    except Exception:
        return False


def lores_size(width: int, height: int, analysis_width: int) -> tuple[int, int]:
    """The lores stream size: ``analysis_width`` wide, same aspect, both even (YUV420 needs it)."""
    w = analysis_width - analysis_width % 2
    h = round(height * w / width)
    return w, h - h % 2


class PiCameraSource(FrameSource):
    """Frames from the main stream (full resolution) or the lores stream.

    Exposure and white balance are locked once they have settled.
    """

    def __init__(
        self,
        *,
        width: int = 1280,
        height: int = 960,
        fps: float = 10,
        analysis_width: int = 1280,
        exposure_us: int = 0,
        analogue_gain: float = 0.0,
        settle_s: float = 2.0,
    ) -> None:
        self.name = "picamera2"
        self.size = (width, height)
        self.lores = lores_size(width, height, min(analysis_width, width))
        self.full = analysis_width >= width
        self.fps = fps
        self.exposure_us = exposure_us
        self.analogue_gain = analogue_gain
        self.settle_s = settle_s
        self.locked_controls: dict[str, Any] | None = None  # kept across reopen
        self._cam: Any = None
        self._index = 0
        self._t0 = 0.0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceUnavailable(INSTALL_HINT) from None
        if not Picamera2.global_camera_info():
            raise SourceUnavailable(
                "picamera2 finds no camera: connect the camera module's ribbon cable (power off first) "
                "and check `rpicam-hello --list-cameras`"
            )
        try:
            cam = Picamera2()
            controls: dict[str, Any] = {"FrameRate": float(self.fps)}
            if self.locked_controls:
                controls.update(self.locked_controls)
            elif self.exposure_us:
                controls.update({"AeEnable": False, "ExposureTime": self.exposure_us})
                if self.analogue_gain:
                    controls["AnalogueGain"] = float(self.analogue_gain)
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "YUV420"},
                lores={"size": self.lores, "format": "YUV420"},
                controls=controls,
                buffer_count=4,
            )
            cam.configure(config)
            cam.start()
        except Exception as exc:  # libcamera raises RuntimeError and friends
            raise SourceLost(f"picamera2 could not start the camera: {exc}") from exc
        self._cam = cam
        if not self._t0:  # one time base across reopens: the tracker needs t to keep rising
            self._t0 = time.monotonic()
        if self.locked_controls is None:
            self._lock_exposure()

    def _lock_exposure(self) -> None:
        """Let automatic exposure/white balance settle, then freeze what they found."""
        time.sleep(self.settle_s)
        metadata = self._cam.capture_metadata()
        locked: dict[str, Any] = {"AwbEnable": False, "ColourGains": tuple(metadata["ColourGains"])}
        if not self.exposure_us:
            locked.update(
                {
                    "AeEnable": False,
                    "ExposureTime": int(metadata["ExposureTime"]),
                    "AnalogueGain": float(metadata["AnalogueGain"]),
                }
            )
        self._cam.set_controls(locked)
        self.locked_controls = locked

    def read(self, timeout: float) -> Frame:
        if self._cam is None:
            raise SourceLost("picamera2 is not open")
        try:
            job = self._cam.capture_request(wait=False)
            request = self._cam.wait(job, timeout=timeout)
        except TimeoutError:
            raise SourceLost(f"picamera2 delivered no frame in {timeout:.1f} s") from None
        except Exception as exc:
            raise SourceLost(f"picamera2 failed: {exc}") from exc
        if request is None:
            raise SourceLost(f"picamera2 delivered no frame in {timeout:.1f} s")
        try:
            # The full main buffer when the recogniser reads full resolution (it crops each
            # card from it), else just the small lores buffer the ISP scaled.
            yuv = request.make_array("main" if self.full else "lores")
        finally:
            request.release()
        image = cv2.cvtColor(yuv, cv2.COLOR_YUV420p2BGR)
        frame = Frame(image, time.monotonic() - self._t0, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()
