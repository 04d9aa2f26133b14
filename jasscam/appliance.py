"""The appliance put together: store, camera, recogniser, tracker, recorder, dashboard.

Start-up reads as a sequence (``Appliance.start``): open the store (state is rebuilt
from its events by the rules engine), open the camera, load the recogniser, start the
recorder, the pipeline and the dashboard. ``watch`` is the main loop: it pings the
systemd watchdog only while frames advance through the whole pipeline, so a hung
camera, recogniser or tracker gets the service restarted, and it keeps
``systemctl status`` current. ``stop`` ends everything in reverse order.

``jasscam run`` and ``jasscam demo`` are thin commands over this class; tests build it
with a small real detector and tracker in place of the ONNX recogniser.

Two features are wired here because only the composition root sees all parts: the
recogniser reads the table's enrolled deck (``jasscam.decks``) and the dashboard's
``/enroll`` screens get the camera's latest frame; the Speck screens get the camera's
Bodentrumpf proposal (``vision.bodentrumpf``), fed every tracked frame.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from jasscam import sdnotify
from jasscam.config import Config
from jasscam.pipeline import Pipeline, Track
from jasscam.recorder import Recorder
from jasscam.sources import FrameSource, source_from_config
from jasscam.sources.base import Frame
from jasscam.sources.resilient import ResilientSource, SourceStatus
from jasscam.store import EventStore
from jasscam.tracking import GameTracker, GatedRecognizer, Tracker
from scoring.events import Event
from vision.detection import Detection, FrameDetections
from vision.tracker.tracker import TrackerEvent
from web.hosts import lan_address

if TYPE_CHECKING:
    from jasscam.decks import DeckAwareRecognizer
    from vision.bodentrumpf import BodentrumpfWatcher
    from vision.tracker.layout import TableLayout

log = logging.getLogger(__name__)

Recognize = Callable[[np.ndarray], list[Detection]]


def stop_on_signals(stop: threading.Event, signals: Sequence[int] = (signal.SIGTERM, signal.SIGINT)) -> None:
    """Set ``stop`` when the process is asked to end (systemd's SIGTERM, Ctrl-C).

    Why not ``stop.set()`` in the handler itself: a handler runs on the main thread, which
    may at that moment be inside ``stop.wait()`` or inside a first handler's ``stop.set()``
    holding the event's lock; a second signal then (Ctrl-C twice, SIGTERM then SIGINT)
    made ``set`` wait for a lock its own thread held, and the process hung. A short-lived
    thread sets the event instead, so the handler never takes the lock.
    """

    def handler(signum: int, frame: object) -> None:
        threading.Thread(target=stop.set, name="stop-on-signal", daemon=True).start()

    for sig in signals:
        signal.signal(sig, handler)


class ApplianceError(RuntimeError):
    """The appliance cannot start as configured; the message says what to do."""


def load_recognizer(config: Config, state_dir: Path | None = None) -> DeckAwareRecognizer:
    """The ONNX recogniser as the configuration asks, reading the table's active enrolled deck.

    The deck library is ``<state_dir>/decks`` (default: the configuration's state
    directory), the folder the dashboard's ``/enroll`` writes; the built-in deck is used
    until a table selects another. A clear error when the models are missing.
    """
    from jasscam.decks import DeckAwareRecognizer, open_library
    from vision.recognizer import MODELS_DIR, Recognizer, RecognizerSettings

    models = Path(config.recognizer.models_dir).expanduser() if config.recognizer.models_dir else MODELS_DIR
    settings = RecognizerSettings(threads=config.recognizer.threads, score_threshold=config.recognizer.min_confidence)
    try:
        recognizer = Recognizer(models, settings=settings)
    except FileNotFoundError as exc:
        raise ApplianceError(
            f"the card recogniser's models are missing in {models} ({exc}); train them with `make train` "
            "or copy card-detector.onnx, card-identifier.onnx, card-refiner.onnx, card-verifier.onnx, "
            "card-corners.onnx and the prototypes there (recognizer.models_dir names another folder)"
        ) from None
    except ValueError as exc:
        raise ApplianceError(f"the card recogniser's models in {models} cannot be used: {exc}") from None
    # A profile made for older models is rebuilt in the background: start-up and the frame
    # loop must not wait for it (systemd's start timeout and watchdog would restart us).
    from vision.recognizer.scale import CardScale

    scale = CardScale(float(config.camera.card_length_px) or None)
    library = open_library(state_dir if state_dir is not None else config)
    return DeckAwareRecognizer(recognizer, library, background=True, scale=scale)


def trick_tracker_factory(
    edge_of: Callable[[int], str] | None = None,
    events_of: Callable[[int], Sequence[Event]] | None = None,
    config: Config | None = None,
) -> Callable[[int], Tracker]:
    """Trackers laid out as the game's ``game_configured`` records its seats; for a game
    that records none, seat 0 at the edge the dashboard's set-up gave it (``edge_of``);
    with the ``[tracker]`` settings of ``config``."""
    from vision.tracker import TrackerConfig, TrickTracker

    settings = TrackerConfig() if config is None else TrackerConfig(ask_below=float(config.tracker.ask_below))

    def make(game_id: int) -> Tracker:
        return TrickTracker(game_layout(game_id, edge_of, events_of), settings)

    return make


def game_layout(
    game_id: int, edge_of: Callable[[int], str] | None = None, events_of: Callable[[int], Sequence[Event]] | None = None
) -> TableLayout:
    """The table layout of game ``game_id``: from its log, else the dashboard's edge of
    seat 0, else seat 0 at the bottom."""
    from vision.tracker.layout import TableLayout, recorded_layout

    layout = recorded_layout(events_of(game_id)) if events_of is not None else None
    if layout is not None:
        return layout
    return TableLayout.from_setting(seat0=edge_of(game_id) if edge_of is not None else "bottom")


@dataclass
class Ready:
    """What ``start`` reports: where the dashboard listens and the game being played."""

    url: str | None
    lan_url: str | None
    game_id: int | None
    pin: str | None


class Appliance:
    """Every part of the running appliance; see the module docstring for the order."""

    def __init__(
        self,
        config: Config,
        *,
        source: FrameSource | None = None,
        recognize: Recognize | None = None,
        make_tracker: Callable[[int], Tracker] | None = None,
        state_dir: Path | None = None,
        dashboard: bool | None = None,
        port: int | None = None,
        on_frame: Callable[[Frame], None] | None = None,
        gate: bool = True,
    ) -> None:
        self.config = config
        self.state_dir = state_dir or config.state_dir()
        self._source = source
        self._recognize = recognize
        self._make_tracker = make_tracker
        self.dashboard = config.dashboard.enabled if dashboard is None else dashboard
        self.port = config.dashboard.port if port is None else port
        self._on_frame_hooks = [on_frame] if on_frame is not None else []
        self.gate = gate
        self.store: EventStore | None = None
        self.source: ResilientSource | None = None
        self.pipeline: Pipeline | None = None
        self.recorder: Recorder | None = None
        self.tracker: GameTracker | None = None
        self.server: Any = None
        self.app: Any = None
        self._first_frame = threading.Event()
        self._camera_state: str | None = None
        self.decks: DeckAwareRecognizer | None = None  # None when a recogniser was passed in
        self.bodentrumpf: BodentrumpfWatcher | None = None
        self._latest: np.ndarray | None = None  # the last captured image, shared, never copied
        self._awaiting: tuple[int | None, int, bool] = (None, -1, False)  # game, event count, awaiting

    # -- start-up ---------------------------------------------------------------------

    def start(self, prepare: Callable[[EventStore], None] | None = None) -> Ready:
        """Open everything and start the threads; ApplianceError/SourceUnavailable say what is missing.

        ``prepare`` runs once the store is open, before the first frame is taken (the
        demo creates its game there).
        """
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.store = EventStore(self.state_dir / "games.db")
        cam = self.config.camera
        raw_source = self._source or source_from_config(self.config)
        self._resume_recording(raw_source)
        self.source = ResilientSource(
            raw_source,
            backoff_s=cam.reopen_backoff_s,
            backoff_max_s=cam.reopen_backoff_max_s,
            read_timeout_s=cam.stall_timeout_s,
            on_state=self._on_source_state,
        )
        self.source.open()  # a missing camera is reported before the model is loaded
        from jasscam.decks import DeckAwareRecognizer
        from vision.bodentrumpf import BodentrumpfWatcher

        recognize = self._recognize or load_recognizer(self.config, self.state_dir)
        self.decks = recognize if isinstance(recognize, DeckAwareRecognizer) else None
        self.bodentrumpf = BodentrumpfWatcher()
        self._pictures_recognize = recognize  # the Verlauf's pictures read every frame afresh
        if self.gate:
            recognize = GatedRecognizer(recognize)
        if self.dashboard:
            self._start_dashboard()
        edge_of, events_of = self._edge_of(), self.store.events
        make_tracker = self._make_tracker or trick_tracker_factory(edge_of, events_of, self.config)
        self.tracker = GameTracker(
            self.store, make_tracker, layout_key=lambda game: game_layout(game, edge_of, events_of).edges
        )
        if self.config.recording.enabled:
            rec = self.config.recording
            self.recorder = Recorder(
                self.config.recordings_dir(),
                self.store,
                fps=rec.fps,
                width=rec.width,
                max_total_mb=rec.max_total_mb,
                min_free_mb=rec.min_free_mb,
                camera={"source": self.source.source.name},
            )
            self.recorder.start()
            self._on_frame_hooks.append(self.recorder.offer)
        if prepare is not None:
            prepare(self.store)
        track: Track = _Watched(self.tracker, self.on_detections)
        self.pipeline = Pipeline(
            self.source,
            recognize,
            track,
            self.store,
            queue_size=self.config.pipeline.queue_size,
            on_frame=self._on_frame,
        )
        self.pipeline.start()
        return Ready(self.url, self.lan_url, self.store.current_game(), self.pin)

    def _resume_recording(self, source: FrameSource) -> None:
        """A recording played as the camera goes on where the store's current game stood.

        Otherwise a restart would play the video from 0 and the tracker would read the
        tricks already stored into the resumed game again. The source refuses a recording
        shorter than that time (SourceUnavailable, at open).
        """
        from jasscam.sources.recording import RecordingSource, resume_time

        if not isinstance(source, RecordingSource) or not source.resume or self.store is None:
            return
        game = self.store.current_game()
        if game is not None:
            source.start_at = resume_time(self.store.events(game))
            if source.start_at > 0:
                log.info("resuming %s at %.1f s, where game %d stood", source.path, source.start_at, game)

    def _edge_of(self) -> Callable[[int], str] | None:
        table = self.app.extensions.get("jasscam_table") if self.app is not None else None
        return table.edge if table is not None else None

    def _start_dashboard(self) -> None:
        from jasscam.decks import decks_dir
        from web.app import create_app
        from web.enroll import register_enroll
        from web.server import serve
        from web.speck import register_speck

        assert self.store is not None and self.bodentrumpf is not None
        from jasscam.pictures import GamePictures, serialized
        from jasscam.sources import RecordingSource

        extra_hosts = tuple(h.strip() for h in str(self.config.dashboard.allowed_hosts).split(",") if h.strip())
        camera = self.source.source if self.source is not None else None
        pictures = GamePictures(
            self.store,
            self.config.recordings_dir() if self.config.recording.enabled else None,
            replayed=camera.path if isinstance(camera, RecordingSource) else None,
        )
        self.app = create_app(
            self.store,
            settings_path=self.state_dir / "dashboard.json",
            status=self.status,
            allowed_hosts=extra_hosts,
            frame_at=pictures,
            recognize=serialized(self._pictures_recognize),
        )
        # create_app mounts both without the camera; registering again adds it (see their docstrings).
        register_enroll(
            self.app,
            decks_dir=decks_dir(self.state_dir),
            frames=self.latest_frame,
            recognizer=self.decks.recognizer if self.decks is not None else None,
        )
        register_speck(self.app, bodentrumpf=self.bodentrumpf.proposal)
        from web.mounting import register_mounting

        decks = self.decks
        register_mounting(
            self.app,
            frames=self.latest_frame,
            scale=decks.scale if decks is not None else None,
            detections=(lambda: decks.last) if decks is not None else None,
        )
        host = self.config.dashboard.host
        try:
            self.server = serve(self.app, host, self.port)
        except OSError as exc:
            raise ApplianceError(
                f"the dashboard cannot listen on {host}:{self.port} ({exc.strerror}); "
                "set dashboard.port (or --port) to a free port"
            ) from None

    def _on_frame(self, frame: Frame) -> None:
        self._latest = frame.image
        self._first_frame.set()
        for hook in self._on_frame_hooks:
            hook(frame)

    def _on_source_state(self, status: SourceStatus) -> None:
        text = f"camera {status.state}" + (f": {status.error}" if status.error and status.state != "live" else "")
        sdnotify.status(text)

    def on_detections(self, frame: FrameDetections) -> None:
        """After the tracker, per frame: feed the Bodentrumpf watcher the frame's detections.

        Whether the game awaits its Bodentrumpf folds the game's events, so it is
        recomputed only when the store's event count (or the game) changes.
        """
        if self.bodentrumpf is None or self.store is None or self.tracker is None:
            return
        game = self.tracker.game_id
        if game is None:
            return
        count = self.store.count(game)
        if self._awaiting[:2] != (game, count):
            from vision.bodentrumpf import awaiting_bodentrumpf

            self._awaiting = (game, count, awaiting_bodentrumpf(self.store.events(game)))
        self.bodentrumpf.update(game, frame.detections, awaiting=self._awaiting[2])

    # -- what others ask --------------------------------------------------------------

    @property
    def url(self) -> str | None:
        if self.server is None:
            return None
        host = self.server.host
        if host in ("0.0.0.0", "::", ""):
            host = "localhost"
        return f"http://{host}:{self.server.port}/"

    @property
    def lan_url(self) -> str | None:
        if self.server is None or self.server.host not in ("0.0.0.0", "::", ""):
            return None
        address = lan_address()
        return f"http://{address}:{self.server.port}/" if address else None

    @property
    def pin(self) -> str | None:
        guard = self.app.extensions.get("jasscam_pins") if self.app is not None else None
        return str(guard.pin) if guard is not None else None

    def status(self) -> dict[str, Any]:
        """Pipeline counters, the camera's state and the recorder's, for the dashboard and logs."""
        out: dict[str, Any] = self.pipeline.status() if self.pipeline is not None else {}
        if self.recorder is not None:
            out["recorder"] = self.recorder.status()
        if self.store is not None:
            out["store"] = self.store.status()
        if self.tracker is not None:
            out["resumed_duplicates_dropped"] = self.tracker.dropped_duplicates
        if self.decks is not None:
            out["deck"] = self.decks.status()
            out["mounting"] = self.decks.scale.verdict()
        return out

    def latest_frame(self) -> np.ndarray | None:
        """The camera's latest BGR frame (for ``/enroll``), or None before the first one."""
        return self._latest

    def wait_first_frame(self, timeout: float) -> bool:
        return self._first_frame.wait(timeout)

    # -- main loop --------------------------------------------------------------------

    def watch(self, stop: threading.Event, *, ping: Callable[[], object] = sdnotify.watchdog_ping) -> None:
        """Until ``stop`` is set or the pipeline ends: ping the watchdog while frames advance.

        Frames count when they come out of the tracker, the last stage, so a stage that
        hangs anywhere stops the pings and systemd restarts the service.
        """
        assert self.pipeline is not None
        period = sdnotify.watchdog_period()
        interval = min(1.0, period / 4) if period else 1.0
        last = -1
        while not stop.is_set() and not self.pipeline.finished.is_set():
            tracked = self.pipeline.stats.tracked
            if tracked > last:
                ping()
                last = tracked
            stop.wait(interval)

    def stop(self) -> None:
        """Stop in reverse order of start; safe to call twice."""
        sdnotify.stopping()
        if self.pipeline is not None:
            self.pipeline.stop()
            self.pipeline.join(10.0)
        if self.recorder is not None:
            self.recorder.stop()
        if self.server is not None:
            self.server.stop()
            self.server = None
        if self.store is not None:
            self.store.close()


class _Watched:
    """The pipeline's track stage: the game tracker, then ``after`` with the same frame."""

    def __init__(self, tracker: GameTracker, after: Callable[[FrameDetections], None]) -> None:
        self.tracker = tracker
        self.after = after

    def __call__(self, frame: FrameDetections) -> list[TrackerEvent]:
        events = self.tracker(frame)
        self.after(frame)
        return events

    def finish(self, t: float | None = None) -> list[TrackerEvent]:
        return self.tracker.finish(t)


def wait_until(condition: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()
