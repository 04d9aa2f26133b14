"""vision.recording: a written recording reads back the same; broken folders fail clearly."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.events import CardPlayed, Event, GameConfigured, RoundStarted, TrickCollected
from vision.recording import FORMAT, VERSION, Recording, RecordingError, RecordingWriter

W, H = 96, 64


def _frames(n: int) -> list[np.ndarray]:
    """Frames that differ visibly from one another (a moving bar on a gradient)."""
    out = []
    base = np.tile(np.linspace(40, 200, W, dtype=np.uint8), (H, 1))
    for i in range(n):
        f = cv2.merge([base, base[::-1], np.full_like(base, 90)])
        cv2.rectangle(f, (5 * i % W, 10), (5 * i % W + 12, 50), (255, 255, 255), -1)
        out.append(f)
    return out


EVENTS: list[Event] = [
    GameConfigured(t=0.0),
    RoundStarted(forehand=1, contract="rosen", t=0.2),
    CardPlayed(seat=1, card="rosen-ass", t=0.5),
    TrickCollected(seat=1, t=1.0),
]


def _write(path: Path, codec: str = "mp4v", variable_rate: bool = False, n: int = 12) -> list[np.ndarray]:
    frames = _frames(n)
    with RecordingWriter(
        path,
        fps=8,
        width=W,
        height=H,
        codec=codec,
        deck="swiss-xvii",
        camera={"source": "test"},
        rules={"variant": "schieber"},
        variable_rate=variable_rate,
    ) as w:
        for i, f in enumerate(frames):
            w.write_frame(f, t=0.1 * i + (0.05 if i > 5 else 0.0))
        for e in EVENTS:
            w.add_event(e)
    return frames


@pytest.mark.parametrize("codec", ["mp4v", "MJPG"])
def test_recording_round_trips_frames_events_and_metadata(tmp_path: Path, codec: str) -> None:
    frames = _write(tmp_path / "rec", codec)
    rec = Recording.open(tmp_path / "rec")
    assert rec.meta["format"] == FORMAT and rec.meta["version"] == VERSION and rec.finished
    assert (rec.width, rec.height, rec.fps, rec.frame_count) == (W, H, 8.0, 12)
    assert rec.deck == "swiss-xvii" and rec.camera == {"source": "test"} and rec.rules == {"variant": "schieber"}
    assert rec.seat_layout == {0: "bottom", 1: "right", 2: "top", 3: "left"}
    assert rec.events == EVENTS
    got = list(rec.frames())
    assert [t for t, _ in got] == pytest.approx([i / 8 for i in range(12)])
    for (_, frame), original in zip(got, frames, strict=True):
        assert frame.shape == (H, W, 3)
        assert cv2.PSNR(frame, original) > 28


def test_variable_rate_recordings_keep_each_frames_time(tmp_path: Path) -> None:
    _write(tmp_path / "rec", "MJPG", variable_rate=True)
    rec = Recording.open(tmp_path / "rec")
    times = [t for t, _ in rec.frames()]
    assert times == pytest.approx([0.1 * i + (0.05 if i > 5 else 0.0) for i in range(12)], abs=1e-3)
    assert [t for t, _ in rec.frames(start=0.6)][0] == pytest.approx(0.65, abs=1e-3)


def test_missing_folder_and_metadata_are_reported(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match="does not exist"):
        Recording.open(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(RecordingError, match="has no recording.json"):
        Recording.open(tmp_path / "empty")


def test_corrupt_metadata_is_reported(tmp_path: Path) -> None:
    _write(tmp_path / "rec")
    meta_path = tmp_path / "rec" / "recording.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text("{not json")
    with pytest.raises(RecordingError, match="not valid JSON"):
        Recording.open(tmp_path / "rec")
    meta_path.write_text(json.dumps({**meta, "version": 99}))
    with pytest.raises(RecordingError, match="version 99 is not supported"):
        Recording.open(tmp_path / "rec")
    meta_path.write_text(json.dumps({**meta, "fps": 0}))
    with pytest.raises(RecordingError, match="fps must be"):
        Recording.open(tmp_path / "rec")
    meta_path.write_text(json.dumps({**meta, "seat_layout": {"0": "bottom"}}))
    with pytest.raises(RecordingError, match="seat_layout"):
        Recording.open(tmp_path / "rec")


def test_missing_or_truncated_video_is_reported(tmp_path: Path) -> None:
    _write(tmp_path / "rec", n=40)
    video = tmp_path / "rec" / "video.mp4"
    data = video.read_bytes()
    video.write_bytes(data[: len(data) // 2])
    with pytest.raises(RecordingError, match="video .* (cannot be opened|truncated|no readable frame)"):
        rec = Recording.open(tmp_path / "rec")
        list(rec.frames())
    video.unlink()
    with pytest.raises(RecordingError, match="is missing"):
        Recording.open(tmp_path / "rec")


def test_a_bad_event_line_is_reported_with_its_line_number(tmp_path: Path) -> None:
    _write(tmp_path / "rec")
    events = tmp_path / "rec" / "events.jsonl"
    lines = events.read_text().splitlines()
    lines[2] = json.dumps({"type": "card_played", "v": 1, "seat": 7, "card": "rosen-ass"})
    events.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordingError, match="events.jsonl line 3: seat must be a seat number"):
        Recording.open(tmp_path / "rec")
    events.write_text("{oops\n")
    with pytest.raises(RecordingError, match="line 1: not valid JSON"):
        Recording.open(tmp_path / "rec")


def test_writer_refuses_wrong_frames_and_existing_folders(tmp_path: Path) -> None:
    _write(tmp_path / "rec")
    with pytest.raises(RecordingError, match="already exists"):
        RecordingWriter(tmp_path / "rec", fps=8, width=W, height=H)
    with RecordingWriter(tmp_path / "other", fps=8, width=W, height=H) as w:
        with pytest.raises(ValueError, match="frame is 10x10"):
            w.write_frame(np.zeros((10, 10, 3), np.uint8))
        with pytest.raises(ValueError, match="seat must be a seat number"):
            w.add_event({"type": "card_played", "seat": 9, "card": "rosen-6"})


def test_an_unfinished_recording_still_opens(tmp_path: Path) -> None:
    """A power cut leaves recording.json without a frame count; the video says how long it is."""
    w = RecordingWriter(tmp_path / "rec", fps=8, width=W, height=H, codec="MJPG")
    for f in _frames(10):
        w.write_frame(f)
    w._writer.release()  # the video reached the disk, the metadata was never finished
    rec = Recording.open(tmp_path / "rec")
    assert not rec.finished and rec.meta["frame_count"] is None
    assert sum(1 for _ in rec.frames()) == 10
