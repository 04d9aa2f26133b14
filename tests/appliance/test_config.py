"""Configuration: defaults work, every bad value is named, unknown keys are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from jasscam.config import FIELDS, ConfigError, load, reference_markdown, validate

REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "jasscam.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_file_gives_working_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    config = load(None)
    assert config.camera.source == "auto"
    assert config.dashboard.port == 8080
    assert config.recording.enabled is True
    assert config.database_path().name == "games.db"


def test_values_from_the_file_override_defaults(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[camera]\nsource = "opencv"\ndevice = "/dev/video2"\nfps = 7.5\n'
        f'[store]\nstate_dir = "{tmp_path}"\n[dashboard]\nport = 9000\n',
    )
    config = load(path)
    assert (config.camera.source, config.camera.device, config.camera.fps) == ("opencv", "/dev/video2", 7.5)
    assert config.dashboard.port == 9000
    assert config.database_path() == tmp_path / "games.db"
    assert config.recordings_dir() == tmp_path / "recordings"


def test_systemd_state_directory_is_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert load(None).state_dir() == tmp_path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[camera]\nfsp = 10\n", "unknown key camera.fsp"),
        ("[kamera]\nfps = 10\n", "unknown section [kamera]"),
        ('[camera]\nsource = "webcam"\n', "camera.source must be one of auto, picamera2, opencv, recording"),
        ('[camera]\nfps = "ten"\n', "camera.fps must be a number"),
        ("[camera]\nfps = 0\n", "camera.fps must be between 1 and 60"),
        ("[camera]\nwidth = true\n", "camera.width must be a whole number"),
        ("[dashboard]\nport = 70000\n", "dashboard.port must be a TCP port"),
        ("[recognizer]\nmin_confidence = 1.5\n", "recognizer.min_confidence must be between 0.0 and 1.0"),
        ("[tracker]\nask_below = -0.1\n", "tracker.ask_below must be between 0.0 and 1.0"),
        ('[camera]\nsource = "recording"\n', "camera.recording must name a recording folder"),
        ("[camera]\nreopen_backoff_s = 20\n", "camera.reopen_backoff_s must not exceed"),
        ("camera = 3\n", "[camera] must be a table"),
        ("[camera\n", "is not valid TOML"),
    ],
)
def test_bad_values_are_named_in_the_error(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load(write(tmp_path, text))
    assert message in str(info.value)
    assert str(tmp_path / "jasscam.toml") in str(info.value)


def test_a_missing_file_that_was_named_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load(tmp_path / "nope.toml")


def test_every_default_passes_its_own_checks() -> None:
    explicit = {section: {key: spec.default for key, spec in fields.items()} for section, fields in FIELDS.items()}
    assert validate(explicit).as_dict() == validate({}).as_dict()


def test_documentation_names_every_key() -> None:
    doc = (REPO / "docs" / "appliance.md").read_text(encoding="utf-8")
    missing = [f"{s}.{k}" for s, fields in FIELDS.items() for k in fields if f"`{s}.{k}`" not in doc]
    assert not missing, f"docs/appliance.md lacks {missing}; paste jasscam.config.reference_markdown()"
    assert reference_markdown() in doc


def test_the_trackers_ask_below_setting_reaches_the_appliances_trackers(tmp_path: Path) -> None:
    from jasscam.appliance import trick_tracker_factory
    from vision.tracker import TrickTracker

    config = load(write(tmp_path, "[tracker]\nask_below = 0.9\n"))
    tracker = trick_tracker_factory(config=config)(1)
    assert isinstance(tracker, TrickTracker) and tracker.config.ask_below == 0.9
    default = trick_tracker_factory(config=load(None))(1)
    assert isinstance(default, TrickTracker) and default.config.ask_below == 0.75
