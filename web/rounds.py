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
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, jsonify, request

from scoring.coiffeur import NotCoiffeurError, row_round
from scoring.differenzler import hidden_positions
from scoring.events import Event, EventError, ForecastMade, RoundEntered, event_to_dict, parse_event
from scoring.game import RuleError, fold, voided_positions
from web.auth import COOKIE, authorize
from web.errors import ApiError, answer_errors_as_json

blueprint = Blueprint("rounds", __name__, url_prefix="/api/games")
answer_errors_as_json(blueprint)

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


def _store() -> Any:
    return current_app.extensions["jasscam_store"]


def _lock() -> Any:
    return current_app.extensions.setdefault("jasscam_write_lock", threading.Lock())


def _owners() -> _Owners:
    return current_app.extensions.setdefault("jasscam_forecast_owners", _Owners())


def _session_owner() -> str:
    """This phone, as a hash of its session token (the one it sent, or the one a right PIN just opened)."""
    token = g.get("jasscam_session") or request.cookies.get(COOKIE) or ""
    return hashlib.sha256(token.encode()).hexdigest()


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError("the request body must be a JSON object")
    return data


def _events(game_id: int) -> list[Event]:
    try:
        return list(_store().events(game_id))
    except LookupError:
        raise ApiError(f"no game {game_id}", 404) from None


def _append(game_id: int, build: Any) -> tuple[int, Event]:
    """Append the event ``build(events)`` makes, under the write lock, honouring ``X-Expect-Count``."""
    expect = request.headers.get("X-Expect-Count")
    with _lock():
        events = _events(game_id)
        if expect is not None and expect != str(len(events)):
            raise ApiError(
                f"the game changed meanwhile ({len(events)} events, you saw {expect}); look again and retry",
                409,
                "changed",
            )
        event = build(events)
        try:
            position = int(_store().append(game_id, event, by_hand=True))
        except (EventError, RuleError) as exc:
            raise ApiError(str(exc)) from None
        except OSError as exc:  # the disk is full and the store's reserve used up
            raise ApiError(str(exc), 507) from None
    return position, event


def _parse(data: dict[str, Any]) -> Event:
    try:
        return parse_event(data)
    except EventError as exc:
        raise ApiError(str(exc)) from None


@blueprint.post("/<int:game_id>/row")
def choose_row(game_id: int) -> Response:
    """Coiffeur: the team whose turn it is plays this row (after Schieben, the partner chose it)."""
    authorize()
    data = _body()
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

    position, event = _append(game_id, build)
    return jsonify(position=position, event=event_to_dict(event))


@blueprint.post("/<int:game_id>/forecast")
def make_forecast(game_id: int) -> Response:
    """Differenzler: this phone's secret forecast for a seat. Only this phone is told it back."""
    authorize()
    data = _body()
    event = _parse({"type": "forecast_made", "seat": data.get("seat"), "points": data.get("points")})
    position, _ = _append(game_id, lambda _events: event)
    _owners().add(game_id, position, _session_owner())
    return jsonify(position=position, event=event_to_dict(event))


@blueprint.get("/<int:game_id>/forecast")
def my_forecasts(game_id: int) -> Response:
    """The forecasts this phone made for the round under way (``{seat: points}``), nobody else's.

    Needs the session or PIN like a write: a forecast is shown only to the phone that
    made it, and an anonymous reader has none.
    """
    authorize()
    events = _events(game_id)
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
    data = _body()
    extra = sorted(set(data) - ENTRY_FIELDS - {"type"})
    if extra:
        raise ApiError(f"round entry: unknown field(s) {', '.join(extra)}")
    event = _parse({**data, "type": "round_entered"})
    assert isinstance(event, RoundEntered)
    position, _ = _append(game_id, lambda _events: event)
    return jsonify(position=position, event=event_to_dict(event))


def register_rounds(app: Flask) -> None:
    """Mount the Coiffeur row, Differenzler forecast and round entry endpoints on ``app``."""
    app.extensions.setdefault("jasscam_write_lock", threading.Lock())
    app.extensions.setdefault("jasscam_forecast_owners", _Owners())
    app.register_blueprint(blueprint)
