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

Checkpoints: with few events the WAL never reaches SQLite's auto-checkpoint (1000
pages), so every game would live only in ``games.db-wal`` and a lost WAL would lose it.
The store checkpoints after each round (a ``round_started`` or the game's end), at a new
game and every ``checkpoint_s`` seconds while anything is unwritten. After every write
it notes in ``games.db.seen`` how many games and events it holds. At start-up a file
that holds fewer than that (its WAL lost or zeroed, the file replaced) or fails
``PRAGMA quick_check`` is reported (``StoreDamagedError``, with what to do), never
started over silently.

Backups: after every game (its end, or a new game) SQLite's online backup API copies
the store to ``games.db.backup`` (the one before it kept as ``games.db.backup.1``).

Disk full: the store keeps a reserve: ``reserve_bytes`` of pages inside the file (a
``reserve`` table) and a pre-allocated ``games.db.reserve`` file beside it, both made by
its background thread so that opening the store does not wait for them. When SQLite
reports the disk full, both are released and the append is tried again, so the score
goes on for many games while the recorder (which stops by itself) and the phones say
the disk is full (``status()``). A restart while the disk is full first removes the
reserve file, so SQLite has room to open its WAL, and makes it again if it can.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from scoring.events import Event, EventError, GameConfigured, RoundStarted, dumps, event_to_dict, loads, parse_event
from scoring.game import RuleError, fold

__all__ = [
    "EventStore",
    "StoreError",
    "StoreDamagedError",
    "StoreFullError",
    "UnknownGameError",
    "GameClosedError",
    "Event",
]

log = logging.getLogger("jasscam.store")


class StoreError(RuntimeError):
    """The store file cannot be used (not a database, newer schema, closed)."""


class UnknownGameError(StoreError, LookupError):
    """A game id that is not in the store."""


class StoreDamagedError(StoreError):
    """The file fails its integrity check or lost games it held; the message says what to do."""


class StoreFullError(StoreError, OSError):
    """The disk is full and the store's reserve is used up; nothing was stored.

    An OSError too, so the dashboard (which does not import jasscam) answers it as such.
    """


#: Pages kept free inside the store for a full disk (about 1 000 events, two or three games).
RESERVE_BYTES: Final[int] = 256 * 1024
#: Disk space kept beside the store, released for SQLite's WAL when the disk is full.
RESERVE_FILE_BYTES: Final[int] = 4 * 1024 * 1024
#: Longest time unwritten changes wait in the WAL for a checkpoint.
CHECKPOINT_S: Final[float] = 30.0


def _disk_full(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.Error) and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def damaged_advice(path: Path) -> str:
    """What to do with a damaged store (one line, for the console, the journal and the phones)."""
    return (
        f"stop jasscam, then run `jasscam store recover {path}` to salvage every readable event "
        f"into a new file (it uses {path.name}.backup too), or move {path.name}* away to start an empty store"
    )


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
    # 3: pages held in reserve for a full disk (see the module docstring).
    """
    CREATE TABLE IF NOT EXISTS reserve (
        id   INTEGER PRIMARY KEY,
        pad  BLOB NOT NULL
    );
    """,
)

SCHEMA_VERSION: Final[int] = len(MIGRATIONS)


def validation_errors() -> tuple[type[Exception], ...]:
    """The exceptions with which ``append`` rejects an event (schema, then rules)."""
    return (EventError, RuleError)


