"""The event store: every game as an append-only list of events in one SQLite file.

Why this shape: the game's state (rounds, tricks, Weis, totals) is never stored; it is
rebuilt by folding the events through the rules engine (``scoring.game.fold``). So the
only thing that must survive a crash or a power cut is the list of confirmed events,
and an append is one small transaction.

Durability: WAL journal with ``synchronous=FULL``. In WAL mode ``NORMAL`` is already
safe against a killed process (the WAL is in the OS page cache) but may lose the last
commits on a *power cut*, because the WAL is fsynced only at checkpoints. A Pi on a
table is unplugged without warning, and the promise is "never a confirmed event", so
every commit fsyncs the WAL (one fsync per event, a few per second at most).

Validation: an event is appended only if the whole game, folded with it, is still
valid (``scoring.events`` for the schema, ``scoring.game.fold`` for the rules). A
rejected event leaves nothing behind and the error is re-raised for the caller (the
dashboard answers 400 with its message).

Concurrency: one connection guarded by a lock (SQLite serialises writers anyway; one
connection avoids ``database is locked`` between our own threads). ``wait`` uses a
``threading.Condition`` on that lock, so the dashboard's SSE streams block until an
append in this process wakes them. Another process appending to the same file is
detected (the cached list is checked against the row count inside the write
transaction) but does not wake waiters here; they see it at their timeout.

Append-only is enforced by the schema itself: triggers abort any UPDATE or DELETE of
an event row. Corrections are events (``card_corrected``, ``event_voided``). The one
exception is the table deleting a whole game (``delete_game``): the game is marked
first, and only a marked game's rows may go, all in one transaction.

Each row also says who wrote it (``by_hand``: a phone, or the camera), so the
dashboard's undo takes back what the table did and never a camera event by surprise;
and a game the table left unfinished to start another is marked ``abandoned``, so the
list of games tells it from one that still runs.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from scoring.events import Event, EventError, GameConfigured, dumps, event_to_dict, loads, parse_event
from scoring.game import RuleError, fold

__all__ = ["EventStore", "StoreError", "UnknownGameError", "GameClosedError", "Event"]


class StoreError(RuntimeError):
    """The store file cannot be used (not a database, newer schema, closed)."""


class UnknownGameError(StoreError, LookupError):
    """A game id that is not in the store."""


class GameClosedError(StoreError, EventError):
    """An event for a game the table abandoned: it is closed, nothing more is added.

    Also an ``EventError``, so every writer that refuses a bad event (the pipeline, the
    dashboard, the demo's table script) refuses this one the same way.
    """


#: Numbered migrations; entry ``i`` brings the schema from version ``i`` to ``i + 1``.
#: Never edit a released entry: append a new one.
MIGRATIONS: Final[tuple[str, ...]] = (
    # 1: games and their events.
    """
    CREATE TABLE games (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        created  REAL NOT NULL              -- unix seconds, when new_game ran
    );
    CREATE TABLE events (
        game_id  INTEGER NOT NULL REFERENCES games(id),
        position INTEGER NOT NULL,          -- 0-based index in the game's list
        type     TEXT NOT NULL,
        body     TEXT NOT NULL,             -- the event as JSON (scoring.events.dumps)
        stored   REAL NOT NULL,             -- unix seconds, when it was appended
        PRIMARY KEY (game_id, position)
    ) WITHOUT ROWID;
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
    # 2: who wrote each event, a game ended unfinished, and a whole game deleted by the table.
    """
    ALTER TABLE events ADD COLUMN by_hand INTEGER;  -- 1: a phone wrote it, 0: the camera; NULL: stored before
    ALTER TABLE games ADD COLUMN abandoned REAL;    -- unix seconds, when the table ended it unfinished
    ALTER TABLE games ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0;
    DROP TRIGGER events_no_delete;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        WHEN (SELECT deleting FROM games WHERE id = OLD.game_id) IS NOT 1
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
)

SCHEMA_VERSION: Final[int] = len(MIGRATIONS)


def validation_errors() -> tuple[type[Exception], ...]:
    """The exceptions with which ``append`` rejects an event (schema, then rules)."""
    return (EventError, RuleError)


class EventStore:
    """Games and their events in one SQLite file; see the module docstring for why."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._cache: dict[int, list[Event]] = {}
        self._closed = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the event store {self.path}: {exc}") from exc
        try:
            self._db.execute("PRAGMA journal_mode=WAL").fetchone()
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise StoreError(f"{self.path} is not a usable jasscam event store: {exc}") from exc

    # -- schema -----------------------------------------------------------------------

    def _migrate(self) -> None:
        """Bring the schema up to ``SCHEMA_VERSION``, one migration per transaction.

        The pipeline and the dashboard open the same file, often at the same moment on a
        fresh state directory: both read version 0, one migrates, and the other, let in
        once the first commits, finds the tables made. A step that fails while the
        version moved on meanwhile was done by the other process; read it again.
        """
        while True:
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has schema version {version}, newer than this jasscam "
                    f"({SCHEMA_VERSION}); upgrade jasscam or use another state directory"
                )
            if version == SCHEMA_VERSION:
                return
            # executescript commits first, so run each step in its own explicit transaction.
            script = f"BEGIN IMMEDIATE;\n{MIGRATIONS[version]}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
            try:
                self._db.executescript(script)
            except sqlite3.Error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if int(self._db.execute("PRAGMA user_version").fetchone()[0]) > version:
                    continue
                raise

    @property
    def schema_version(self) -> int:
        with self._lock:
            self._check_open()
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # -- reading ----------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the event store {self.path} is closed")

    def _count_in_db(self, game_id: int) -> int:
        row = self._db.execute("SELECT count(*) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def _load(self, game_id: int) -> list[Event]:
        """The game's events, from the cache when it matches the file."""
        cached = self._cache.get(game_id)
        if cached is not None and len(cached) == self._count_in_db(game_id):
            return cached
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGameError(f"no game with id {game_id} in {self.path}")
        rows = self._db.execute(
            "SELECT position, body FROM events WHERE game_id = ? ORDER BY position", (game_id,)
        ).fetchall()
        events: list[Event] = []
        for expected, (position, body) in enumerate(rows):
            if position != expected:
                raise StoreError(f"game {game_id} in {self.path} has a gap at event {expected}")
            try:
                events.append(loads(body))
            except EventError as exc:
                raise StoreError(f"game {game_id}, event {position} in {self.path} cannot be read: {exc}") from exc
        self._cache[game_id] = events
        return events

    def events(self, game_id: int) -> list[Event]:
        """The game's events in order; the index of each is its position."""
        with self._lock:
            self._check_open()
            return list(self._load(game_id))

    def count(self, game_id: int) -> int:
        """How many events the game has (the next event's position)."""
        with self._lock:
            self._check_open()
            return len(self._load(game_id))

    def current_game(self) -> int | None:
        """The most recently created game that was not abandoned, or None.

        An abandoned game is closed: the camera's events never go to it again, even when
        the game that replaced it is deleted.
        """
        with self._lock:
            self._check_open()
            row = self._db.execute("SELECT max(id) FROM games WHERE abandoned IS NULL").fetchone()
            return None if row[0] is None else int(row[0])

    def by_hand(self, game_id: int) -> list[bool | None]:
        """Per position: True if a phone wrote the event, False the camera, None if stored unmarked."""
        with self._lock:
            self._check_open()
            self._load(game_id)
            rows = self._db.execute(
                "SELECT by_hand FROM events WHERE game_id = ? ORDER BY position", (game_id,)
            ).fetchall()
            return [None if v is None else bool(v) for (v,) in rows]

    def abandoned(self, game_id: int) -> str | None:
        """When the table ended the game unfinished (ISO 8601, UTC), or None."""
        with self._lock:
            self._check_open()
            row = self._db.execute("SELECT abandoned FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGameError(f"no game with id {game_id} in {self.path}")
            return None if row[0] is None else _iso(row[0])

    def games(self) -> list[dict[str, Any]]:
        """One summary per game, oldest first.

        Keys: ``id``, ``created`` (ISO 8601, UTC), ``config`` (the game_configured event
        as JSON), ``events`` (count), ``finished`` (the rules engine says the game is over),
        ``abandoned`` (ISO 8601 when the table ended it unfinished, else None).
        """
        with self._lock:
            self._check_open()
            out = []
            rows = self._db.execute("SELECT id, created, abandoned FROM games ORDER BY id").fetchall()
            for game_id, created, abandoned in rows:
                events = self._load(int(game_id))
                out.append(
                    {
                        "id": int(game_id),
                        "created": _iso(created),
                        "config": event_to_dict(events[0]) if events else None,
                        "events": len(events),
                        "finished": self._finished(events),
                        "abandoned": None if abandoned is None else _iso(abandoned),
                    }
                )
            return out

    def _finished(self, events: list[Event]) -> bool:
        try:
            return fold(events).game_over is not None
        except (EventError, RuleError):  # stored games always folded once; a newer engine may disagree
            return False

    # -- writing ----------------------------------------------------------------------

    def _validate(self, events: list[Event]) -> None:
        """Raise EventError or the rules engine's RuleError if the list is not a valid game."""
        if not events or not isinstance(events[0], GameConfigured):
            raise EventError("a game starts with exactly one game_configured event")
        if any(isinstance(e, GameConfigured) for e in events[1:]):
            raise EventError("a game has only one game_configured event; start a new game instead")
        fold(events)

    def _insert(self, game_id: int, position: int, event: Event, by_hand: bool) -> None:
        self._db.execute(
            "INSERT INTO events (game_id, position, type, body, stored, by_hand) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, position, event.type, dumps(event), time.time(), int(by_hand)),
        )

    def new_game(self, config: GameConfigured) -> int:
        """Create a game whose first event is ``config``; it becomes the current game."""
        if not isinstance(config, GameConfigured):
            raise EventError(f"a game starts with a game_configured event, got {type(config).__name__}")
        self._validate([config])
        with self._lock:
            self._check_open()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cur = self._db.execute("INSERT INTO games (created) VALUES (?)", (time.time(),))
                game_id = int(cur.lastrowid or 0)
                self._insert(game_id, 0, config, True)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._cache[game_id] = [config]
            self._changed.notify_all()
            return game_id

    def append(self, game_id: int, event: Event | Mapping[str, Any], *, by_hand: bool = False) -> int:
        """Append one event after checking the game still folds; return its position.

        A dict is parsed with ``scoring.events.parse_event`` first. ``EventError`` and the
        rules engine's ``RuleError`` propagate unchanged and nothing is stored.
        ``by_hand``: the table wrote it (a phone), not the camera.
        """
        if isinstance(event, Mapping):
            event = parse_event(dict(event))
        with self._lock:
            self._check_open()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if self._db.execute("SELECT abandoned FROM games WHERE id = ?", (game_id,)).fetchone() not in (None, (None,)):
                    raise GameClosedError(f"game {game_id} was abandoned; events go to the game that replaced it")
                existing = self._load(game_id)  # re-checked against the file inside the lock
                candidate = [*existing, event]
                self._validate(candidate)
                position = len(existing)
                self._insert(game_id, position, event, by_hand)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            existing.append(event)
            self._changed.notify_all()
            return position

    def abandon(self, game_id: int) -> None:
        """Close an unfinished game: it stays readable, but is no longer the current game.

        Raises StoreError for a game the rules engine already ended (it is finished, not
        abandoned); abandoning twice keeps the first time.
        """
        with self._lock:
            self._check_open()
            if self._finished(self._load(game_id)):
                raise StoreError(f"game {game_id} is already over; it cannot be abandoned")
            self._db.execute(
                "UPDATE games SET abandoned = coalesce(abandoned, ?) WHERE id = ?", (time.time(), game_id)
            )
            self._changed.notify_all()

    def delete_game(self, game_id: int) -> None:
        """Remove a game and all its events for good (the table asked for it)."""
        with self._lock:
            self._check_open()
            self._load(game_id)  # UnknownGameError for a game that is not there
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute("UPDATE games SET deleting = 1 WHERE id = ?", (game_id,))
                self._db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
                self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._cache.pop(game_id, None)
            self._changed.notify_all()

    # -- waiting ----------------------------------------------------------------------

    def wait(self, game_id: int, after: int, timeout: float) -> int:
        """Block until the game has more than ``after`` events or ``timeout`` seconds pass.

        Returns the current number of events (so ``count > after`` means news). Woken by
        appends in this process and by ``close``.
        """
        deadline = time.monotonic() + max(0.0, timeout)
        with self._changed:
            while True:
                self._check_open()
                count = len(self._load(game_id))
                remaining = deadline - time.monotonic()
                if count > after or remaining <= 0:
                    return count
                self._changed.wait(remaining)

    def close(self) -> None:
        """Close the file; waiters wake and get StoreError. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._changed.notify_all()
            self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EventStore({str(self.path)!r})"


def _iso(unix: float) -> str:
    return datetime.fromtimestamp(unix, UTC).isoformat(timespec="seconds")


def config_summary(config: GameConfigured) -> str:
    """One line for logs and the CLI: players by seat, variant, target."""
    return f"{', '.join(config.players)} · {config.variant} · {config.target}"
