"""Frame sources: clear messages for what is missing, recordings checked before they play."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from jasscam.config import validate
from jasscam.sources import RecordingSource, SourceUnavailable, source_from_config
from jasscam.sources.base import EndOfStream
from jasscam.sources.opencv import OpenCVSource
from jasscam.sources.picamera import PiCameraSource, lores_size
from tests.appliance.gamegen import round_events
from tests.appliance.synthetic import write_recording


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_recording(tmp_path_factory.mktemp("rec") / "round", round_events(seed=4), fps=25)


def read_all(source: RecordingSource) -> list[float]:
    times = []
    source.open()
    try:
        while True:
            times.append(source.read(1.0).t)
    except EndOfStream:
        return times
    finally:
        source.close()


def test_a_recording_replays_every_frame_with_its_time(recording: Path) -> None:
    times = read_all(RecordingSource(recording, realtime=False))
    assert len(times) == 200 and times[:3] == [0.0, 0.04, 0.08]


def test_a_replay_can_resume_part_way(recording: Path) -> None:
    times = read_all(RecordingSource(recording, realtime=False, start_at=4.0))
    assert times[0] == pytest.approx(4.0) and len(times) == 100


def test_realtime_replay_keeps_the_recorded_pace(recording: Path) -> None:
    import time

    source = RecordingSource(recording, realtime=True, start_at=7.0)  # the last 1 s
    started = time.monotonic()
    assert len(read_all(source)) == 25
    assert 0.85 <= time.monotonic() - started <= 2.0


def test_a_truncated_video_is_a_clear_error(recording: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut"
    shutil.copytree(recording, cut)
    video = cut / "video.avi"
    video.write_bytes(video.read_bytes()[: video.stat().st_size // 3])
    with pytest.raises(SourceUnavailable, match=r"video\.avi.*(truncated|corrupt)"):
        read_all(RecordingSource(cut, realtime=False))


def test_a_corrupt_video_is_a_clear_error(recording: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    shutil.copytree(recording, bad)
    (bad / "video.avi").write_bytes(b"\x00garbage, not a video" * 500)
    with pytest.raises(SourceUnavailable, match=r"cannot replay .*video\.avi cannot be opened"):
        RecordingSource(bad).open()


def test_an_empty_video_is_a_clear_error(recording: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    shutil.copytree(recording, empty)
    (empty / "video.avi").write_bytes(b"")
    with pytest.raises(SourceUnavailable, match="empty"):
        RecordingSource(empty).open()


def test_a_folder_that_is_no_recording_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceUnavailable, match="recording.json"):
        RecordingSource(tmp_path).open()


def test_auto_without_any_camera_says_what_to_connect_or_install() -> None:
    config = validate({"camera": {"device": "/dev/video-none"}})
    with pytest.raises(SourceUnavailable) as info:
        source_from_config(config)
    message = str(info.value)
    assert "camera module" in message and "python3-picamera2" in message and "/dev/video-none" in message


def test_picamera2_missing_says_how_to_install_it() -> None:
    pytest.importorskip("cv2")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        pass
    else:  # pragma: no cover - only on a Pi
        pytest.skip("picamera2 is installed here")
    with pytest.raises(SourceUnavailable, match="apt install python3-picamera2.*--system-site-packages"):
        PiCameraSource().open()


def test_opencv_without_the_device_says_what_to_connect() -> None:
    with pytest.raises(SourceUnavailable, match="no camera at /dev/video7: connect a USB camera"):
        OpenCVSource(7).open()


def test_source_from_config_builds_each_kind(recording: Path) -> None:
    rec = source_from_config(validate({"camera": {"source": "recording", "recording": str(recording)}}))
    assert isinstance(rec, RecordingSource) and rec.realtime
    assert isinstance(source_from_config(validate({"camera": {"source": "opencv", "device": 2}})), OpenCVSource)
    pi = source_from_config(validate({"camera": {"source": "picamera2", "analysis_width": 480}}))
    assert isinstance(pi, PiCameraSource) and pi.lores == (480, 360)


def test_lores_stream_is_sized_for_the_model_and_even() -> None:
    assert lores_size(1280, 960, 640) == (640, 480)
    assert lores_size(1920, 1080, 641) == (640, 360)
    assert all(v % 2 == 0 for v in lores_size(2304, 1296, 333))
