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
        """The newest game that was not abandoned, or None when there is none."""
        ...

    def games(self) -> list[dict[str, Any]]:
        """One summary dict per game (``id``, ``created``, ``config``, ``events``, ``finished``, ``abandoned``)."""
        ...

    def catalog(self) -> list[dict[str, Any]]:
        """``games`` without ``finished`` (no game is folded): ``id``, ``created``, ``config``,
        ``events``, ``abandoned``."""
        ...

    def by_hand(self, game_id: int) -> list[bool | None]:
        """Per position: True if a phone wrote the event, False the camera, None if unknown."""
        ...

    def times(self, game_id: int) -> list[float]:
        """Per position: when the event was stored (unix seconds)."""
        ...

    def abandoned(self, game_id: int) -> str | None:
        """When the table ended the game unfinished (ISO 8601), or None."""
        ...

    def abandon(self, game_id: int) -> None:
        """Close an unfinished game (it stays readable, no longer current)."""
        ...

    def delete_game(self, game_id: int) -> None:
        """Remove a game and its events for good."""
        ...

    def events(self, game_id: int) -> list[Event]:
        """The game's events in order."""
        ...

    def append(self, game_id: int, event: Event, *, by_hand: bool = False) -> int:
        """Append if the game still folds; raises EventError/RuleError and stores nothing otherwise.

        ``by_hand``: the table wrote it on a phone (undo takes back these, not camera events).
        """
        ...

    def wait(self, game_id: int, after: int, timeout: float) -> int:
        """Block until the game has more than ``after`` events or ``timeout`` passes; return the count."""
        ...
