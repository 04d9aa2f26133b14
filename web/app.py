"""The phone dashboard: a Flask app over the event store, one blueprint per resource.

Pages are thin HTML shells (web.pages); the phones' scripts render them from the game view
(web.view) that they get as an SSE snapshot and keep current with deltas (web.events,
web.live). Every write is one event, checked by the rules engine inside ``store.append``:
a refused event leaves nothing behind and the request gets a 400 with the engine's message
(web.errors, web.common).

Writes need the table PIN (header ``X-Table-Pin``) once per phone, which then holds a
session cookie; reading never does. The PIN is never shown on a page (see web.auth for
how the table learns it and how guessing is slowed down). Requests naming a host that is
not the appliance's are refused (DNS rebinding), and so are writes from another origin
(web.hooks).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from flask import Flask

from web import camera, events, exports, games, hooks, pages, setup, signin
from web.auth import PinGuard
from web.camera import camera_status
from web.enroll import register_enroll
from web.errors import answer_errors_as_json
from web.hosts import HostCheck
from web.live import Hub
from web.rounds import register_rounds
from web.settings import SettingsFile, TableSettings
from web.speck import register_speck
from web.stats import register_stats
from web.store import EventStore
from web.trickshot import FrameAt, Pictures, Seen

#: The dashboard's own blueprints, in the order their routes are tried.
BLUEPRINTS = tuple(module.blueprint for module in (pages, setup, games, events, exports, signin, camera))


def create_app(
    store: EventStore,
    *,
    pin: str | None = None,
    settings_path: str | Path | None = None,
    public_url: str | None = None,
    max_clients: int = 256,
    max_per_client: int = 8,
    queue_size: int = 32,
    heartbeat: float = 15.0,
    status: Callable[[], Mapping[str, Any]] | None = None,
    allowed_hosts: tuple[str, ...] = (),
    frame_at: FrameAt | None = None,
    recognize: Callable[[Any], Sequence[Seen]] | None = None,
) -> Flask:
    """The dashboard app over ``store``.

    ``pin``: the table PIN (else the one saved in ``settings_path``, else a random one
    that the appliance prints on its console, and the first set-up may choose another;
    see web.auth). ``allowed_hosts``: names besides the machine's own and IP addresses
    that phones may use in the URL (web.hosts). ``public_url``: the address phones should
    open (for the QR code); default: the address the start page was requested at.
    ``status``: the appliance's status (``Pipeline.status()``: ``{"source": {"name",
    "state", "error"}}``), polled once a second; phones see a banner while the camera is
    not live. ``frame_at(game, position)``: the recorded frame at that event's time, and
    ``recognize(frame)``: the recogniser, for the Verlauf's pictures (web.camera).
    """
    app = Flask(__name__)
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = 3600  # card pictures, CSS, JS: phones revalidate hourly
    app.config["JSON_AS_ASCII"] = False
    app.config["JASSCAM_PUBLIC_URL"] = public_url
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    settings = SettingsFile(Path(settings_path) if settings_path is not None else None)
    hub = Hub(
        store,
        functools.partial(events.view_of, store),
        queue_size=queue_size,
        max_clients=max_clients,
        max_per_client=max_per_client,
        heartbeat=heartbeat,
        status=(lambda: camera_status(status())) if status is not None else None,
    )
    app.extensions.update(
        jasscam_store=store,
        jasscam_pins=PinGuard(pin, settings),
        jasscam_table=TableSettings(settings),
        jasscam_hub=hub,
        jasscam_write_lock=threading.Lock(),  # every write of every blueprint checks and appends under it
        jasscam_pictures=Pictures(frame_at, recognize),
    )
    hooks.install(app, HostCheck(public_url, allowed_hosts))
    answer_errors_as_json(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    register_stats(app)  # statistics, known players and the history exports
    register_rounds(app)  # Coiffeur rows, Differenzler forecasts, rounds entered by hand
    register_speck(app)  # Speck Jass tournament screens at /speck
    register_enroll(app)  # deck enrolment and the active deck's card pictures at /enroll
    return app
