"""One game as the phones see and change it: its view, its live stream, and the buttons'
events (a card laid or corrected, Weis, Stöck, an undo, a ruling on a misplay).

Every write is one event checked by the rules engine inside ``store.append`` (web.common's
``append``): a refused event leaves nothing behind and the phone is told the engine's
reason. A new game is set up elsewhere (web.setup), a Coiffeur row, a Differenzler forecast
or a round without the camera too (web.rounds).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from scoring.events import Event, EventError, event_to_dict
from scoring.game import RuleError, fold
from web.auth import authorize
from web.common import append, hub, json_body, known_game, parsed, store, table_settings
from web.errors import ApiError
from web.live import TooManyClients
from web.store import EventStore
from web.view import game_view

blueprint = Blueprint("events", __name__, url_prefix="/api/games")

#: Event types a phone may write; ``game_configured`` only through the set-up form.
WRITABLE = frozenset(
    {
        "round_started",
        "card_played",
        "trick_collected",
        "weis_declared",
        "stoeck_called",
        "card_corrected",
        "event_voided",
        "misplay_ruled",
        "round_entered",
    }
)

#: Button presses the engine would record but not count (a late Stöck, a late Weis) are
#: refused instead, with the engine's reason: at the table a refused button is the answer.
REFUSE_IF_FLAGGED = frozenset({"stoeck_called", "weis_declared"})


def view_of(store: EventStore, game_id: int, events: list[Any]) -> dict[str, Any]:
    """The game view with the store's record of who wrote what and whether it was abandoned."""
    return game_view(game_id, events, store.by_hand(game_id), store.abandoned(game_id))


def refuse_if_flagged(events: list[Event], event: Event) -> None:
    """Raise ApiError with the engine's reason if it would flag ``event`` right away."""
    try:
        state = fold([*events, event])
    except (EventError, RuleError) as exc:
        raise ApiError(str(exc)) from None
    for flag in state.to_dict()["flags"]:
        if flag["ref"] == len(events):
            raise ApiError(flag["message"], flag=flag)


@blueprint.get("/<int:game_id>")
def api_game(game_id: int) -> Response:
    view = view_of(store(), game_id, known_game(game_id))
    view["edge"] = table_settings().edge(game_id)
    return jsonify(view)


@blueprint.get("/<int:game_id>/stream")
def api_stream(game_id: int) -> Response:
    known_game(game_id)
    try:
        body = hub().open(game_id, request.remote_addr or "?")
    except TooManyClients as exc:
        response = jsonify(error=str(exc))
        response.status_code = 503
        response.headers["Retry-After"] = "5"
        return response
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@blueprint.post("/<int:game_id>/events")
def api_append(game_id: int) -> Response:
    authorize()
    data = json_body()
    kind = data.get("type")
    if kind == "forecast_made":
        raise ApiError("a forecast is made with POST /api/games/<id>/forecast, so only its phone is shown it back")
    if kind not in WRITABLE:
        raise ApiError(f"type must be one of {', '.join(sorted(WRITABLE))}; a new game is set up with POST /api/games")
    event = parsed(data)

    def checked(events: list[Event]) -> Event:
        if kind in REFUSE_IF_FLAGGED:
            refuse_if_flagged(events, event)
        return event

    position, _ = append(game_id, checked)
    return jsonify(position=position, event=event_to_dict(event))
