"""The tournament's ranking page: every table's players in one live ranking.

Runs next to the broker (any machine in the tournament's network), subscribes through a
:class:`~jasscam.tournament.board.TournamentBoard` and serves one page that a projector or
a phone opens. The page gets the ranking as JSON and then live over Server-Sent Events:
each stream waits on the board's version, so it sends only when a table reported.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from flask import Flask, Response, jsonify, render_template, request

from jasscam.tournament.board import TournamentBoard

HERE = Path(__file__).parent


def create_ranking_app(board: TournamentBoard, *, heartbeat: float = 15.0, title: str | None = None) -> Flask:
    """The ranking page over ``board`` (already started)."""
    app = Flask(__name__, template_folder=str(HERE / "templates"))
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]

    @app.get("/")
    def page() -> str:
        return render_template("ranking.html", title=title or board.tournament, snapshot=board.snapshot())

    @app.get("/api/ranking")
    def api_ranking() -> Response:
        response = jsonify(board.snapshot())
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/api/stream")
    def api_stream() -> Response:
        try:
            since = int(request.args.get("since", "-1"))
        except ValueError:
            since = -1

        def frames() -> Iterator[bytes]:
            version = since
            while True:
                now = board.wait(version, heartbeat)
                if now == version:
                    yield b": heartbeat\n\n"
                    continue
                snap = board.snapshot()
                version = snap["version"]
                data = json.dumps(snap, ensure_ascii=False, separators=(",", ":"))
                yield f"id: {version}\nevent: ranking\ndata: {data}\n\n".encode()

        response = Response(frames(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache, no-transform"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify(ok=True, tables=len(board.tables), version=board.version)

    return app
