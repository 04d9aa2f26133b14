"""Frame sources behind one interface (``FrameSource``), chosen by the configuration.

``source_from_config`` picks the source the ``[camera]`` table asks for; ``auto``
probes the Pi camera first, then an OpenCV device, and if neither is there says what
to connect or install in one message (SourceUnavailable).
"""

from __future__ import annotations

from pathlib import Path

from jasscam.config import Config
from jasscam.sources.base import EndOfStream, Frame, FrameSource, SourceLost, SourceUnavailable
from jasscam.sources.opencv import OpenCVSource, device_path
from jasscam.sources.picamera import PiCameraSource, picamera2_available
from jasscam.sources.recording import RecordingSource

__all__ = [
    "EndOfStream",
    "Frame",
    "FrameSource",
    "OpenCVSource",
    "PiCameraSource",
    "RecordingSource",
    "SourceLost",
    "SourceUnavailable",
    "source_from_config",
]


def source_from_config(config: Config) -> FrameSource:
    """The source ``[camera]`` describes; SourceUnavailable when ``auto`` finds no camera."""
    cam = config.camera
    kind = cam.source
    if kind == "auto":
        if picamera2_available():
            kind = "picamera2"
        elif Path(device_path(cam.device)).exists():
            kind = "opencv"
        else:
            raise SourceUnavailable(
                "no camera found: connect the Raspberry Pi camera module (and install picamera2: "
                "`sudo apt install python3-picamera2`) or a USB camera "
                f"(looked for {device_path(cam.device)}), or replay a recording with "
                '`camera.source = "recording"` (try `jasscam demo`)'
            )
    if kind == "picamera2":
        return PiCameraSource(
            width=cam.width,
            height=cam.height,
            fps=cam.fps,
            analysis_width=cam.analysis_width,
            exposure_us=cam.exposure_us,
            analogue_gain=cam.analogue_gain,
            settle_s=cam.settle_s,
        )
    if kind == "opencv":
        return OpenCVSource(
            cam.device, width=cam.width, height=cam.height, fps=cam.fps, analysis_width=cam.analysis_width
        )
    return RecordingSource(cam.recording, realtime=cam.realtime, analysis_width=cam.analysis_width, resume=True)
