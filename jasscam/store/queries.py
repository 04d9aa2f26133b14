"""Every statement the store runs on its games and events, in one place.

Plain functions over a connection: they neither lock nor cache (``EventStore`` does
both, around them), so what is asked of the file can be read without the policy that
keeps it safe. The tables themselves are in ``jasscam.store.schema``.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from jasscam.store.errors import StoreError, UnknownGameError
from scoring.events import Event, EventError, dumps, loads


def event_count(db: sqlite3.Connection, game_id: int) -> int:
    """How many events the file holds for the game (another process may have added some)."""
    row = db.execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
    return int(row[0])


def totals(db: sqlite3.Connection) -> tuple[int, int]:
    """How many games and events the file holds."""
    games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    events = int(db.execute("SELECT count(*) FROM events").fetchone()[0])
    return games, events


def read_events(db: sqlite3.Connection, game_id: int, path: Path) -> list[Event]:
    """The game's events in order, each parsed; a gap or an unreadable row is a StoreError."""
    if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
        raise UnknownGameError(f"no game with id {game_id} in {path}")
    rows = db.execute("SELECT position, body FROM events WHERE game_id = ? ORDER BY position", (game_id,)).fetchall()
    events: list[Event] = []
    for expected, (position, body) in enumerate(rows):
        if position != expected:
            raise StoreError(f"game {game_id} in {path} has a gap at event {expected}")
        try:
            events.append(loads(body))
        except EventError as exc:
            raise StoreError(f"game {game_id}, event {position} in {path} cannot be read: {exc}") from exc
    return events


def current_game(db: sqlite3.Connection) -> int | None:
    """The most recently created game that was not abandoned, or None."""
    row = db.execute("SELECT max(id) FROM games WHERE abandoned IS NULL").fetchone()
    return None if row[0] is None else int(row[0])


def by_hand(db: sqlite3.Connection, game_id: int) -> list[bool | None]:
    """Per position: True if a phone wrote the event, False the camera, None if stored unmarked."""
    rows = db.execute("SELECT by_hand FROM events WHERE game_id = ? ORDER BY position", (game_id,)).fetchall()
    return [None if v is None else bool(v) for (v,) in rows]


def stored_times(db: sqlite3.Connection, game_id: int) -> list[float]:
    """Per position: when the event was stored (unix seconds)."""
    rows = db.execute("SELECT stored FROM events WHERE game_id = ? ORDER BY position", (game_id,)).fetchall()
    return [float(v) for (v,) in rows]


def abandoned_at(db: sqlite3.Connection, game_id: int, path: Path) -> float | None:
    """When the table ended the game unfinished (unix seconds), or None; UnknownGameError if it is not there."""
    row = db.execute("SELECT abandoned FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGameError(f"no game with id {game_id} in {path}")
    return None if row[0] is None else float(row[0])


def game_rows(db: sqlite3.Connection) -> list[tuple[int, float, float | None]]:
    """Every game's id, creation and abandonment time (unix seconds), oldest first."""
    rows = db.execute("SELECT id, created, abandoned FROM games ORDER BY id").fetchall()
    return [(int(i), float(c), None if a is None else float(a)) for i, c, a in rows]


def add_game(db: sqlite3.Connection) -> int:
    """A new game row, created now; its id."""
    cur = db.execute("INSERT INTO games (created) VALUES (?)", (time.time(),))
    return int(cur.lastrowid or 0)


def restore_game(db: sqlite3.Connection, game_id: int, created: float | None, abandoned: float | None) -> None:
    """A game row under its old id, creation and abandonment time (a recovered store)."""
    db.execute(
        "INSERT INTO games (id, created, abandoned) VALUES (?, ?, ?)", (game_id, created or time.time(), abandoned)
    )


def add_event(db: sqlite3.Connection, game_id: int, position: int, event: Event, by_hand: bool | None) -> None:
    """One event row, stored now; ``by_hand`` None where who wrote it is not known."""
    db.execute(
        "INSERT INTO events (game_id, position, type, body, stored, by_hand) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, position, event.type, dumps(event), time.time(), None if by_hand is None else int(by_hand)),
    )


def is_abandoned(db: sqlite3.Connection, game_id: int) -> bool:
    """Whether the table left the game (an unknown game is not abandoned)."""
    row = db.execute("SELECT abandoned FROM games WHERE id = ?", (game_id,)).fetchone()
    return row is not None and row[0] is not None


def mark_abandoned(db: sqlite3.Connection, game_id: int) -> None:
    """Note that the table left the game now; a game abandoned before keeps its first time."""
    db.execute("UPDATE games SET abandoned = coalesce(abandoned, ?) WHERE id = ?", (time.time(), game_id))


def delete_game(db: sqlite3.Connection, game_id: int) -> None:
    """Mark the game, then remove its events and itself (the trigger lets only a marked game's rows go)."""
    db.execute("UPDATE games SET deleting = 1 WHERE id = ?", (game_id,))
    db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
    db.execute("DELETE FROM games WHERE id = ?", (game_id,))


__all__ = [
    "abandoned_at",
    "add_event",
    "add_game",
    "by_hand",
    "current_game",
    "delete_game",
    "event_count",
    "game_rows",
    "is_abandoned",
    "mark_abandoned",
    "read_events",
    "restore_game",
    "stored_times",
    "totals",
]
