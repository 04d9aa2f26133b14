"""The tournament's ranking page: every table's players in one live ranking.

Runs next to the broker (any machine in the tournament's network) and serves one page
that a projector or a phone opens. The board that subscribes to the tables
(``jasscam.tournament.board.TournamentBoard``) is passed in, so the dashboard package
never imports the composition root. The page gets the ranking as JSON and then live over Server-Sent Events:
each stream waits on the board's version, so it sends only when a table reported.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

from flask import Flask, Response, jsonify, render_template, request

HERE = Path(__file__).parent


class RankingBoard(Protocol):
    """What the page reads of the tournament board: its name, tables and a version that
    grows with every table's report."""

    @property
    def tournament(self) -> str: ...

    @property
    def tables(self) -> Mapping[str, Any]: ...

    @property
    def version(self) -> int: ...

    def snapshot(self) -> dict[str, Any]: ...

    def wait(self, version: int, timeout: float) -> int: ...


def create_ranking_app(board: RankingBoard, *, heartbeat: float = 15.0, title: str | None = None) -> Flask:
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
