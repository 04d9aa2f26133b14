"""The writes a phone needs for Coiffeur, Differenzler and a round without the camera.

- ``POST /api/games/<id>/row``: the team whose turn it is plays a Coiffeur row
  (``{row, schoben?, forehand?}``): a ``round_started`` for that row's contract.
- ``POST /api/games/<id>/forecast``: a Differenzler forecast (``{seat, points}``).
  ``GET`` the same path answers the forecasts *this phone* made for the round under way,
  and nobody else's. Every other screen (the SSE view, the event list, the JSON export)
  shows a forecast without its points until its round is over (scoring.differenzler).
- ``POST /api/games/<id>/round``: a whole round entered by hand (``round_entered``:
  ``{contract, team, points, match?, weis?, stoeck?, row?, schoben?, forehand?}``, or
  ``player_points`` in Speck and Differenzler).

Every write is one event checked by the rules engine inside ``store.append``, behind
the table PIN or session (web.auth); a refused one stores nothing and answers
``{"error"}`` (web.errors). Which phone made a forecast is kept in memory by a hash of
its session: after a restart the number is still in the store and counts, it only is
not shown again before the round ends.
"""

from __future__ import annotations

import hashlib
import threading

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request

from scoring.coiffeur import NotCoiffeurError, row_round
from scoring.differenzler import hidden_positions
from scoring.events import Event, ForecastMade, RoundEntered, event_to_dict
from scoring.game import fold, voided_positions
from web.auth import COOKIE, authorize
from web.common import append, json_body, known_game, parsed
from web.errors import ApiError

blueprint = Blueprint("rounds", __name__, url_prefix="/api/games")

#: Fields of ``round_entered`` a phone may send (the rest of the body is refused).
ENTRY_FIELDS = frozenset(
    {"contract", "forehand", "declarer", "schoben", "row", "team", "points", "match", "player_points", "weis", "stoeck"}
)


class _Owners:
    """Which session made which forecast (by the forecast's position), per game."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_game: dict[int, dict[int, str]] = {}

    def add(self, game_id: int, position: int, owner: str) -> None:
        with self._lock:
            self._by_game.setdefault(game_id, {})[position] = owner

    def of(self, game_id: int) -> dict[int, str]:
        with self._lock:
            return dict(self._by_game.get(game_id, {}))


def _owners() -> _Owners:
    found: _Owners = current_app.extensions["jasscam_forecast_owners"]
    return found


def _session_owner() -> str:
    """This phone, as a hash of its session token (the one it sent, or the one a right PIN just opened)."""
    token = g.get("jasscam_session") or request.cookies.get(COOKIE) or ""
    return hashlib.sha256(token.encode()).hexdigest()


@blueprint.post("/<int:game_id>/row")
def choose_row(game_id: int) -> Response:
    """Coiffeur: the team whose turn it is plays this row (after Schieben, the partner chose it)."""
    authorize()
    data = json_body()
    row, schoben, forehand = data.get("row"), data.get("schoben", False), data.get("forehand")
    if isinstance(row, bool) or not isinstance(row, int):
        raise ApiError(f"row must be the row's number (0-based), got {row!r}")
    if not isinstance(schoben, bool):
        raise ApiError("schoben must be true or false")
    if forehand is not None and (isinstance(forehand, bool) or not isinstance(forehand, int) or not 0 <= forehand <= 3):
        raise ApiError(f"forehand must be a seat 0..3, got {forehand!r}")

    def build(events: list[Event]) -> Event:
        try:
            return row_round(fold(events), row, schoben=schoben, forehand=forehand)
        except NotCoiffeurError as exc:
            raise ApiError(str(exc)) from None

    position, event = append(game_id, build)
    return jsonify(position=position, event=event_to_dict(event))


@blueprint.post("/<int:game_id>/forecast")
def make_forecast(game_id: int) -> Response:
    """Differenzler: this phone's secret forecast for a seat. Only this phone is told it back."""
    authorize()
    data = json_body()
    event = parsed({"type": "forecast_made", "seat": data.get("seat"), "points": data.get("points")})
    position, _ = append(game_id, lambda _events: event)
    _owners().add(game_id, position, _session_owner())
    return jsonify(position=position, event=event_to_dict(event))


@blueprint.get("/<int:game_id>/forecast")
def my_forecasts(game_id: int) -> Response:
    """The forecasts this phone made for the round under way (``{seat: points}``), nobody else's.

    Needs the session or PIN like a write: a forecast is shown only to the phone that
    made it, and an anonymous reader has none.
    """
    authorize()
    events = known_game(game_id)
    mine = _owners().of(game_id)
    me = _session_owner()
    voided = voided_positions(events)
    latest: dict[int, tuple[int, int]] = {}
    for pos in sorted(hidden_positions(events)):
        ev = events[pos]
        if pos not in voided and isinstance(ev, ForecastMade):
            latest[ev.seat] = (pos, ev.points)
    out = {str(seat): points for seat, (pos, points) in latest.items() if mine.get(pos) == me}
    return jsonify(forecasts=out)


@blueprint.post("/<int:game_id>/round")
def enter_round(game_id: int) -> Response:
    """A whole round entered by hand: the contract, one team's points (or every player's), Weis and Stöck."""
    authorize()
    data = json_body()
    extra = sorted(set(data) - ENTRY_FIELDS - {"type"})
    if extra:
        raise ApiError(f"round entry: unknown field(s) {', '.join(extra)}")
    event = parsed({**data, "type": "round_entered"})
    assert isinstance(event, RoundEntered)
    position, _ = append(game_id, lambda _events: event)
    return jsonify(position=position, event=event_to_dict(event))


def register_rounds(app: Flask) -> None:
    """Mount the Coiffeur row, Differenzler forecast and round entry endpoints on ``app``."""
    app.extensions["jasscam_forecast_owners"] = _Owners()
    app.register_blueprint(blueprint)
