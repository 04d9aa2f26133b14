"""``jasscam run``: the appliance at the table (camera, recogniser, tracker, store, dashboard).

Under systemd (``systemd/jasscam.service``, Type=notify) it reports READY once the store
is open, the dashboard listens and the camera has delivered a frame, pings the watchdog
while frames advance, and exits non-zero when it cannot go on, so Restart=on-failure
brings it back with the games intact (they are rebuilt from the event store).
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
from typing import Any

NAME = "run"
HELP = "run the appliance: camera, card recognition, tracking, event store and the phone dashboard"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="TOML configuration (default: $JASSCAM_CONFIG, else /etc/jasscam/jasscam.toml if present, else defaults)",
    )
    parser.add_argument("--check-config", action="store_true", help="validate the configuration, print it, and exit")
    parser.add_argument("--port", type=int, help="dashboard port (overrides dashboard.port)")
    parser.add_argument(
        "--state-dir", metavar="DIR", help="where games.db and recordings go (overrides store.state_dir)"
    )
    parser.add_argument("--no-record", action="store_true", help="do not record games (overrides recording.enabled)")


def setup_logging(level: str) -> None:
    # Under systemd, journald adds the time; on a terminal the time helps.
    fmt = (
        "%(levelname)s %(name)s: %(message)s" if _under_systemd() else "%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.basicConfig(level=getattr(logging, level.upper()), format=fmt, stream=sys.stderr)


def _under_systemd() -> bool:
    import os

    return bool(os.environ.get("INVOCATION_ID") or os.environ.get("NOTIFY_SOCKET"))


def load_config(args: argparse.Namespace) -> Any:
    from jasscam.config import ConfigError, default_path, load, validate

    path = args.config or default_path()
    config = load(path)
    overrides: dict[str, dict[str, Any]] = {}
    if getattr(args, "port", None) is not None:
        overrides.setdefault("dashboard", {})["port"] = args.port
    if getattr(args, "state_dir", None):
        overrides.setdefault("store", {})["state_dir"] = args.state_dir
    if getattr(args, "no_record", False):
        overrides.setdefault("recording", {})["enabled"] = False
    if overrides:
        merged = config.as_dict()
        for section, values in overrides.items():
            merged[section].update(values)
        try:
            config = validate(merged, config.path)
        except ConfigError as exc:
            raise ConfigError(f"command line: {exc}") from None
    return config


def run(args: argparse.Namespace) -> int:
    from jasscam import sdnotify
    from jasscam.appliance import Appliance, ApplianceError, stop_on_signals
    from jasscam.config import ConfigError
    from jasscam.sources import SourceUnavailable
    from jasscam.store import StoreDamagedError, StoreError

    try:
        config = load_config(args)
    except ConfigError as exc:
        print(f"jasscam run: {exc}", file=sys.stderr)
        return 2
    if args.check_config:
        where = config.path or "built-in defaults"
        print(f"configuration OK ({where})")
        for section, values in config.as_dict().items():
            print(f"[{section}] " + ", ".join(f"{k}={v!r}" for k, v in values.items()))
        print(f"state directory: {config.state_dir()}")
        return 0
    setup_logging(config.log.level)
    log = logging.getLogger("jasscam")
    stop = threading.Event()
    stop_on_signals(stop)
    appliance = Appliance(config)
    try:
        ready = appliance.start()
    except (ApplianceError, SourceUnavailable, StoreError) as exc:
        print(f"jasscam run: {exc}", file=sys.stderr)
        sdnotify.status(f"cannot start: {exc}")
        appliance.stop()
        return 3 if isinstance(exc, StoreDamagedError) else 1  # 3: systemd does not restart (RestartPreventExitStatus)
    try:
        waited = 0.0
        while not appliance.wait_first_frame(timeout=0.5) and not stop.is_set():
            waited += 0.5  # SIGTERM during start-up must not wait for the camera
            if waited == 60.0:
                log.warning("no frame from the camera within 60 s; still trying")
        where = ready.lan_url or ready.url
        print(f"jasscam: dashboard on {ready.url}" + (f" and {ready.lan_url}" if ready.lan_url else ""), flush=True)
        if ready.pin is not None:  # the console and the journal are where the table can read it
            print(f"jasscam: table PIN {ready.pin}", flush=True)
        sdnotify.ready(f"dashboard {where}, camera {appliance.source.state if appliance.source else '?'}")
        appliance.watch(stop)
    finally:
        appliance.stop()
    pipeline = appliance.pipeline
    if pipeline is not None and pipeline.error is not None:
        print(f"jasscam run: stopped after an error: {pipeline.error!r}", file=sys.stderr)
        return 1
    return 0
