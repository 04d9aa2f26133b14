"""``jasscam demo``: the bundled recorded game, replayed as if live, with the dashboard.

The recording's video goes through the same appliance as at the table (camera source
replaced by the recording, in real time), so the dashboard shows the game unfold. What
the players would enter on their phones (the contract, Weis, Stöck) is entered from the
recording at its time (``TableScript``). At the end it prints the tricks and the score
sheet the camera produced, and whether the score equals the recorded game's.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from dataclasses import replace
from pathlib import Path

NAME = "demo"
HELP = "replay the bundled recorded game in real time with the phone dashboard live; print the score sheet"

BUNDLED = Path(__file__).resolve().parents[1] / "data" / "demo-recording"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--recording", metavar="DIR", default=str(BUNDLED), help="recording folder (default: the bundled game)"
    )
    parser.add_argument("--port", type=int, default=8080, help="dashboard port (default 8080; 0: any free port)")
    parser.add_argument("--host", default="0.0.0.0", help="dashboard address (default 0.0.0.0: every interface)")
    parser.add_argument("--fast", action="store_true", help="replay as fast as possible instead of in real time")
    parser.add_argument("--stay", action="store_true", help="keep the dashboard running after the game until Ctrl-C")
    parser.add_argument(
        "--no-dashboard", action="store_true", help="no dashboard: just replay and print the score sheet"
    )
    parser.add_argument(
        "--state-dir", metavar="DIR", help="keep the demo's games.db here (default: a temporary folder)"
    )
    parser.add_argument("--threads", type=int, default=2, help="onnxruntime threads for the recogniser (default 2)")
    parser.add_argument(
        "--models", metavar="DIR", default="", help="folder with the recogniser's models (default: models/)"
    )


def run(args: argparse.Namespace) -> int:
    from jasscam.appliance import Appliance, ApplianceError, stop_on_signals
    from jasscam.config import ConfigError, validate
    from jasscam.replay import format_sheet, format_tricks
    from jasscam.sources import RecordingSource, SourceUnavailable
    from jasscam.store import EventStore
    from jasscam.table_script import TableScript
    from scoring.events import GameConfigured
    from scoring.game import fold
    from vision.recording import Recording, RecordingError

    try:
        recording = Recording.open(args.recording)
    except RecordingError as exc:
        print(f"jasscam demo: {exc}", file=sys.stderr)
        return 2
    configured = next((e for e in recording.events if isinstance(e, GameConfigured)), GameConfigured())
    # The game at the demo table is laid out as the recorded one was: the tracker reads the
    # camera's evidence against the seats' edges from the game's log.
    configured = replace(configured, seat_edges=recording.seat_edges)
    try:
        config = validate(
            {
                "dashboard": {"host": args.host, "port": args.port, "enabled": not args.no_dashboard},
                "recording": {"enabled": False},
                "recognizer": {"threads": args.threads, "models_dir": args.models},
                "camera": {"analysis_width": max(recording.width, 2), "width": max(recording.width, 2)},
            }
        )
    except ConfigError as exc:
        print(f"jasscam demo: {exc}", file=sys.stderr)
        return 2
    temp = None if args.state_dir else tempfile.TemporaryDirectory(prefix="jasscam-demo-")
    state_dir = Path(args.state_dir) if args.state_dir else Path(temp.name)  # type: ignore[union-attr]
    source = RecordingSource(recording.path, realtime=not args.fast)
    script: list[TableScript] = []

    def prepare(store: EventStore) -> None:
        game = store.new_game(configured)
        script.append(TableScript(store, game, recording.events))

    appliance = Appliance(
        config,
        source=source,
        state_dir=state_dir,
        on_frame=lambda frame: script[0].on_frame(frame) if script else None,
    )
    stop = threading.Event()
    stop_on_signals(stop)
    try:
        try:
            ready = appliance.start(prepare)
        except (ApplianceError, SourceUnavailable) as exc:
            print(f"jasscam demo: {exc}", file=sys.stderr)
            return 1
        pace = "as fast as possible" if args.fast else "in real time"
        print(f"Replaying {recording.path.name} ({recording.duration:.0f} s of play) {pace}.")
        if ready.url:
            print(
                f"Dashboard: {ready.url}"
                + (f"  (from a phone on this network: {ready.lan_url})" if ready.lan_url else "")
            )
            print(f"Table PIN: {ready.pin}   Ctrl-C stops.", flush=True)
        appliance.watch(stop, ping=lambda: None)
        assert appliance.store is not None and appliance.pipeline is not None
        if appliance.pipeline.error is not None:
            print(f"jasscam demo: the replay failed: {appliance.pipeline.error}", file=sys.stderr)
            return 1
        game = appliance.store.current_game()
        events = appliance.store.events(game) if game is not None else []
        state = fold(events)
        truth = fold(recording.events)
        print()
        print(format_tricks(state))
        print()
        print(format_sheet(state))
        print()
        recorded = f"{truth.totals[0].total} : {truth.totals[1].total}"
        if stop.is_set() and not appliance.pipeline.finished.is_set():
            # Stopped by the user: a comparison with the whole game's score would only mislead.
            print(f"Stopped before the end of the recording; the recorded game's score is {recorded}.")
        else:
            same = state.totals == truth.totals
            print(f"The camera's score {'equals' if same else 'differs from'} the recorded game's ({recorded}).")
        if args.stay and ready.url and not stop.is_set():
            print(f"The dashboard stays on {ready.url} until Ctrl-C.", flush=True)
            stop.wait()
        return 0
    finally:
        appliance.stop()
        if temp is not None:
            temp.cleanup()
