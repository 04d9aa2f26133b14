"""The appliance's one configuration file (TOML), validated with errors that name the key.

Why hand-written and table-driven: the standard library's ``tomllib`` reads the file,
and one table (``FIELDS``) says for every key its type, default, allowed values and a
sentence for the documentation. Validation, the defaults and the reference in
docs/appliance.md all come from that table, so they cannot drift apart (a test checks
the documentation names every key).

Every key is optional: an empty file, or none at all, gives a configuration that works
out of the box (camera picked automatically, dashboard on port 8080, games recorded in
the state directory). Unknown sections and keys are errors, because a typo that is
silently ignored is a setting that silently does not apply.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final


class ConfigError(ValueError):
    """The configuration file is unreadable or a key has a bad value; the message names it."""


@dataclass(frozen=True)
class Field:
    """One key: its type, default, an optional check returning an error text, and its doc line."""

    type: type | tuple[type, ...]
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    check: Callable[[Any], str | None] | None = None


def _positive(value: Any) -> str | None:
    return None if value > 0 else "must be greater than 0"


def _non_negative(value: Any) -> str | None:
    return None if value >= 0 else "must be 0 or more"


def _between(lo: float, hi: float) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if lo <= value <= hi else f"must be between {lo} and {hi}"

    return check


def _port(value: Any) -> str | None:
    return None if 0 <= value <= 65535 else "must be a TCP port 0..65535 (0: any free port)"


SOURCES: Final[tuple[str, ...]] = ("auto", "picamera2", "opencv", "recording")

#: section -> key -> Field. The order here is the order of the documentation.
FIELDS: Final[dict[str, dict[str, Field]]] = {
    "camera": {
        "source": Field(
            str,
            "auto",
            "Where frames come from: `picamera2` (Raspberry Pi camera module), `opencv` (a USB "
            "camera), `recording` (a recorded game replayed as if live), or `auto` (the Pi camera "
            "if picamera2 is installed and a camera is connected, else OpenCV device `device`).",
            choices=SOURCES,
        ),
        "device": Field((int, str), 0, "OpenCV device: an index (`0` is /dev/video0) or a path such as `/dev/video2`."),
        "recording": Field(str, "", 'For `source = "recording"`: the recording folder to replay.'),
        "realtime": Field(
            bool, True, "For a recording: deliver frames at the recorded pace (`false`: as fast as processed)."
        ),
        "width": Field(int, 1280, "Capture width in pixels (the Pi camera's main stream).", check=_positive),
        "height": Field(int, 960, "Capture height in pixels.", check=_positive),
        "fps": Field((int, float), 10, "Frames per second asked of the camera.", check=_between(1, 60)),
        "analysis_width": Field(
            int,
            1280,
            "Width of the frames handed to the recogniser; height follows the aspect ratio. The "
            "default, the capture width, hands it the camera's full resolution: it scales the frame "
            "for its detector itself, by the card length it measured, and cuts each card for the "
            "identifier from the full frame (at the guide's mounting a card is about 90 px long at "
            "1280 x 960, and 45 px at 640). A smaller width saves CPU on a slow Pi but reads small "
            "cards worse.",
            check=_positive,
        ),
        "card_length_px": Field(
            (int, float),
            0,
            "A card's length in capture pixels, if you know it. `0`: the appliance measures it on "
            "the first sure cards and keeps it for this mounting (the set-up page shows it).",
            check=_non_negative,
        ),
        "exposure_us": Field(
            int,
            0,
            "Fixed exposure time in microseconds; `0` lets the camera settle for `settle_s` seconds "
            "and then locks exposure and white balance at what it found, so the light from a passing "
            "hand does not change the colours of the cards.",
            check=_non_negative,
        ),
        "analogue_gain": Field(
            (int, float), 0.0, "Fixed gain with `exposure_us` (`0`: locked after settling).", check=_non_negative
        ),
        "settle_s": Field((int, float), 2.0, "Seconds of automatic exposure before it is locked.", check=_non_negative),
        "reopen_backoff_s": Field(
            (int, float), 0.5, "First wait before reopening a camera that stopped delivering.", check=_positive
        ),
        "reopen_backoff_max_s": Field(
            (int, float), 10.0, "Longest wait between reopen attempts (the wait doubles up to this).", check=_positive
        ),
        "stall_timeout_s": Field(
            (int, float),
            3.0,
            "A camera that delivers no frame for this long is declared lost and reopened.",
            check=_positive,
        ),
    },
    "recognizer": {
        "models_dir": Field(
            str,
            "",
            "Folder with the recogniser's ONNX models (card-detector.onnx, card-identifier.onnx, "
            "optionally card-refiner.onnx, card-verifier.onnx and card-corners.onnx) and card prototypes; "
            "empty: the `models/` folder of the installed jasscam.",
        ),
        "min_confidence": Field(
            (int, float),
            0.5,
            "Card detections scored below this are ignored (the detector's score, or with the verifier the "
            "geometric mean of its and the verifier's; 0.5: the threshold models/README.md measured).",
            check=_between(0.0, 1.0),
        ),
        "threads": Field(
            int,
            2,
            "onnxruntime threads for the recogniser (the Pi 5 has 4 cores; capture and tracking use the others).",
            check=_positive,
        ),
    },
    "tracker": {
        "ask_below": Field(
            (int, float),
            0.75,
            "A card the camera reads less surely than this is shown on the phones with the cards it "
            "may also be, for the table to confirm with one tap (`0`: never ask, `1`: ask for every card).",
            check=_between(0.0, 1.0),
        ),
    },
    "pipeline": {
        "queue_size": Field(
            int, 2, "Frames waiting between two stages; when full the oldest is dropped (and counted).", check=_positive
        ),
    },
    "dashboard": {
        "enabled": Field(bool, True, "Serve the phone dashboard."),
        "host": Field(str, "0.0.0.0", "Address to listen on (`0.0.0.0`: every network interface)."),
        "port": Field(int, 8080, "TCP port of the dashboard.", check=_port),
        "allowed_hosts": Field(
            str,
            "",
            "Host names phones may use in the dashboard's URL besides its IP addresses, `localhost` and "
            "this machine's name (and `<name>.local`, `<name>.home.arpa`, `<name>.internal`), comma-separated, "
            "e.g. the router's `jasscam.fritz.box`; any other name is refused "
            "(DNS rebinding, see «Shared Wi-Fi: threat model» above).",
        ),
    },
    "recording": {
        "enabled": Field(bool, True, "Record every game (video, metadata, events) for replay and re-scoring."),
        "directory": Field(str, "", "Where recordings go; empty: `recordings/` in the state directory."),
        "width": Field(
            int,
            1280,
            "Width of the recorded video (frames are scaled down to it). 1280 keeps what the "
            "recogniser read live, so a replay reads each card again as it did.",
            check=_positive,
        ),
        "fps": Field((int, float), 5, "Frames per second kept in the recording.", check=_between(0.5, 30)),
        "max_total_mb": Field(
            int,
            4000,
            "Disk budget for all recordings; the oldest finished ones are deleted beyond it.",
            check=_positive,
        ),
        "min_free_mb": Field(
            int,
            500,
            "Recording pauses (with a warning) when the disk has less free space than this.",
            check=_non_negative,
        ),
    },
    "store": {
        "state_dir": Field(
            str,
            "",
            "Directory for the game database and recordings; empty: `$STATE_DIRECTORY` (set by "
            "systemd's StateDirectory=) or else `~/.local/share/jasscam`.",
        ),
    },
    "log": {
        "level": Field(str, "info", "Log level.", choices=("debug", "info", "warning", "error")),
    },
}


class Section:
    """Attribute access to one validated section (``config.camera.fps``)."""

    def __init__(self, name: str, values: Mapping[str, Any]) -> None:
        self._name = name
        self._values = dict(values)

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(f"configuration has no key {self._name}.{key}") from None

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def __repr__(self) -> str:
        return f"Section({self._name!r}, {self._values!r})"


class Config:
    """A validated configuration: one ``Section`` per table of ``FIELDS``."""

    def __init__(self, values: Mapping[str, Mapping[str, Any]], path: Path | None = None) -> None:
        self.path = path
        self.sections = {name: Section(name, values[name]) for name in FIELDS}

    @property
    def camera(self) -> Section:
        return self.sections["camera"]

    @property
    def recognizer(self) -> Section:
        return self.sections["recognizer"]

    @property
    def tracker(self) -> Section:
        return self.sections["tracker"]

    @property
    def pipeline(self) -> Section:
        return self.sections["pipeline"]

    @property
    def dashboard(self) -> Section:
        return self.sections["dashboard"]

    @property
    def recording(self) -> Section:
        return self.sections["recording"]

    @property
    def store(self) -> Section:
        return self.sections["store"]

    @property
    def log(self) -> Section:
        return self.sections["log"]

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {name: section.as_dict() for name, section in self.sections.items()}

    def state_dir(self) -> Path:
        """Where the database and recordings live (created on demand by their users)."""
        if self.store.state_dir:
            return Path(self.store.state_dir).expanduser()
        systemd_dir = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
        if systemd_dir:
            return Path(systemd_dir)
        return Path.home() / ".local" / "share" / "jasscam"

    def database_path(self) -> Path:
        return self.state_dir() / "games.db"

    def recordings_dir(self) -> Path:
        if self.recording.directory:
            return Path(self.recording.directory).expanduser()
        return self.state_dir() / "recordings"


def _type_name(t: type | tuple[type, ...]) -> str:
    names = {int: "a whole number", float: "a number", str: "a string", bool: "true or false"}
    if isinstance(t, tuple):
        if set(t) == {int, float}:
            return "a number"
        return " or ".join(names.get(x, x.__name__) for x in t)
    return names.get(t, t.__name__)


def _check_value(key: str, spec: Field, value: Any) -> Any:
    # bool is an int in Python; TOML keeps them apart and so do we.
    allowed = spec.type if isinstance(spec.type, tuple) else (spec.type,)
    if isinstance(value, bool) and bool not in allowed:
        raise ConfigError(f"{key} must be {_type_name(spec.type)}, got {value!r}")
    if not isinstance(value, allowed):
        raise ConfigError(f"{key} must be {_type_name(spec.type)}, got {value!r}")
    if spec.choices is not None and value not in spec.choices:
        raise ConfigError(f"{key} must be one of {', '.join(map(str, spec.choices))}, got {value!r}")
    if spec.check is not None:
        problem = spec.check(value)
        if problem:
            raise ConfigError(f"{key} {problem}, got {value!r}")
    return value


def validate(data: Mapping[str, Any], path: Path | None = None) -> Config:
    """Check a parsed TOML document against ``FIELDS``; fill in defaults."""
    where = f"{path}: " if path else ""
    unknown_sections = sorted(set(data) - set(FIELDS))
    if unknown_sections:
        raise ConfigError(f"{where}unknown section [{unknown_sections[0]}]; known sections: {', '.join(FIELDS)}")
    values: dict[str, dict[str, Any]] = {}
    for name, fields in FIELDS.items():
        given = data.get(name, {})
        if not isinstance(given, dict):
            raise ConfigError(f"{where}[{name}] must be a table of keys, got {given!r}")
        unknown = sorted(set(given) - set(fields))
        if unknown:
            raise ConfigError(f"{where}unknown key {name}.{unknown[0]}; known keys in [{name}]: {', '.join(fields)}")
        section = {}
        for key, spec in fields.items():
            value = given.get(key, spec.default)
            try:
                section[key] = _check_value(f"{name}.{key}", spec, value) if key in given else value
            except ConfigError as exc:
                raise ConfigError(f"{where}{exc}") from None
        values[name] = section
    _verify_cross_fields(values, where)
    return Config(values, path)


def _verify_cross_fields(values: dict[str, dict[str, Any]], where: str) -> None:
    """Checks that involve more than one key, each with its own message."""
    camera = values["camera"]
    if camera["source"] == "recording" and not camera["recording"]:
        raise ConfigError(f'{where}camera.recording must name a recording folder when camera.source = "recording"')
    if camera["reopen_backoff_s"] > camera["reopen_backoff_max_s"]:
        raise ConfigError(f"{where}camera.reopen_backoff_s must not exceed camera.reopen_backoff_max_s")
    if camera["analysis_width"] > camera["width"]:
        raise ConfigError(f"{where}camera.analysis_width must not exceed camera.width")


def load(path: str | os.PathLike[str] | None = None) -> Config:
    """Read and validate ``path``; ``None`` gives the defaults. A missing file named explicitly is an error."""
    if path is None:
        return validate({})
    file = Path(path)
    try:
        with file.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"configuration file {file} does not exist") from None
    except OSError as exc:
        raise ConfigError(f"cannot read configuration file {file}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file} is not valid TOML: {exc}") from None
    return validate(data, file)


def default_path() -> Path | None:
    """``$JASSCAM_CONFIG``, else /etc/jasscam/jasscam.toml if it exists, else None (defaults)."""
    env = os.environ.get("JASSCAM_CONFIG")
    if env:
        return Path(env)
    etc = Path("/etc/jasscam/jasscam.toml")
    return etc if etc.exists() else None


def reference_markdown() -> str:
    """The configuration reference as a Markdown table (pasted into docs/appliance.md)."""
    lines = ["| Key | Default | Meaning |", "| --- | --- | --- |"]
    for section, fields in FIELDS.items():
        for key, spec in fields.items():
            default = _toml_literal(spec.default)
            extra = f" One of: {', '.join(f'`{c}`' for c in spec.choices)}." if spec.choices else ""
            lines.append(f"| `{section}.{key}` | `{default}` | {spec.doc}{extra} |")
    return "\n".join(lines)


def _toml_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)
