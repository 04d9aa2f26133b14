"""Serve the dashboard with waitress in a background thread, next to the camera pipeline.

Why waitress, and how it is set up for Server-Sent Events:

- It is a pure-Python production WSGI server with no monkey patching (gevent/eventlet
  would patch the threads that run OpenCV and onnxruntime next to it).
- It does not buffer a streamed response: since waitress 3 ``send_bytes`` defaults to 1,
  so every chunk the app yields is flushed to the socket at once (HTTP/1.1 chunked
  encoding). ``tests/web/test_server.py`` pins this by reading a stream over a raw
  socket and timing an event through it.
- It runs every request on a fixed pool of worker threads and an SSE stream holds its
  thread for as long as the phone watches. The pool is therefore sized to the hub's
  ``max_clients`` (256: a tournament room of phones) plus ``spare_threads`` for
  ordinary requests, and the hub refuses stream number ``max_clients + 1``, and an
  address's stream number ``max_per_client + 1``, with a 503, so live viewers can
  never starve the buttons and one client cannot take every stream. A thread blocked
  on its hub queue costs a stack, not CPU.
- Requests are read by waitress's event loop, not by the worker threads, so half-sent
  requests (slowloris) hold sockets only. They count against ``connection_limit``,
  which is therefore far above what the table needs (1024 beyond the threads, with the
  process's open-file limit raised to match), and waitress closes a connection idle for
  ``channel_timeout`` (20 s, checked every ``cleanup_interval``, 5 s). Streams are never
  idle: the heartbeat (web.live) writes every 15 s and waitress does not time out a
  connection with a request in progress.
- waitress would buffer up to 16 MiB for a phone that stopped reading; the high-water
  mark is lowered so such a stream blocks soon, its bounded hub queue fills, and the
  hub drops it (the browser reconnects and gets a fresh snapshot).
- ``stop()`` ends the streams first (the hub wakes every waiting client), lets the
  worker threads finish, then closes the open connections and the listening socket,
  which ends waitress's event loop and its thread.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from waitress.server import create_server

from web.hooks import MAX_UPLOAD_BYTES


class ServerHandle:
    """A running server; ``url`` is where it listens, ``stop()`` ends it."""

    def __init__(self, app: Flask, server: Any, thread: threading.Thread) -> None:
        self.app = app
        self._server = server
        self._thread = thread
        self.host: str = server.effective_host
        self.port: int = int(server.effective_port)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def stop(self, timeout: float = 5.0) -> None:
        """End live streams, close the sockets, stop the threads. Safe to call twice."""
        hub = self.app.extensions.get("jasscam_hub")
        if hub is not None:
            hub.stop()
        server = self._server
        # Let the worker threads finish their (now ending) responses while the event loop
        # still runs, then close every connection and the listening socket: an empty
        # socket map ends waitress's loop and its thread.
        server.task_dispatcher.shutdown(timeout=timeout)
        for channel in list(server._map.values()):
            if channel is not server:
                channel.close()
        server.close()
        self._thread.join(timeout)

    def __enter__(self) -> ServerHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


#: Sockets waitress keeps beyond its worker threads (idle keep-alives, half-sent requests).
SPARE_CONNECTIONS = 1024


def _raise_open_file_limit(wanted: int) -> int:
    """Raise the soft limit on open files towards ``wanted`` (up to the hard limit); return it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def serve(app: Flask, host: str = "0.0.0.0", port: int = 8080, *, spare_threads: int = 16) -> ServerHandle:
    """Start ``app`` on ``host:port`` (port 0: any free port) in a daemon thread."""
    hub = app.extensions.get("jasscam_hub")
    live = hub.max_clients if hub is not None else 0
    app.config["JASSCAM_LISTEN_HOST"] = host  # the start page's QR code offers only an address served
    threads = live + spare_threads
    # The camera, the models and the store need descriptors of their own: keep 256 for them.
    files = _raise_open_file_limit(threads + SPARE_CONNECTIONS + 256)
    server = create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        connection_limit=max(threads + 16, min(threads + SPARE_CONNECTIONS, files - 256)),
        channel_timeout=20,
        cleanup_interval=5,
        # A phone that stops reading blocks its stream thread after this much unsent
        # output (default 16 MiB); its hub queue then fills and the hub drops it.
        outbuf_high_watermark=256 * 1024,
        asyncore_use_poll=True,
        # Refused by waitress before the app runs or the body is spooled: nothing the
        # dashboard accepts is larger than a phone photo (web.app caps JSON far lower).
        max_request_body_size=MAX_UPLOAD_BYTES,
        ident="jasscam",
    )
    thread = threading.Thread(target=server.run, name=f"waitress-{port}", daemon=True)
    thread.start()
    return ServerHandle(app, server, thread)
