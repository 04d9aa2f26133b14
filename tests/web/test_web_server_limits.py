"""One client cannot stop the dashboard: half-sent requests, streams from one address, refused streams."""

from __future__ import annotations

import http.client
import socket

from jasscam.store import EventStore
from tests.web.conftest import PIN, NewGame, SSEClient
from web.app import create_app
from web.live import Hub, TooManyClients
from web.server import serve
from web.view import game_view


def test_half_sent_requests_do_not_freeze_the_phones(store: EventStore, new_game: NewGame) -> None:
    """The issue's probe: 137 half-sent requests (slowloris) froze every phone."""
    game = new_game()
    app = create_app(store, pin=PIN, heartbeat=1.0)
    with serve(app, "127.0.0.1", 0) as handle:
        held = []
        try:
            for _ in range(500):  # the benchmark's count; the old limit was 136 sockets
                sock = socket.create_connection((handle.host, handle.port), timeout=5)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # never finished
                held.append(sock)
            conn = http.client.HTTPConnection(handle.host, handle.port, timeout=5)
            conn.request("GET", f"/api/games/{game}")
            assert conn.getresponse().status == 200
            conn.close()
        finally:
            for sock in held:
                sock.close()


def test_one_address_cannot_take_every_live_stream(store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    hub = Hub(store, game_view, max_clients=20, max_per_client=3, heartbeat=1.0)
    streams = [hub.open(game, "10.0.0.66") for _ in range(3)]
    try:
        try:
            hub.open(game, "10.0.0.66")
        except TooManyClients as exc:
            assert "this address" in str(exc)
        else:
            raise AssertionError("a fourth stream from one address was accepted")
        streams.append(hub.open(game, "10.0.0.5"))  # the table's phone still gets its stream
        assert hub.client_count() == 4
    finally:
        for body in streams:
            body.close()  # type: ignore[attr-defined]
        hub.stop()


def test_refused_viewers_holding_their_sockets_do_not_stop_the_page(store: EventStore, new_game: NewGame) -> None:
    """The issue's probe: 136 refused viewers kept their sockets and GET / timed out."""
    game = new_game()
    app = create_app(store, pin=PIN, max_clients=2, heartbeat=1.0)
    with serve(app, "127.0.0.1", 0) as handle:
        viewers = [SSEClient(f"{handle.url}/api/games/{game}/stream") for _ in range(2)]
        refused = [SSEClient(f"{handle.url}/api/games/{game}/stream") for _ in range(150)]
        try:
            assert {r.response.status for r in refused} == {503}
            for r in refused:
                r.response.read()  # answered; the connection stays open (keep-alive)
            conn = http.client.HTTPConnection(handle.host, handle.port, timeout=5)
            conn.request("GET", "/")
            assert conn.getresponse().status == 200
            conn.close()
        finally:
            for sse in viewers + refused:
                sse.close()
