"""What the camera does and did: its state for the phones' banner, the appliance's health,
and the recorded picture of one moment of a game (web.trickshot draws the cards on it).

``/api/camera`` and ``/healthz`` are open (a state says nothing about the cards); a
recorded picture shows the table, so like the live picture (web.mounting) it needs the
table PIN.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, make_response

from web.auth import authorize
from web.common import hub, known_game, language, pictures
from web.errors import ApiError
from web.i18n import STRINGS
from web.trickshot import annotate, card_namer, jpeg
from web.view import fold_state

blueprint = Blueprint("camera", __name__)


def camera_status(status: Mapping[str, Any]) -> dict[str, Any]:
    """The part of the appliance status a phone shows: is the camera live, and if not why; and
    whether the table's deck is being relearnt for new models (``jasscam.decks``) or cannot be used.

    Only states, never counters, so the SSE status event fires on changes, not every
    second. A replay that reached its end (``ended``) is not a fault.
    """
    source = status.get("source") or {}
    state = str(source.get("state", "starting"))  # no source yet: the pipeline is starting
    error = source.get("error") or status.get("error")
    ok = state in ("live", "opening", "ended", "starting") and not status.get("error")
    out: dict[str, Any] = {
        "ok": ok,
        "camera": state,
        "source": source.get("name"),
        "message": None if ok else (error or state),
    }
    warnings = []
    if (status.get("store") or {}).get("disk_full"):
        warnings.append("the disk is full: the score goes on in the store's reserve; free some space (old recordings)")
    problem = (status.get("recorder") or {}).get("problem")
    if problem:
        warnings.append(f"recording stopped: {problem}")
    if warnings:
        out["warning"] = "; ".join(warnings)
    deck = status.get("deck") or {}
    if deck.get("rebuilding") or deck.get("error"):  # the table's deck is being relearnt, or cannot be used
        out["deck"] = {k: deck.get(k) for k in ("rebuilding", "name", "progress", "error")} | {
            "reading": deck.get("deck")
        }
    return out


@blueprint.get("/api/camera")
def api_camera() -> Response:
    """Is the camera running (and if not, why), and is there a live picture (web.mounting's, behind the PIN)."""
    return jsonify(status=hub().read_status(), picture="mounting" in current_app.extensions)


@blueprint.get("/healthz")
def healthz() -> Response:
    live = hub()
    return jsonify(ok=True, live_clients=live.client_count(), dropped=live.dropped_total, status=live.read_status())


@blueprint.get("/api/games/<int:game_id>/frame/<int:position>.jpg")
def api_frame(game_id: int, position: int) -> Response:
    """The recorded picture at the time of event ``position``, the cards read outlined and named."""
    authorize()
    events = known_game(game_id)
    if not 0 <= position < len(events):
        raise ApiError(f"game {game_id} has no event {position}", 404)
    source = pictures()
    frame = source.frame_at(game_id, position) if source.frame_at is not None else None
    if frame is None:
        raise ApiError("no recorded picture of this moment", 404)
    try:
        on_table = {pc["card"] for pc in (fold_state(events[: position + 1]).get("round") or {}).get("trick", [])}
    except Exception:  # a game a newer engine rejects: the picture still helps
        on_table = set()
    seen = source.recognize(frame) if source.recognize is not None else []
    picture = annotate(frame, seen, card_namer(STRINGS[language()]), on_table)
    response = make_response(jpeg(picture))
    response.mimetype = "image/jpeg"
    response.headers["Cache-Control"] = "private, max-age=3600"  # a recorded moment never changes
    return response
