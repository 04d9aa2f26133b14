"""The games of one table as the screens list them: running, finished or abandoned.

Why here and not in the store: "running" is the rules engine's word (not over) together
with the store's mark (not abandoned), and the Schieber and the Speck set-up both ask
the same question before they start a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.events import event_to_dict
from web.errors import ApiError
from web.store import EventStore
from web.view import fold_state


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
