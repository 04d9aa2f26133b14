"""``EventStore``: the games' events in one SQLite file, appended only after they fold.

The why of its shape (durability, validation, concurrency, checkpoints, backups, the
reserve) is the package docstring's (``jasscam.store``). This class is the policy: one
connection behind one lock, a cache of each game's events checked against the file, a
write transaction that falls back on the reserve, and the moments it checkpoints and
backs up. The statements are in ``queries``, the tables in ``schema``, the guards in
``safety``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TypeVar

from jasscam.store import queries
from jasscam.store.errors import GameClosedError, StoreError, StoreFullError, is_disk_full
from jasscam.store.safety import Reserve, SeenNote, backup, check_integrity
from jasscam.store.schema import migrate, rollback
from scoring.events import Event, EventError, GameConfigured, RoundStarted, event_to_dict, parse_event
from scoring.game import GameState, RuleError, fold

log = logging.getLogger("jasscam.store")

#: Pages kept free inside the store for a full disk (about 1 000 events, two or three games).
RESERVE_BYTES: Final[int] = 256 * 1024
#: Disk space kept beside the store, released for SQLite's WAL when the disk is full.
RESERVE_FILE_BYTES: Final[int] = 4 * 1024 * 1024
#: Longest time unwritten changes wait in the WAL for a checkpoint.
CHECKPOINT_S: Final[float] = 30.0

T = TypeVar("T")


def validation_errors() -> tuple[type[Exception], ...]:
    """The exceptions with which ``append`` rejects an event (schema, then rules)."""
    return (EventError, RuleError)


class EventStore:
    """Games and their events in one SQLite file; see the package docstring for why."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        reserve_bytes: int = RESERVE_BYTES,
        reserve_file_bytes: int = RESERVE_FILE_BYTES,
        checkpoint_s: float = CHECKPOINT_S,
        max_pages: int | None = None,
        check: bool = True,
    ) -> None:
        """Open (or create) the store at ``path``.

        ``max_pages`` caps the file (SQLite's ``max_page_count``; how tests make a full
        disk). ``check=False`` skips the start-up integrity report (``jasscam store``).
        """
        self.path = Path(path)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._cache: dict[int, list[Event]] = {}
        self._closed = False
        self._reserve = Reserve(self.path, reserve_bytes, reserve_file_bytes)
        self._seen = SeenNote(self.path)
        self.disk_full = False  # the reserve had to be used: the phones say so
        self._dirty = False  # committed changes not yet checkpointed into the main file
        self.backup_path = self.path.with_name(self.path.name + ".backup")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self._reserve.file.exists() and self._reserve.low_on_disk():
                # A restart on a full disk: give SQLite the reserve's room to open its WAL.
                self._reserve.file.unlink(missing_ok=True)
                self.disk_full = True
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the event store {self.path}: {exc}") from exc
        try:
            self._open(max_pages, check)
        except StoreError:
            self._db.close()
            raise
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if is_disk_full(exc):
                raise StoreFullError(f"the disk holding {self.path} is full: free some space (old recordings)") from exc
            raise StoreError(f"{self.path} is not a usable jasscam event store: {exc}") from exc
        self.reserve_ready = threading.Event()  # set once the reserve was made (or could not be)
        self._stop_timer = threading.Event()
        self._timer = threading.Thread(
            target=self._checkpoint_timer, args=(checkpoint_s,), name="store-checkpoint", daemon=True
        )
        self._timer.start()

    def _open(self, max_pages: int | None, check: bool) -> None:
        """Durable settings, the start-up checks and the migrations, on the fresh connection."""
        self._db.execute("PRAGMA journal_mode=WAL").fetchone()
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        if max_pages is not None:
            self._db.execute(f"PRAGMA max_page_count = {int(max_pages)}").fetchone()
        if check:
            check_integrity(self._db, self.path)
        migrate(self._db, self.path)
        if check:
            self._seen.check(self._db)
        self._seen.counts = list(queries.totals(self._db))

    # -- reserve, checkpoints, backups ------------------------------------------------

    def _fill_reserve(self) -> None:
        with self._lock:
            self._check_open()
            if self._reserve.fill(self._db):
                self._dirty = True

    def _release_reserve(self) -> bool:
        released = self._reserve.release(self._db)
        if released and not self.disk_full:
            log.warning("the disk holding %s is full: the event store uses its reserve; free some space", self.path)
        self.disk_full = True
        return released

    def checkpoint(self) -> bool:
        """Copy the WAL into the main file; False if it could not."""
        with self._lock:
            if self._closed:
                return False
            try:
                busy, _, _ = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                if busy:
                    return False
            except sqlite3.Error as exc:
                log.warning("checkpoint of %s failed: %s", self.path, exc)
                return False
            self._dirty = False
        return True

    def _checkpoint_timer(self, interval: float) -> None:
        """The store's background thread: make the reserve (off the start-up path), then checkpoint on a timer."""
        try:
            if not self._stop_timer.is_set():
                self._fill_reserve()
        except StoreError:  # closed meanwhile
            pass
        finally:
            self.reserve_ready.set()
        while not self._stop_timer.wait(interval):
            if self._dirty:
                self.checkpoint()

    def backup(self) -> Path | None:
        """Copy the store with SQLite's backup API to ``games.db.backup`` (keeping the one before); None on failure."""
        try:
            with self._lock:
                self._check_open()
                backup(self._db, self.backup_path)
        except (OSError, sqlite3.Error) as exc:
            log.warning("backup of %s failed: %s", self.path, exc)
            return None
        return self.backup_path

    def status(self) -> dict[str, Any]:
        """For the phones: whether the disk is full (the reserve is in use)."""
        return {"disk_full": self.disk_full}

    @property
    def schema_version(self) -> int:
        with self._lock:
            self._check_open()
            return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    # -- reading ----------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError(f"the event store {self.path} is closed")

    def _load(self, game_id: int) -> list[Event]:
        """The game's events, from the cache when it matches the file."""
        cached = self._cache.get(game_id)
        if cached is not None and len(cached) == queries.event_count(self._db, game_id):
            return cached
        events = queries.read_events(self._db, game_id, self.path)
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
            return queries.current_game(self._db)

    def by_hand(self, game_id: int) -> list[bool | None]:
        """Per position: True if a phone wrote the event, False the camera, None if stored unmarked."""
        with self._lock:
            self._check_open()
            self._load(game_id)  # UnknownGameError for a game that is not there
            return queries.by_hand(self._db, game_id)

    def times(self, game_id: int) -> list[float]:
        """Per position: when the event was stored (unix seconds); the statistics' time played."""
        with self._lock:
            self._check_open()
            self._load(game_id)
            return queries.stored_times(self._db, game_id)

    def abandoned(self, game_id: int) -> str | None:
        """When the table ended the game unfinished (ISO 8601, UTC), or None."""
        with self._lock:
            self._check_open()
            when = queries.abandoned_at(self._db, game_id, self.path)
        return None if when is None else _iso(when)

    def games(self) -> list[dict[str, Any]]:
        """One summary per game, oldest first.

        Keys: ``id``, ``created`` (ISO 8601, UTC), ``config`` (the game_configured event
        as JSON), ``events`` (count), ``finished`` (the rules engine says the game is over),
        ``abandoned`` (ISO 8601 when the table ended it unfinished, else None).
        """
        return self._listing(finished=True)

    def catalog(self) -> list[dict[str, Any]]:
        """What ``games`` says without folding a game: ``id``, ``created``, ``config``,
        ``events``, ``abandoned``; oldest first. The statistics fold each game themselves
        and only when it changed, so a list of many games stays quick."""
        return self._listing(finished=False)

    def _listing(self, *, finished: bool) -> list[dict[str, Any]]:
        """Every game's row, oldest first; ``finished`` folds each one to say whether it is over."""
        with self._lock:
            self._check_open()
            out = []
            for game_id, created, abandoned in queries.game_rows(self._db):
                events = self._load(game_id)
                row: dict[str, Any] = {
                    "id": game_id,
                    "created": _iso(created),
                    "config": event_to_dict(events[0]) if events else None,
                    "events": len(events),
                }
                if finished:
                    row["finished"] = self._finished(events)
                row["abandoned"] = None if abandoned is None else _iso(abandoned)
                out.append(row)
            return out

    def _finished(self, events: list[Event]) -> bool:
        try:
            return fold(events).game_over is not None
        except (EventError, RuleError):  # stored games always folded once; a newer engine may disagree
            return False

    # -- writing ----------------------------------------------------------------------

    def _validate(self, events: list[Event]) -> GameState:
        """The folded game; raise EventError or the rules engine's RuleError if the list is not a valid game."""
        if not events or not isinstance(events[0], GameConfigured):
            raise EventError("a game starts with exactly one game_configured event")
        if any(isinstance(e, GameConfigured) for e in events[1:]):
            raise EventError("a game has only one game_configured event; start a new game instead")
        return fold(events)

    def _write(self, work: Callable[[], T]) -> T:
        """Run ``work`` in one write transaction; on a full disk release the reserve and try once more."""
        for attempt in range(2):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                result = work()
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                rollback(self._db)
                if is_disk_full(exc):
                    if attempt == 0 and self._release_reserve():
                        continue
                    raise StoreFullError(
                        f"the disk holding {self.path} is full and the store's reserve is used up; "
                        "nothing was stored: free some space (delete old recordings)"
                    ) from exc
                raise
            except BaseException:
                rollback(self._db)
                raise
            self._dirty = True
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    def _changed_by(self, games: int, events: int) -> None:
        """After a write: note the new counts for the start-up check and wake the waiters."""
        self._seen.note(games, events)
        self._changed.notify_all()

    def new_game(self, config: GameConfigured) -> int:
        """Create a game whose first event is ``config``; it becomes the current game."""
        if not isinstance(config, GameConfigured):
            raise EventError(f"a game starts with a game_configured event, got {type(config).__name__}")
        self._validate([config])
        with self._lock:
            self._check_open()
            had_games = self.current_game() is not None

            def work() -> int:
                game_id = queries.add_game(self._db)
                queries.add_event(self._db, game_id, 0, config, True)
                return game_id

            game_id = self._write(work)
            self._cache[game_id] = [config]
            self._changed_by(1, 1)
        self.checkpoint()
        if had_games:
            self.backup()  # the game before has ended (or was left): keep a copy of it
        return game_id

    def append(self, game_id: int, event: Event | Mapping[str, Any], *, by_hand: bool = False) -> int:
        """Append one event after checking the game still folds; return its position.

        A dict is parsed with ``scoring.events.parse_event`` first. ``EventError`` and the
        rules engine's ``RuleError`` propagate unchanged and nothing is stored.
        ``by_hand``: the table wrote it (a phone), not the camera.
        """
        if isinstance(event, Mapping):
            event = parse_event(dict(event))
        new = event
        with self._lock:
            self._check_open()

            def work() -> tuple[int, list[Event], GameState]:
                if queries.is_abandoned(self._db, game_id):
                    raise GameClosedError(f"game {game_id} was abandoned; events go to the game that replaced it")
                existing = self._load(game_id)  # re-checked against the file inside the lock
                state = self._validate([*existing, new])
                position = len(existing)
                queries.add_event(self._db, game_id, position, new, by_hand)
                return position, existing, state

            position, existing, state = self._write(work)
            existing.append(new)
            self._changed_by(0, 1)
        if isinstance(new, RoundStarted):
            self.checkpoint()  # a round ended: its tricks go into the main file
        elif state.game_over is not None:
            self.checkpoint()
            self.backup()
        return position

    def import_game(
        self,
        game_id: int,
        created: float | None,
        events: list[Event],
        by_hand: list[bool | None] | None = None,
        abandoned: float | None = None,
    ) -> None:
        """Store a whole game under its old id and creation time (``jasscam store recover``); it must fold.

        ``by_hand`` (per event; None where unknown) and ``abandoned`` keep what the old
        store said about who wrote each event and whether the table left the game.
        """
        self._validate(events)
        marks = list(by_hand or [])
        marks += [None] * (len(events) - len(marks))
        with self._lock:
            self._check_open()

            def work() -> None:
                queries.restore_game(self._db, game_id, created, abandoned)
                for position, (event, mark) in enumerate(zip(events, marks, strict=False)):
                    queries.add_event(self._db, game_id, position, event, mark)

            self._write(work)
            self._cache[game_id] = list(events)
            self._changed_by(1, len(events))

    def abandon(self, game_id: int) -> None:
        """Close an unfinished game: it stays readable, but is no longer the current game.

        Raises StoreError for a game the rules engine already ended (it is finished, not
        abandoned); abandoning twice keeps the first time.
        """
        with self._lock:
            self._check_open()
            if self._finished(self._load(game_id)):
                raise StoreError(f"game {game_id} is already over; it cannot be abandoned")
            self._write(lambda: queries.mark_abandoned(self._db, game_id))
            self._changed.notify_all()

    def delete_game(self, game_id: int) -> None:
        """Remove a game and all its events for good (the table asked for it)."""
        with self._lock:
            self._check_open()
            count = len(self._load(game_id))  # UnknownGameError for a game that is not there
            self._write(lambda: queries.delete_game(self._db, game_id))
            self._cache.pop(game_id, None)
            self._changed_by(-1, -count)  # deleted on purpose: not lost, so the start-up check must not miss it

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
            self._stop_timer.set()
            if self._dirty:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
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


__all__ = [
    "CHECKPOINT_S",
    "RESERVE_BYTES",
    "RESERVE_FILE_BYTES",
    "EventStore",
    "config_summary",
    "validation_errors",
]
