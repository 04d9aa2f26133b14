"""Server-Sent Events: one feed thread per watched game, one bounded queue per client.

Why this shape:

- The store already has a blocking ``wait(game_id, after, timeout)``. One feed thread per
  game waits on it, folds the new event list through the rules engine *once*, encodes
  the SSE frame *once*, and hands the same bytes to every client. Fifty phones cost one
  fold per event, not fifty.
- Each client has its own bounded ``queue.Queue``. A client that cannot keep up (its
  queue is full) is dropped: its stream ends, the browser's ``EventSource`` reconnects
  by itself and gets a fresh snapshot. Nothing a slow phone does can block the feed or
  the other phones, and memory stays bounded (``queue_size`` frames per client,
  ``max_clients`` clients, at most ``max_per_client`` of them from one address).
- Every stream starts with ``event: snapshot`` (the whole view) and continues with
  ``event: delta`` frames carrying ``id:`` = the number of events folded so far. A
  delta holds the new events and only the top-level keys of the state that changed;
  ``events_from`` says from which row the event list is replaced (new events, and
  older rows whose marks changed, as when an undo crosses one out). A delta
  is sent only to a client whose view is exactly at the delta's base (``from``),
  otherwise that client gets the full view as a snapshot instead, so a client can never
  apply a delta to the wrong base.
- ``event: status`` carries the appliance's status (camera live or lost) when it
  changes; ``event: newgame`` tells viewers of an old game that a new one started.
- Heartbeat comments every ``heartbeat`` seconds keep proxies and the WSGI server's
  idle timeout from closing a quiet stream, and let a stream notice a stopped server.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from web.store import EventStore

#: Builds the dashboard view of a game from its events (see web.view.game_view).
ViewBuilder = Callable[[int, list[Any]], dict[str, Any]]


class TooManyClients(RuntimeError):
    """More live viewers than the server is sized for; the request gets a 503."""


@dataclass
class Frame:
    """One encoded SSE message with the event counts it goes from and to.

    The full view is encoded as a snapshot only if some client needs it (one that
    missed a frame), once, and shared.
    """

    base: int
    count: int
    delta: bytes
    view: dict[str, Any] | None = None
    _snapshot: bytes | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def snapshot(self) -> bytes:
        with self._lock:
            if self._snapshot is None:
                self._snapshot = sse("snapshot", self.view or {}, self.count)
            return self._snapshot


@dataclass
class Client:
    game_id: int
    queue: queue.Queue[Frame | None]
    address: str = "?"
    dropped: threading.Event = field(default_factory=threading.Event)


def sse(event: str, data: dict[str, Any], event_id: int | None = None) -> bytes:
    """Encode one SSE message (JSON data on one line, so no multi-line framing needed)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


