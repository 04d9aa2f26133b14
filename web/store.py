"""What the dashboard needs from the event store, as a Protocol.

The appliance owns the store (``jasscam.store.EventStore``, SQLite); web/ must not
import jasscam/, so the app factory accepts anything with this shape. Tests pass the
real store.
"""

from __future__ import annotations

from typing import Any, Protocol

from scoring.events import Event, GameConfigured


class EventStore(Protocol):
    """Append-only games of events; positions are 0-based indexes into ``events``."""

    def new_game(self, config: GameConfigured) -> int:
        """Create a game whose first event is ``config``; it becomes the current game."""
        ...

    def current_game(self) -> int | None:
        """The newest game, or None when there is none."""
        ...

    def games(self) -> list[dict[str, Any]]:
        """One summary dict per game (``id``, ``created``, ``config``, ``events``, ``finished``)."""
        ...

    def events(self, game_id: int) -> list[Event]:
        """The game's events in order."""
        ...

    def append(self, game_id: int, event: Event) -> int:
        """Append if the game still folds; raises EventError/RuleError and stores nothing otherwise."""
        ...

    def wait(self, game_id: int, after: int, timeout: float) -> int:
        """Block until the game has more than ``after`` events or ``timeout`` passes; return the count."""
        ...
