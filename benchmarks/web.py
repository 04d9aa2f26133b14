"""Dashboard benchmark: event-to-phone latency and 50 phones at once, on loopback.

1. Latency: one SSE client on the real waitress server over the real SQLite store
   (WAL, fsync per event). For each of the events of a simulated game, the time from
   calling ``store.append`` to the client having read the frame with that event's id.
   Target: median <= 100 ms.
2. Fan-out: 50 SSE clients connected at once while a whole game is appended; every
   client must end with exactly the view the server would build from the store
   (rebuilt from its snapshot and deltas), with no event lost and none dropped. A frame
   may carry several events when they arrive while the feed is folding; an event's
   latency is then the arrival of the first frame that contains it.

Everything is bounded: one game of events, socket timeouts of 10 s, loopback only.
Run: ``.venv/bin/python -m benchmarks.web`` (or through ``python -m benchmarks``).
"""

from __future__ import annotations

import http.client
import json
import random
import resource
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jasscam.store import EventStore
    from scoring.events import Event
    from web.server import ServerHandle

LATENCY_TARGET_MS = 100.0
CLIENTS = 50


class _Reader(threading.Thread):
    """Reads one SSE stream, rebuilds the view, and timestamps each id it sees."""

    def __init__(self, host: str, port: int, game: int, stop_at: int) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection(host, port, timeout=10)
        self.conn.request("GET", f"/api/games/{game}/stream")
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            raise RuntimeError(f"stream refused: {self.response.status}")
        self.stop_at = stop_at
        self.seen: dict[int, float] = {}
        self.view: dict[str, Any] | None = None
        self.error: str | None = None
        self.ready = threading.Event()

    def run(self) -> None:
        buffer = b""
        try:
            while True:
                while b"\n\n" not in buffer:
                    chunk = self.response.read1(65536)
                    if not chunk:
                        raise EOFError("stream ended early")
                    buffer += chunk
                raw, buffer = buffer.split(b"\n\n", 1)
                now = time.perf_counter()
                fields = dict(line.split(": ", 1) for line in raw.decode().split("\n") if ": " in line)
                if "data" not in fields:
                    continue
                data = json.loads(fields["data"])
                if fields.get("event") == "snapshot":
                    self.view = data
                    self.ready.set()
                elif fields.get("event") == "delta":
                    assert self.view is not None and data["from"] == self.view["count"], "delta on a wrong base"
                    rows = self.view["events"][: data["events_from"]] + data["view"]["events"]
                    self.view.update({k: v for k, v in data["view"].items() if k != "events"})
                    self.view["events"], self.view["count"] = rows, data["count"]
                if "id" in fields:
                    self.seen[int(fields["id"])] = now
                    if int(fields["id"]) >= self.stop_at:
                        return
        except Exception as exc:  # reported, not raised: the benchmark counts failures
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.ready.set()
            self.conn.close()


def _arrival(seen: dict[int, float], count: int) -> float | None:
    """When the client first had event ``count``: a frame may carry several events
    (the feed folds whatever arrived while it was busy), so the first id >= count."""
    times = [t for i, t in seen.items() if i >= count]
    return min(times) if times else None


def _setup(tmp: Path, max_clients: int) -> tuple[EventStore, int, list[Event], ServerHandle]:
    from jasscam.store import EventStore
    from scoring.simulate import random_game_events
    from web.app import create_app
    from web.server import serve

    events = random_game_events(random.Random(3))
    store = EventStore(tmp / "bench.sqlite")
    game = store.new_game(events[0])  # type: ignore[arg-type]
    app = create_app(store, pin="471108", max_clients=max_clients)
    handle = serve(app, "127.0.0.1", 0)
    return store, game, events, handle


def bench_latency() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store, game, events, handle = _setup(Path(tmp), 8)
        try:
            reader = _Reader(handle.host, handle.port, game, len(events))
            reader.start()
            reader.ready.wait(10)
            sent: dict[int, float] = {}
            append_ms = []
            for event in events[1:]:
                t0 = time.perf_counter()
                position = store.append(game, event)
                append_ms.append((time.perf_counter() - t0) * 1000)
                sent[position + 1] = t0
                deadline = time.monotonic() + 10
                while position + 1 not in reader.seen and time.monotonic() < deadline and reader.is_alive():
                    time.sleep(0.0005)
            reader.join(10)
            arrivals = {i: _arrival(reader.seen, i) for i in sent}
            lat = [(a - sent[i]) * 1000 for i, a in arrivals.items() if a is not None]
            return {
                "events": len(sent),
                "received": len(lat),
                "median_ms": round(statistics.median(lat), 2),
                "p95_ms": round(sorted(lat)[int(len(lat) * 0.95) - 1], 2),
                "max_ms": round(max(lat), 2),
                "append_median_ms": round(statistics.median(append_ms), 2),
                "error": reader.error,
            }
        finally:
            handle.stop()
            store.close()


def bench_fanout(clients: int = CLIENTS) -> dict[str, Any]:
    from web.view import game_view

    with tempfile.TemporaryDirectory() as tmp:
        store, game, events, handle = _setup(Path(tmp), clients + 4)
        try:
            readers = [_Reader(handle.host, handle.port, game, len(events)) for _ in range(clients)]
            for r in readers:
                r.start()
            for r in readers:
                r.ready.wait(10)
            start = time.perf_counter()
            sent: dict[int, float] = {}
            for event in events[1:]:
                t0 = time.perf_counter()
                position = store.append(game, event)
                sent[position + 1] = t0
                time.sleep(0.01)  # a fast table: 100 events a second
            for r in readers:
                r.join(20)
            elapsed = time.perf_counter() - start
            final = game_view(game, store.events(game))
            complete = sum(1 for r in readers if r.view == final and not r.error)
            lat = []
            for r in readers:
                for i, t in sent.items():
                    a = _arrival(r.seen, i)
                    if a is not None:
                        lat.append((a - t) * 1000)
            hub = handle.app.extensions["jasscam_hub"]
            return {
                "clients": clients,
                "events": len(sent),
                "clients_with_exact_final_view": complete,
                "events_received": len(lat),
                "events_expected": clients * len(sent),
                "frames_received": sum(len(r.seen) for r in readers),
                "dropped_clients": hub.dropped_total,
                "errors": [r.error for r in readers if r.error][:3],
                "median_ms": round(statistics.median(lat), 2) if lat else None,
                "p95_ms": round(sorted(lat)[int(len(lat) * 0.95) - 1], 2) if lat else None,
                "seconds": round(elapsed, 2),
                "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            }
        finally:
            handle.stop()
            store.close()


def main() -> int:
    """Run both measurements, print them, return 0 if the targets hold."""
    latency = bench_latency()
    print(f"web latency (append -> SSE client): {json.dumps(latency)}")
    fanout = bench_fanout()
    print(f"web fan-out ({CLIENTS} clients): {json.dumps(fanout)}")
    ok = (
        latency["received"] == latency["events"]
        and latency["median_ms"] <= LATENCY_TARGET_MS
        and fanout["clients_with_exact_final_view"] == CLIENTS
        and fanout["events_received"] == fanout["events_expected"]
        and fanout["dropped_clients"] == 0
    )
    print(
        f"web: {'OK' if ok else 'TARGET MISSED'} (median <= {LATENCY_TARGET_MS:.0f} ms, {CLIENTS} clients lose nothing)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