def _diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Top-level keys of ``new`` whose value differs from ``old`` (the delta payload)."""
    return {k: v for k, v in new.items() if old.get(k, object()) != v}


class _Feed(threading.Thread):
    """Waits on the store for one game and broadcasts every change to its clients."""

    def __init__(self, hub: Hub, game_id: int) -> None:
        super().__init__(name=f"sse-feed-{game_id}", daemon=True)
        self.hub = hub
        self.game_id = game_id
        events = hub.store.events(game_id)
        self.count = len(events)
        self.view = hub.build_view(game_id, events)
        self.current = hub.store.current_game()
        self.status = hub.read_status()

    def run(self) -> None:
        hub = self.hub
        while not hub.stopping.is_set():
            try:
                count = hub.store.wait(self.game_id, self.count, hub.poll)
            except Exception:  # store closed or gone: end every stream, browsers reconnect
                hub.drop_game(self.game_id)
                return
            if hub.stopping.is_set():
                return
            if count > self.count:
                try:
                    self._broadcast_events()
                except Exception:  # the game was deleted meanwhile: end its streams as above
                    hub.drop_game(self.game_id)
                    return
            self._check_new_game()
            self._check_status()
            if not hub.has_clients(self.game_id) and hub.retire(self):
                return

    def _broadcast_events(self) -> None:
        hub = self.hub
        events = hub.store.events(self.game_id)
        base, view = self.count, hub.build_view(self.game_id, events)
        changed = _diff(self.view, view)
        # New events, plus earlier rows whose marks changed (an undo crosses one out).
        old_rows, rows = self.view.get("events", []), view.get("events", [])
        first = next(
            (i for i, (a, b) in enumerate(zip(old_rows, rows, strict=False)) if a != b), min(len(old_rows), base)
        )
        changed["events"] = rows[first:]
        payload = {"from": base, "count": len(events), "events_from": first, "view": changed}
        delta = sse("delta", payload, len(events))
        self.count, self.view = len(events), view
        hub.broadcast(self.game_id, Frame(base, len(events), delta, view))

    def _check_status(self) -> None:
        status = self.hub.read_status()
        if status is not None and status != self.status:
            self.status = status
            data = sse("status", status)
            self.hub.broadcast(self.game_id, Frame(-1, -1, data))

    def _check_new_game(self) -> None:
        current = self.hub.store.current_game()
        if current != self.current:
            was_current, self.current = self.current == self.game_id, current
            # only viewers of the running game follow the table; someone reading an old
            # game from the history stays where they are
            if was_current and current is not None and current != self.game_id:
                data = sse("newgame", {"game": current})
                self.hub.broadcast(self.game_id, Frame(-1, -1, data))


class Hub:
    """All live clients of one app; ``stream`` is the WSGI body of one SSE response."""

    def __init__(
        self,
        store: EventStore,
        build_view: ViewBuilder,
        *,
        queue_size: int = 32,
        max_clients: int = 256,
        max_per_client: int = 8,
        heartbeat: float = 15.0,
        poll: float = 1.0,
        status: Callable[[], dict[str, Any] | None] | None = None,
    ) -> None:
        if queue_size < 1 or max_clients < 1 or max_per_client < 1:
            raise ValueError(
                "queue_size, max_clients and max_per_client must be >= 1, "
                f"got {queue_size}, {max_clients}, {max_per_client}"
            )
        self.max_per_client = max_per_client
        self.store = store
        self.build_view = build_view
        self.queue_size = queue_size
        self.max_clients = max_clients
        self.heartbeat = heartbeat
        self.poll = poll
        self.status = status
        self.stopping = threading.Event()
        self.dropped_total = 0
        self._lock = threading.Lock()
        self._clients: dict[int, list[Client]] = {}
        self._feeds: dict[int, _Feed] = {}

    # -- bookkeeping ----------------------------------------------------------------

    def read_status(self) -> dict[str, Any] | None:
        """The appliance's status (camera state), or None; a failing callback is reported, not raised."""
        if self.status is None:
            return None
        try:
            return self.status()
        except Exception as exc:
            return {"ok": False, "message": f"status unavailable: {exc}"}

    def client_count(self) -> int:
        with self._lock:
            return sum(len(c) for c in self._clients.values())

    def has_clients(self, game_id: int) -> bool:
        with self._lock:
            return bool(self._clients.get(game_id))

    def retire(self, feed: _Feed) -> bool:
        """Remove an idle feed unless a client arrived meanwhile (checked under the lock)."""
        with self._lock:
            if self._clients.get(feed.game_id):
                return False
            if self._feeds.get(feed.game_id) is feed:
                del self._feeds[feed.game_id]
            return True

    def _subscribe(self, game_id: int, address: str) -> tuple[Client, _Feed]:
        with self._lock:
            if self.stopping.is_set():
                raise TooManyClients("the server is shutting down")
            everyone = [c for clients in self._clients.values() for c in clients]
            if len(everyone) >= self.max_clients:
                raise TooManyClients(f"already {self.max_clients} live viewers; try again later")
            if sum(c.address == address for c in everyone) >= self.max_per_client:
                raise TooManyClients(f"already {self.max_per_client} live views from this address; close one")
            client = Client(game_id, queue.Queue(maxsize=self.queue_size), address)
            self._clients.setdefault(game_id, []).append(client)
            feed = self._feeds.get(game_id)
        if feed is None:
            try:
                new = _Feed(self, game_id)  # reads the store outside the hub lock
            except BaseException:
                self._unsubscribe(client)
                raise
            with self._lock:
                feed = self._feeds.get(game_id)
                if feed is None:
                    feed = self._feeds[game_id] = new
                    new.start()
        return client, feed

    def _unsubscribe(self, client: Client) -> None:
        with self._lock:
            clients = self._clients.get(client.game_id, [])
            if client in clients:
                clients.remove(client)

    def broadcast(self, game_id: int, frame: Frame) -> None:
        with self._lock:
            clients = list(self._clients.get(game_id, []))
        for client in clients:
            try:
                client.queue.put_nowait(frame)
            except queue.Full:
                self._drop(client)

    def _drop(self, client: Client) -> None:
        if not client.dropped.is_set():
            client.dropped.set()
            with self._lock:
                self.dropped_total += 1
        self._unsubscribe(client)

    def drop_game(self, game_id: int) -> None:
        with self._lock:
            clients = list(self._clients.get(game_id, []))
            self._feeds.pop(game_id, None)
        for client in clients:
            self._drop(client)
            with contextlib.suppress(queue.Full):
                client.queue.put_nowait(None)

    def stop(self) -> None:
        """End every stream (used when the server stops); new subscriptions are refused."""
        self.stopping.set()
        with self._lock:
            games = list(self._clients)
        for game_id in games:
            self.drop_game(game_id)

    # -- one stream ------------------------------------------------------------------

    def open(self, game_id: int, address: str = "?") -> Iterator[bytes]:
        """Subscribe now (so errors become HTTP errors) and return the stream body.

        Raises TooManyClients when full (or ``address`` has ``max_per_client`` streams
        already) and the store's lookup error for an unknown game.
        """
        client, _feed = self._subscribe(game_id, address)
        try:
            events = self.store.events(game_id)
            view = self.build_view(game_id, events)
        except BaseException:
            self._unsubscribe(client)
            raise
        first = sse("snapshot", view, len(events))
        status = self.read_status()
        if status is not None:
            first += sse("status", status)
        return self._stream(client, len(events), first)

    def _stream(self, client: Client, at: int, first: bytes) -> Iterator[bytes]:
        try:
            # 2 KiB of padding first: some browsers and proxies hold back the first bytes.
            yield b"retry: 1000\n:" + b" " * 2048 + b"\n\n" + first
            while not client.dropped.is_set() and not self.stopping.is_set():
                try:
                    frame = client.queue.get(timeout=self.heartbeat)
                except queue.Empty:
                    yield b": keepalive\n\n"
                    continue
                if frame is None:
                    return
                if frame.count < 0:  # a new game started at the table
                    yield frame.delta
                elif frame.base == at:
                    at = frame.count
                    yield frame.delta
                elif frame.count > at:
                    at = frame.count
                    yield frame.snapshot
        finally:
            self._unsubscribe(client)
