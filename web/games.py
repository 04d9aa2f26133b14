"""The games of one table as the screens list them: running, finished or abandoned; and
``/api/games`` (the list) and ``DELETE /api/games/<id>`` (a game deleted for good).

Why here and not in the store: "running" is the rules engine's word (not over) together
with the store's mark (not abandoned), and the Schieber and the Speck set-up both ask
the same question before they start a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request

from scoring.events import EventError, GameConfigured, event_to_dict
from scoring.game import RuleError
from web.auth import authorize
from web.common import known_game, store, write_lock
from web.errors import ApiError
from web.history import matches, players_of
from web.store import EventStore
from web.view import fold_state

blueprint = Blueprint("games", __name__, url_prefix="/api/games")


def game_status(summary: Mapping[str, Any]) -> str:
    """``finished`` (the rules ended it), ``abandoned`` (the table left it) or ``running``."""
    if summary.get("finished"):
        return "finished"
    return "abandoned" if summary.get("abandoned") else "running"


def running_game(store: EventStore) -> dict[str, Any] | None:
    """The current game if it is neither finished nor abandoned: id, players, totals, variant."""
    current = store.current_game()
    if current is None:
        return None
    events = store.events(current)
    try:
        state = fold_state(events)
    except Exception:  # a game a newer engine rejects still runs until the table ends it
        state = {}
    if state.get("game_over"):
        return None
    config = event_to_dict(events[0]) if events else {}
    totals = [b["total"] for b in state.get("totals", [])] or None
    return {
        "id": current,
        "players": config.get("players"),
        "variant": config.get("variant", "schieber"),
        "totals": totals,
    }


def end_running(store: EventStore, confirmed: Any) -> None:
    """Before a new game: the one still running is closed as abandoned, once the table said so.

    Without ``confirmed`` a running game refuses the new one with 409 (the phone asks
    «Laufende Partie beenden?»), so two games never share the camera's events.
    """
    running = running_game(store)
    if running is None:
        return
    if confirmed is not True:
        raise ApiError(f"game {running['id']} is still running; end it first (end_running)", 409, "still_running")
    store.abandon(int(running["id"]))


def start_game(config: GameConfigured, end_confirmed: Any) -> int:
    """Start the game ``config`` sets up, under the write lock, once the running one is ended
    (``end_confirmed``, see ``end_running``); the rules engine's refusal is the phone's 400."""
    with write_lock():
        try:
            end_running(store(), end_confirmed)
            return int(store().new_game(config))
        except (EventError, RuleError) as exc:
            raise ApiError(str(exc)) from None
        except OSError as exc:  # the disk is full and the store's reserve used up
            raise ApiError(str(exc), 507) from None


def _listed(summary: Mapping[str, Any]) -> dict[str, Any]:
    """A game's row in the list: the store's summary, its status and the rules engine's totals."""
    row = dict(summary)
    row["status"] = game_status(row)
    try:
        state = fold_state(store().events(int(row["id"])))
        row["totals"] = state.get("totals")
        row["player_totals"] = state.get("player_totals")
        row["penalties"] = (state.get("differenzler") or {}).get("penalty_totals")
        row["game_over"] = state.get("game_over")
        row["rounds"] = len(state.get("sheet", []))
    except Exception as exc:  # one unreadable game must not hide the others
        row["error"] = str(exc)
    return row


@blueprint.get("")
def api_games() -> Response:
    """Every game, oldest first; ``?player=`` and ``?variant=`` keep the games with that player, of that variant."""
    player, variant = request.args.get("player"), request.args.get("variant")
    rows = store().games()
    out = [_listed(summary) for summary in rows if matches(summary.get("config"), player, variant)]
    return jsonify(games=out, current=store().current_game(), players=players_of(rows))


@blueprint.delete("/<int:game_id>")
def api_delete_game(game_id: int) -> Response:
    """The table deletes a game for good (a test game, a mistaken start)."""
    authorize()
    with write_lock():
        known_game(game_id)
        try:
            store().delete_game(game_id)
        except OSError as exc:  # the disk is full and the store's reserve used up
            raise ApiError(str(exc), 507) from None
    return jsonify(deleted=game_id)