class EventStore:
    """Games and their events in one SQLite file; see the module docstring for why."""

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
        self.reserve_bytes = reserve_bytes
        self.reserve_file_bytes = reserve_file_bytes
        self.disk_full = False  # the reserve had to be used: the phones say so
        self._dirty = False  # committed changes not yet checkpointed into the main file
        self._reserve_file = self.path.with_name(self.path.name + ".reserve")
        self._seen_file = self.path.with_name(self.path.name + ".seen")
        self.backup_path = self.path.with_name(self.path.name + ".backup")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self._reserve_file.exists() and self._low_on_disk():
                # A restart on a full disk: give SQLite the reserve's room to open its WAL.
                self._reserve_file.unlink(missing_ok=True)
                self.disk_full = True
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10.0)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the event store {self.path}: {exc}") from exc
        try:
            self._db.execute("PRAGMA journal_mode=WAL").fetchone()
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            if max_pages is not None:
                self._db.execute(f"PRAGMA max_page_count = {int(max_pages)}").fetchone()
            if check:
                self._check_integrity()
            self._migrate()
            if check:
                self._check_not_forgotten()
            self._seen_counts = list(self._counts())
        except StoreError:
            self._db.close()
            raise
        except sqlite3.DatabaseError as exc:
            self._db.close()
            if _disk_full(exc):
                raise StoreFullError(f"the disk holding {self.path} is full: free some space (old recordings)") from exc
            raise StoreError(f"{self.path} is not a usable jasscam event store: {exc}") from exc
        self.reserve_ready = threading.Event()  # set once the reserve was made (or could not be)
        self._stop_timer = threading.Event()
        self._timer = threading.Thread(
            target=self._checkpoint_timer, args=(checkpoint_s,), name="store-checkpoint", daemon=True
        )
        self._timer.start()

    # -- start-up checks ----------------------------------------------------------------

    def _check_integrity(self) -> None:
        try:
            rows = self._db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            if "not a database" in str(exc) or "encrypted" in str(exc):
                raise  # not a store at all: reported as such by the caller
            rows = [(str(exc),)]
        problems = [str(r[0]) for r in rows if r and r[0] != "ok"]
        if problems:
            raise StoreDamagedError(
                f"the event store {self.path} is damaged ({problems[0]}"
                + (f" and {len(problems) - 1} more problems" if len(problems) > 1 else "")
                + f"); {damaged_advice(self.path)}"
            )

    def _counts(self) -> tuple[int, int]:
        games = int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])
        events = int(self._db.execute("SELECT count(*) FROM events").fetchone()[0])
        return games, events

    def _check_not_forgotten(self) -> None:
        """A store holding fewer games or events than it once had in its main file lost them."""
        try:
            seen = json.loads(self._seen_file.read_text(encoding="utf-8"))
            seen_games, seen_events = int(seen["games"]), int(seen["events"])
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("cannot read %s (%s); the store's game count is not compared", self._seen_file, exc)
            return
        games, events = self._counts()
        if games < seen_games or events < seen_events:
            raise StoreDamagedError(
                f"the event store {self.path} held {seen_games} games with {seen_events} events and now holds "
                f"{games} with {events} (was its -wal file lost or emptied?); {damaged_advice(self.path)}"
            )

    # -- reserve, checkpoints, backups ------------------------------------------------

    def _fill_reserve(self) -> None:
        """Make the reserve (pages in the file, space on the disk) unless it is there; a full disk just logs."""
        with self._lock:
            self._check_open()
            try:
                self._db.execute("BEGIN IMMEDIATE")  # another process may be making it too
                try:
                    have = int(self._db.execute("SELECT coalesce(sum(length(pad)), 0) FROM reserve").fetchone()[0])
                    if have < self.reserve_bytes:
                        self._db.execute("INSERT INTO reserve (pad) VALUES (zeroblob(?))", (self.reserve_bytes - have,))
                        self._dirty = True
                    self._db.execute("COMMIT")
                except BaseException:
                    self._rollback()
                    raise
            except sqlite3.Error as exc:
                log.warning("no reserve inside the event store %s: %s", self.path, exc)
            made = self._reserve_file.exists() and self._reserve_file.stat().st_size >= self.reserve_file_bytes
            if self.reserve_file_bytes > 0 and not made and not self._low_on_disk():
                try:
                    with open(self._reserve_file, "wb") as out:
                        os.posix_fallocate(out.fileno(), 0, self.reserve_file_bytes)
                except OSError as exc:
                    self._reserve_file.unlink(missing_ok=True)
                    log.warning("no disk reserve beside the event store %s: %s", self.path, exc)

    def _low_on_disk(self) -> bool:
        """Less free space than twice the reserve file: too little to make it, time to use it."""
        try:
            return shutil.disk_usage(self.path.parent).free < 2 * self.reserve_file_bytes
        except OSError:
            return False

    def _release_reserve(self) -> bool:
        """Free the reserve after SQLite reported the disk full; False if there was none left."""
        released = False
        if self._reserve_file.exists():
            self._reserve_file.unlink(missing_ok=True)
            released = True
        try:
            if self._db.execute("SELECT 1 FROM reserve LIMIT 1").fetchone() is not None:
                self._db.execute("DELETE FROM reserve")  # autocommit: frees its pages for events
                released = True
        except sqlite3.Error as exc:
            log.warning("cannot release the event store's reserve: %s", exc)
        if released and not self.disk_full:
            log.warning("the disk holding %s is full: the event store uses its reserve; free some space", self.path)
        self.disk_full = True
        return released

    def checkpoint(self) -> bool:
        """Copy the WAL into the main file (and note the counts in ``.seen``); False if it could not."""
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

    def _note_seen(self, games: int, events: int) -> None:
        """Note how many games and events the store holds now, for the start-up comparison.

        Counted in memory (another process's appends make the note low, never high) and
        written without fsync: after a power cut the note is at worst older, hence lower.
        """
        self._seen_counts = [self._seen_counts[0] + games, self._seen_counts[1] + events]
        tmp = self._seen_file.with_name(self._seen_file.name + ".tmp")
        try:
            tmp.write_text(
                json.dumps({"games": self._seen_counts[0], "events": self._seen_counts[1]}), encoding="utf-8"
            )
            tmp.replace(self._seen_file)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            log.warning("cannot write %s: %s", self._seen_file, exc)

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
        tmp = self.backup_path.with_name(self.backup_path.name + ".tmp")
        older = self.backup_path.with_name(self.backup_path.name + ".1")
        try:
            with self._lock:
                self._check_open()
                target = sqlite3.connect(tmp)
                try:
                    self._db.backup(target)
                finally:
                    target.close()
            if self.backup_path.exists():
                os.replace(self.backup_path, older)
            os.replace(tmp, self.backup_path)
        except (OSError, sqlite3.Error) as exc:
            tmp.unlink(missing_ok=True)
            log.warning("backup of %s failed: %s", self.path, exc)
            return None
        return self.backup_path

    def status(self) -> dict[str, Any]:
        """For the phones: whether the disk is full (the reserve is in use)."""
        return {"disk_full": self.disk_full}

    def _rollback(self) -> None:
        """ROLLBACK if a transaction is still open: SQLite ends it by itself after a full disk."""
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

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
            if version == 2 and not self._has_column("events", "by_hand"):
                # A version-2 store of a development build whose migration 2 made the reserve
                # (now migration 3, which tolerates the table being there): run 2 for real.
                version = 1
            # executescript commits first, so run each step in its own explicit transaction.
            script = f"BEGIN IMMEDIATE;\n{MIGRATIONS[version]}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
            try:
                self._db.executescript(script)
            except sqlite3.Error:
                self._rollback()
                if int(self._db.execute("PRAGMA user_version").fetchone()[0]) > version:
                    continue
                raise

    def _has_column(self, table: str, column: str) -> bool:
        return any(row[1] == column for row in self._db.execute(f"PRAGMA table_info({table})").fetchall())

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

    def times(self, game_id: int) -> list[float]:
        """Per position: when the event was stored (unix seconds); the statistics' time played."""
        with self._lock:
            self._check_open()
            self._load(game_id)
            rows = self._db.execute(
                "SELECT stored FROM events WHERE game_id = ? ORDER BY position", (game_id,)
            ).fetchall()
            return [float(v) for (v,) in rows]

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
            rows = self._db.execute("SELECT id, created, abandoned FROM games ORDER BY id").fetchall()
            for game_id, created, abandoned in rows:
                events = self._load(int(game_id))
                row: dict[str, Any] = {
                    "id": int(game_id),
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

    def _validate(self, events: list[Event]) -> Any:
        """The folded game; raise EventError or the rules engine's RuleError if the list is not a valid game."""
        if not events or not isinstance(events[0], GameConfigured):
            raise EventError("a game starts with exactly one game_configured event")
        if any(isinstance(e, GameConfigured) for e in events[1:]):
            raise EventError("a game has only one game_configured event; start a new game instead")
        return fold(events)

    def _insert(self, game_id: int, position: int, event: Event, by_hand: bool | None) -> None:
        self._db.execute(
            "INSERT INTO events (game_id, position, type, body, stored, by_hand) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, position, event.type, dumps(event), time.time(), None if by_hand is None else int(by_hand)),
        )

    def new_game(self, config: GameConfigured) -> int:
        """Create a game whose first event is ``config``; it becomes the current game."""
        if not isinstance(config, GameConfigured):
            raise EventError(f"a game starts with a game_configured event, got {type(config).__name__}")
        self._validate([config])
        with self._lock:
            self._check_open()
            had_games = self.current_game() is not None

            def work() -> int:
                cur = self._db.execute("INSERT INTO games (created) VALUES (?)", (time.time(),))
                game_id = int(cur.lastrowid or 0)
                self._insert(game_id, 0, config, True)
                return game_id

            game_id = self._write(work)
            self._note_seen(1, 1)
            self._cache[game_id] = [config]
            self._changed.notify_all()
        self.checkpoint()
        if had_games:
            self.backup()  # the game before has ended (or was left): keep a copy of it
        return game_id

    def _write(self, work: Any) -> Any:
        """Run ``work`` in one write transaction; on a full disk release the reserve and try once more."""
        for attempt in range(2):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                result = work()
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                if _disk_full(exc):
                    if attempt == 0 and self._release_reserve():
                        continue
                    raise StoreFullError(
                        f"the disk holding {self.path} is full and the store's reserve is used up; "
                        "nothing was stored: free some space (delete old recordings)"
                    ) from exc
                raise
            except BaseException:
                self._rollback()
                raise
            self._dirty = True
            return result
        raise AssertionError("unreachable")  # pragma: no cover

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
            checked: list[Any] = []

            def work() -> int:
                if self._db.execute("SELECT abandoned FROM games WHERE id = ?", (game_id,)).fetchone() not in (
                    None,
                    (None,),
                ):
                    raise GameClosedError(f"game {game_id} was abandoned; events go to the game that replaced it")
                existing = self._load(game_id)  # re-checked against the file inside the lock
                state = self._validate([*existing, event])
                checked[:] = [existing, state]
                position = len(existing)
                self._insert(game_id, position, event, by_hand)
                return position

            position = int(self._write(work))
            self._note_seen(0, 1)
            existing, state = checked
            existing.append(event)
            self._changed.notify_all()
        if isinstance(event, RoundStarted):
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
                self._db.execute(
                    "INSERT INTO games (id, created, abandoned) VALUES (?, ?, ?)",
                    (game_id, created or time.time(), abandoned),
                )
                for position, (event, mark) in enumerate(zip(events, marks, strict=False)):
                    self._insert(game_id, position, event, mark)

            self._write(work)
            self._note_seen(1, len(events))
            self._cache[game_id] = list(events)
            self._changed.notify_all()

    def abandon(self, game_id: int) -> None:
        """Close an unfinished game: it stays readable, but is no longer the current game.

        Raises StoreError for a game the rules engine already ended (it is finished, not
        abandoned); abandoning twice keeps the first time.
        """
        with self._lock:
            self._check_open()
            if self._finished(self._load(game_id)):
                raise StoreError(f"game {game_id} is already over; it cannot be abandoned")
            self._write(
                lambda: self._db.execute(
                    "UPDATE games SET abandoned = coalesce(abandoned, ?) WHERE id = ?", (time.time(), game_id)
                )
            )
            self._changed.notify_all()

    def delete_game(self, game_id: int) -> None:
        """Remove a game and all its events for good (the table asked for it)."""
        with self._lock:
            self._check_open()
            count = len(self._load(game_id))  # UnknownGameError for a game that is not there

            def work() -> None:
                self._db.execute("UPDATE games SET deleting = 1 WHERE id = ?", (game_id,))
                self._db.execute("DELETE FROM events WHERE game_id = ?", (game_id,))
                self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))

            self._write(work)
            self._note_seen(-1, -count)  # deleted on purpose: not lost, so the start-up check must not miss it
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
