"""The recording format: one folder per recorded game (video, metadata, events).

A game recorded by the appliance from its camera and a game rendered by
``jasscam render-game`` are the same kind of folder, so both replay through the same
code (docs/recording-format.md describes it field by field):

    recording.json   metadata: format, version, video file, size, fps, camera, seat layout,
                     deck, rules, start time, frame count
    video.mp4        the frames (MPEG-4 part 2 "mp4v"; MJPG in .avi also accepted)
    events.jsonl     the game's events in the shared schema (scoring/events/), one per
                     line, ``t`` in seconds of video time
    frame_times.txt  optional: one time in seconds per frame, for cameras whose frame rate
                     wavers; without it frame i is at i / fps

Run-time module of the appliance: needs only numpy, OpenCV, the standard library and the
pure ``scoring.events``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from scoring.events import Event, EventError, GameConfigured, dumps, parse_event

FORMAT: Final[str] = "jasscam-recording"
VERSION: Final[int] = 1
META_FILE: Final[str] = "recording.json"
EVENTS_FILE: Final[str] = "events.jsonl"
FRAME_TIMES_FILE: Final[str] = "frame_times.txt"
#: Seat numbers as the camera sees them: seat 0 sits at the bottom edge of the image and
#: the seats follow counter-clockwise (seat 1 right, seat 2 top, seat 3 left).
DEFAULT_SEAT_LAYOUT: Final[dict[str, str]] = {"0": "bottom", "1": "right", "2": "top", "3": "left"}
CODECS: Final[dict[str, str]] = {"mp4v": ".mp4", "MJPG": ".avi"}
SIDES: Final[frozenset[str]] = frozenset({"bottom", "right", "top", "left"})


class RecordingError(ValueError):
    """A recording folder that is missing, incomplete or corrupt; the message says which file and why."""


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _check_meta(meta: Any, where: Path) -> dict[str, Any]:
    """Validate recording.json; raise RecordingError naming the first bad field."""

    def bad(msg: str) -> RecordingError:
        return RecordingError(f"{where}: {msg}")

    if not isinstance(meta, dict):
        raise bad("must hold a JSON object")
    if meta.get("format") != FORMAT:
        raise bad(f"format must be {FORMAT!r}, got {meta.get('format')!r}: not a jasscam recording")
    version = meta.get("version")
    if version != VERSION:
        raise bad(f"version {version!r} is not supported (this build reads version {VERSION})")
    for key in ("width", "height"):
        v = meta.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise bad(f"{key} must be a positive whole number of pixels, got {v!r}")
    fps = meta.get("fps")
    if isinstance(fps, bool) or not isinstance(fps, (int, float)) or not 0 < fps <= 240:
        raise bad(f"fps must be a number in (0, 240], got {fps!r}")
    video = meta.get("video")
    if not isinstance(video, str) or not video or "/" in video or "\\" in video or video.startswith("."):
        raise bad(f"video must be a file name inside the folder, got {video!r}")
    count = meta.get("frame_count")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or count < 0):
        raise bad(f"frame_count must be a whole number >= 0 or null, got {count!r}")
    layout = meta.get("seat_layout", DEFAULT_SEAT_LAYOUT)
    if not isinstance(layout, dict) or set(layout) != {"0", "1", "2", "3"} or set(layout.values()) != SIDES:
        raise bad(f"seat_layout must map seats '0'..'3' to the four sides bottom/right/top/left, got {layout!r}")
    for key in ("camera", "rules"):
        if not isinstance(meta.get(key, {}), dict):
            raise bad(f"{key} must be a JSON object")
    if not isinstance(meta.get("deck", ""), str):
        raise bad("deck must be a string")
    start = meta.get("start_time")
    if start is not None:
        try:
            datetime.fromisoformat(str(start))
        except ValueError:
            raise bad(f"start_time must be an ISO 8601 date and time, got {start!r}") from None
    return meta


@dataclass
class Recording:
    """An opened, validated recording folder. Use :meth:`open`."""

    path: Path
    meta: dict[str, Any]
    events: list[Event]
    frame_times: list[float] | None = None
    _probed_frames: int = field(default=0, repr=False)

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, check_video: bool = True) -> Recording:
        """Open and validate the recording in folder ``path``.

        Checks the metadata, that every event line follows the event schema, the frame
        times (if any), and (``check_video``) that the video opens, has the declared size
        and is not shorter than the declared frame count.
        """
        root = Path(path)
        if not root.exists():
            raise RecordingError(f"recording {root} does not exist")
        if not root.is_dir():
            raise RecordingError(f"recording {root} is not a folder (a recording is a folder with {META_FILE})")
        meta_path = root / META_FILE
        if not meta_path.is_file():
            raise RecordingError(f"{root} has no {META_FILE}: not a recording folder, or it was never started")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RecordingError(f"{meta_path} is not valid JSON ({exc}): the file is corrupt") from None
        meta = _check_meta(meta, meta_path)

        events = read_events(root / meta.get("events", EVENTS_FILE))
        times = None
        if meta.get("frame_times"):
            times = _read_frame_times(root / str(meta["frame_times"]))
            if meta.get("frame_count") is not None and len(times) != meta["frame_count"]:
                raise RecordingError(
                    f"{root / str(meta['frame_times'])} has {len(times)} times but frame_count is {meta['frame_count']}"
                )
        rec = cls(root, meta, events, times)
        if check_video:
            rec._probe_video()
        return rec

    def _probe_video(self) -> None:
        video = self.video_path
        if not video.is_file():
            raise RecordingError(f"video {video} is missing")
        if video.stat().st_size == 0:
            raise RecordingError(f"video {video} is empty (0 bytes): the recording was cut off")
        cap = cv2.VideoCapture(str(video), cv2.CAP_FFMPEG)
        try:
            if not cap.isOpened():
                raise RecordingError(
                    f"video {video} cannot be opened: corrupt or truncated (an MP4 that was never "
                    "finalised lacks its index), or its codec is not supported"
                )
            ok, frame = cap.read()
            if not ok or frame is None:
                raise RecordingError(f"video {video} has no readable frame: corrupt or truncated")
            if frame.shape[1] != self.width or frame.shape[0] != self.height:
                raise RecordingError(
                    f"video {video} is {frame.shape[1]}x{frame.shape[0]} but {META_FILE} says "
                    f"{self.width}x{self.height}"
                )
            self._probed_frames = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        finally:
            cap.release()
        declared = self.meta.get("frame_count")
        if declared is not None and 0 < self._probed_frames < declared:
            raise RecordingError(
                f"video {video} holds {self._probed_frames} frames but {META_FILE} says {declared}: truncated"
            )

    # ------------------------------------------------------------------ properties

    @property
    def video_path(self) -> Path:
        return self.path / str(self.meta["video"])

    @property
    def width(self) -> int:
        return int(self.meta["width"])

    @property
    def height(self) -> int:
        return int(self.meta["height"])

    @property
    def fps(self) -> float:
        return float(self.meta["fps"])

    @property
    def frame_count(self) -> int:
        """Declared frame count, or (an unfinished recording) what the video holds."""
        declared = self.meta.get("frame_count")
        return int(declared) if declared is not None else self._probed_frames

    @property
    def duration(self) -> float:
        if self.frame_times:
            return self.frame_times[-1] + 1.0 / self.fps
        return self.frame_count / self.fps

    @property
    def seat_layout(self) -> dict[int, str]:
        """Which image edge each seat sat at: as the game's ``game_configured`` recorded it
        (the game's own log is its truth), else ``recording.json``'s ``seat_layout``
        (recordings from before the event log held the layout), else seat 0 at the bottom."""
        config = next((e for e in self.events if isinstance(e, GameConfigured)), None)
        if config is not None and config.seat_edges is not None:
            return dict(enumerate(config.seat_edges))
        return {int(k): v for k, v in self.meta.get("seat_layout", DEFAULT_SEAT_LAYOUT).items()}

    @property
    def seat_edges(self) -> tuple[str, str, str, str]:
        """``seat_layout`` as the event schema's ``seat_edges``: seat 0's edge first."""
        layout = self.seat_layout
        return (layout[0], layout[1], layout[2], layout[3])

    @property
    def deck(self) -> str:
        return str(self.meta.get("deck", ""))

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.meta.get("rules", {}))

    @property
    def camera(self) -> dict[str, Any]:
        return dict(self.meta.get("camera", {}))

    @property
    def finished(self) -> bool:
        return bool(self.meta.get("finished", False))

    def time_of(self, index: int) -> float:
        if self.frame_times is not None and index < len(self.frame_times):
            return self.frame_times[index]
        return index / self.fps

    # ------------------------------------------------------------------ frames

    def frames(self, start: float = 0.0) -> Iterator[tuple[float, np.ndarray]]:
        """Yield ``(t, frame)`` (seconds, BGR uint8) from ``start`` seconds on, in order.

        Raises RecordingError if the video ends before its declared frame count.
        """
        cap = cv2.VideoCapture(str(self.video_path), cv2.CAP_FFMPEG)
        if not cap.isOpened():
            raise RecordingError(f"video {self.video_path} cannot be opened")
        declared = self.meta.get("frame_count")
        index = 0
        try:
            while True:
                ok, frame = cap.read()
                if not ok or frame is None:
                    if declared is not None and index < declared:
                        raise RecordingError(
                            f"video {self.video_path} ends after {index} of {declared} frames: truncated or corrupt"
                        )
                    return
                t = self.time_of(index)
                index += 1
                if t + 1e-9 >= start:
                    yield t, frame
        finally:
            cap.release()

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        return self.frames()


def read_events(path: Path) -> list[Event]:
    """Parse events.jsonl; a bad line is reported with its line number. A missing file is no events."""
    if not path.exists():
        raise RecordingError(f"{path} is missing (an empty file means no events)")
    events: list[Event] = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordingError(
            f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}): the file is corrupt"
        ) from None
    for n, line in enumerate(text.split("\n"), 1):  # not splitlines: U+2028 may sit inside a name
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordingError(f"{path} line {n}: not valid JSON ({exc})") from None
        try:
            events.append(parse_event(data))
        except EventError as exc:
            raise RecordingError(f"{path} line {n}: {exc}") from None
    return events


def _read_frame_times(path: Path) -> list[float]:
    if not path.is_file():
        raise RecordingError(f"{path} is missing but {META_FILE} names it")
    times: list[float] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            t = float(line)
        except ValueError:
            raise RecordingError(f"{path} line {n}: {line!r} is not a time in seconds") from None
        if not math.isfinite(t) or t < 0 or (times and t < times[-1]):
            raise RecordingError(f"{path} line {n}: times must be finite, >= 0 and non-decreasing")
        times.append(t)
    return times


class RecordingWriter:
    """Writes a recording folder; used by the appliance (live camera) and the renderer.

    Metadata is written when the folder is created (``frame_count`` null, ``finished``
    false) and rewritten by :meth:`close`, so a recording cut off by a power loss is
    still recognisable. Events are appended and flushed one line at a time.
    ``write_frame(frame, t)`` records ``t`` in frame_times.txt when ``variable_rate``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        fps: float,
        width: int,
        height: int,
        camera: Mapping[str, Any] | None = None,
        deck: str = "",
        rules: Mapping[str, Any] | None = None,
        start_time: str | None = None,
        seat_layout: Mapping[str, str] | None = None,
        codec: str = "mp4v",
        variable_rate: bool = False,
        extra: Mapping[str, Any] | None = None,
        overwrite: bool = False,
    ) -> None:
        if codec not in CODECS:
            raise ValueError(f"codec must be one of {', '.join(CODECS)}, got {codec!r}")
        self.path = Path(path)
        if self.path.exists() and any(self.path.iterdir()) and not overwrite:
            raise RecordingError(f"{self.path} already exists and is not empty")
        self.path.mkdir(parents=True, exist_ok=True)
        video = "video" + CODECS[codec]
        self.meta: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "video": video,
            "codec": codec,
            "width": int(width),
            "height": int(height),
            "fps": float(fps),
            "frame_count": None,
            "duration_s": None,
            "start_time": start_time or _utc_now(),
            "camera": dict(camera or {}),
            "seat_layout": dict(seat_layout or DEFAULT_SEAT_LAYOUT),
            "deck": deck,
            "rules": dict(rules or {}),
            "events": EVENTS_FILE,
            "frame_times": FRAME_TIMES_FILE if variable_rate else None,
            "finished": False,
        }
        self.meta.update(dict(extra or {}))
        _check_meta(self.meta, self.path / META_FILE)
        for stale in (video, EVENTS_FILE, FRAME_TIMES_FILE):
            (self.path / stale).unlink(missing_ok=True)
        self._write_meta()
        self._writer = cv2.VideoWriter(
            str(self.path / video), cv2.VideoWriter.fourcc(*codec), float(fps), (int(width), int(height))
        )
        if not self._writer.isOpened():
            raise RecordingError(f"cannot write {codec} video to {self.path / video} (codec missing in this OpenCV?)")
        # kept open for the recording's lifetime and closed by close(): a context manager cannot span it
        self._events = open(self.path / EVENTS_FILE, "a", encoding="utf-8")  # noqa: SIM115
        self._times = (
            open(self.path / FRAME_TIMES_FILE, "a", encoding="utf-8") if variable_rate else None  # noqa: SIM115
        )
        self.frame_count = 0
        self._last_t = 0.0
        self.closed = False

    def _write_meta(self) -> None:
        tmp = self.path / (META_FILE + ".tmp")
        tmp.write_text(json.dumps(self.meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, self.path / META_FILE)

    def write_frame(self, frame: np.ndarray, t: float | None = None) -> None:
        """Append one BGR frame of the declared size (``t``: its time, for variable-rate recordings)."""
        if self.closed:
            raise RecordingError("recording is closed")
        if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError(f"a frame must be HxWx3 uint8 BGR, got {frame.shape} {frame.dtype}")
        if frame.shape[1] != self.meta["width"] or frame.shape[0] != self.meta["height"]:
            raise ValueError(
                f"frame is {frame.shape[1]}x{frame.shape[0]}, recording is {self.meta['width']}x{self.meta['height']}"
            )
        if self._times is not None:
            t = self.frame_count / self.meta["fps"] if t is None else float(t)
            if t < self._last_t:
                raise ValueError(f"frame time {t} is before the previous frame's {self._last_t}")
            self._times.write(f"{t:.4f}\n")
            self._last_t = t
        self._writer.write(frame)
        self.frame_count += 1

    def add_event(self, event: Event | Mapping[str, Any]) -> None:
        """Append one event (validated against the schema) and flush it to disk."""
        if self.closed:
            raise RecordingError("recording is closed")
        parsed = parse_event(dict(event)) if isinstance(event, Mapping) else event
        self._events.write(dumps(parsed) + "\n")
        self._events.flush()

    def close(self) -> Path:
        """Finish the video and write the final metadata; returns the folder."""
        if self.closed:
            return self.path
        self._writer.release()
        self._events.close()
        if self._times is not None:
            self._times.close()
        self.meta["frame_count"] = self.frame_count
        if self._times is not None and self.frame_count:
            self.meta["duration_s"] = round(self._last_t + 1.0 / self.meta["fps"], 4)
        else:
            self.meta["duration_s"] = round(self.frame_count / self.meta["fps"], 4)
        self.meta["finished"] = True
        self._write_meta()
        self.closed = True
        return self.path

    def __enter__(self) -> RecordingWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
