"""Live updates: SSE through the real waitress server and the hub's bounded queues."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from jasscam.store import EventStore
from scoring.events import parse_event
from tests.web.conftest import PIN, STOECK_ROUND, NewGame, SSEClient, game_events
from web.app import create_app
from web.camera import camera_status
from web.live import Hub
from web.server import ServerHandle, serve
from web.view import game_view


def apply_delta(view: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """What static/game.js does with a delta, in Python."""
    assert delta["from"] == view["count"]
    out = {**view, **{k: v for k, v in delta["view"].items() if k != "events"}}
    out["events"] = view["events"][: delta["events_from"]] + delta["view"]["events"]
    out["count"] = delta["count"]
    return out


def test_stream_sends_a_snapshot_then_deltas_that_rebuild_the_same_view(
    live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    events = game_events(seed=11)
    game = new_game()  # same players as game_events
    sse = SSEClient(f"{live.url}/api/games/{game}/stream")
    first = sse.next()
    assert first["event"] == "snapshot" and first["id"] == "1"
    view: dict[str, Any] = first["data"]  # type: ignore[assignment]
    voids = [{"type": "event_voided", "ref": 59}, {"type": "event_voided", "ref": 60}]  # undo, redo
    for e in [*events[1:60], *map(parse_event, voids)]:
        store.append(game, e)
        msg = sse.next()
        if msg["event"] == "delta":
            view = apply_delta(view, msg["data"])  # type: ignore[arg-type]
        else:
            assert msg["event"] == "snapshot"
            view = msg["data"]  # type: ignore[assignment]
        assert msg["id"] == str(view["count"])
    sse.close()
    assert view == game_view(game, store.events(game), store.by_hand(game), store.abandoned(game))


def test_an_event_reaches_a_connected_client_without_buffering(
    live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    sse = SSEClient(f"{live.url}/api/games/{game}/stream")
    sse.next()
    delays = []
    for e in STOECK_ROUND:
        start = time.perf_counter()
        store.append(game, parse_event(e))
        msg = sse.next()
        delays.append(time.perf_counter() - start)
        assert msg["event"] == "delta"
    sse.close()
    assert sorted(delays)[len(delays) // 2] < 0.1, delays


def test_a_client_that_cannot_keep_up_is_dropped_and_the_others_are_not(store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    hub = Hub(store, game_view, queue_size=2, heartbeat=0.2, poll=0.05)
    slow = hub.open(game)
    fast = hub.open(game)
    assert next(slow).endswith(b"\n\n") and next(fast)
    received: list[bytes] = []

    def reader() -> None:
        for chunk in fast:
            received.append(chunk)
            if b'"count":8' in chunk:
                return

    t = threading.Thread(target=reader)
    t.start()
    for e in STOECK_ROUND:
        store.append(game, parse_event(e))
        time.sleep(0.05)
    t.join(5)
    assert not t.is_alive()
    assert hub.dropped_total == 1
    rest = list(slow)  # the slow stream ends after what was queued
    assert len(rest) <= 3
    deltas = [c for c in received if c.startswith(b"id:")]
    assert len(deltas) == len(STOECK_ROUND)
    hub.stop()


def test_more_viewers_than_the_server_is_sized_for_get_503(
    store: EventStore, new_game: NewGame, tmp_path: Path
) -> None:
    game = new_game()
    app = create_app(store, pin=PIN, max_clients=2, heartbeat=1.0)
    with serve(app, "127.0.0.1", 0) as handle:
        a = SSEClient(f"{handle.url}/api/games/{game}/stream")
        b = SSEClient(f"{handle.url}/api/games/{game}/stream")
        a.next(), b.next()
        c = SSEClient(f"{handle.url}/api/games/{game}/stream")
        assert c.response.status == 503
        # the buttons still work while the live slots are full
        import http.client

        conn = http.client.HTTPConnection(handle.host, handle.port, timeout=5)
        conn.request("GET", f"/api/games/{game}")
        assert conn.getresponse().status == 200
        for s in (a, b, c):
            s.close()


def test_viewers_of_an_old_game_are_told_about_the_new_one(live: ServerHandle, new_game: NewGame) -> None:
    game = new_game()
    sse = SSEClient(f"{live.url}/api/games/{game}/stream")
    sse.next()
    newer = new_game()
    msg = sse.next()
    assert msg["event"] == "newgame" and msg["data"] == {"game": newer}
    sse.close()


def test_stop_ends_open_streams_and_frees_the_port(app: Flask, new_game: NewGame) -> None:
    game = new_game()
    handle = serve(app, "127.0.0.1", 0)
    sse = SSEClient(f"{handle.url}/api/games/{game}/stream")
    sse.next()
    start = time.monotonic()
    handle.stop()
    assert time.monotonic() - start < 5
    with pytest.raises((EOFError, OSError)):
        sse.next()
    sse.close()
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as a restarted server does
        s.bind(("127.0.0.1", handle.port))  # the port is free again


@pytest.mark.slow  # waits out the live stream's timeouts
def test_phones_are_told_when_the_camera_is_lost_and_back(store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    source = {"name": "usb", "state": "live", "error": None}
    app = create_app(store, pin=PIN, heartbeat=1.0, status=lambda: {"source": dict(source), "captured": time.time()})
    with serve(app, "127.0.0.1", 0) as handle:
        sse = SSEClient(f"{handle.url}/api/games/{game}/stream")
        assert sse.next()["event"] == "snapshot"
        first = sse.next()
        assert first["event"] == "status" and first["data"]["ok"] is True  # type: ignore[index]
        source.update(state="lost", error="camera unplugged")
        msg = sse.next()  # counters change every poll, but only a state change is sent
        assert msg["event"] == "status"
        assert msg["data"] == {"ok": False, "camera": "lost", "source": "usb", "message": "camera unplugged"}
        source.update(state="live", error=None)
        assert sse.next()["data"]["ok"] is True  # type: ignore[index]
        sse.close()


def test_phones_are_told_while_the_tables_deck_is_relearnt_and_when_it_cannot_be_used() -> None:
    live = {"source": {"name": "usb", "state": "live"}}
    quiet = {"deck": "paris", "rebuilding": None, "name": None, "progress": None, "error": None}
    assert "deck" not in camera_status(live | {"deck": quiet})  # a deck in use: nothing to say
    rebuilding = {"deck": "builtin", "rebuilding": "paris", "name": "Paris", "progress": 0.4, "error": None}
    out = camera_status(live | {"deck": rebuilding})
    assert out["ok"] is True  # the camera is fine
    assert out["deck"] == {"rebuilding": "paris", "name": "Paris", "progress": 0.4, "error": None, "reading": "builtin"}
    broken = {
        "deck": "builtin",
        "rebuilding": None,
        "name": None,
        "progress": None,
        "error": "deck 'paris' cannot be used",
    }
    assert camera_status(live | {"deck": broken})["deck"]["error"] == "deck 'paris' cannot be used"


@pytest.mark.slow  # waits out the live stream's timeouts
def test_viewers_of_a_finished_game_from_the_history_stay_there(live: ServerHandle, new_game: NewGame) -> None:
    old = new_game()
    new_game()
    sse = SSEClient(f"{live.url}/api/games/{old}/stream")
    sse.next()
    new_game()
    with pytest.raises(TimeoutError):
        sse.next(within=2.5)  # heartbeats only, no "newgame"
    sse.close()
