"""What keeps the store's games through a damaged file, a lost WAL and a full disk.

Three guards, each of them a file's worth of care that the store's reads and writes
need not see:

- the start-up checks: ``PRAGMA quick_check``, and the note ``games.db.seen`` of how
  many games and events the store held, so a file that now holds fewer (its WAL lost or
  zeroed, the file replaced) is reported, never started over silently;
- the reserve: pages inside the file and a pre-allocated file beside it, released when
  SQLite reports the disk full, so the score goes on for a few more games;
- the backup: SQLite's online backup API after every game, the one before kept.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import sqlite3
from pathlib import Path

from jasscam.store.errors import StoreDamagedError, damaged_advice
from jasscam.store.queries import totals
from jasscam.store.schema import rollback

log = logging.getLogger("jasscam.store")


def check_integrity(db: sqlite3.Connection, path: Path) -> None:
    """StoreDamagedError if SQLite's quick check finds the file damaged; a file that is no
    database at all is left to the caller's error (it is not a store, not a damaged one)."""
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        if "not a database" in str(exc) or "encrypted" in str(exc):
            raise
        rows = [(str(exc),)]
    problems = [str(r[0]) for r in rows if r and r[0] != "ok"]
    if problems:
        raise StoreDamagedError(
            f"the event store {path} is damaged ({problems[0]}"
            + (f" and {len(problems) - 1} more problems" if len(problems) > 1 else "")
            + f"); {damaged_advice(path)}"
        )


class SeenNote:
    """``games.db.seen``: how many games and events the store held, for the start-up comparison."""

    def __init__(self, store: Path) -> None:
        self.store = store
        self.file = store.with_name(store.name + ".seen")
        self.counts = [0, 0]

    def check(self, db: sqlite3.Connection) -> None:
        """A store holding fewer games or events than it once had in its main file lost them."""
        try:
            seen = json.loads(self.file.read_text(encoding="utf-8"))
            seen_games, seen_events = int(seen["games"]), int(seen["events"])
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("cannot read %s (%s); the store's game count is not compared", self.file, exc)
            return
        games, events = totals(db)
        if games < seen_games or events < seen_events:
            raise StoreDamagedError(
                f"the event store {self.store} held {seen_games} games with {seen_events} events and now holds "
                f"{games} with {events} (was its -wal file lost or emptied?); {damaged_advice(self.store)}"
            )

    def note(self, games: int, events: int) -> None:
        """Note how many games and events the store holds now, ``games`` and ``events`` more than before.

        Counted in memory (another process's appends make the note low, never high) and
        written without fsync: after a power cut the note is at worst older, hence lower.
        """
        self.counts = [self.counts[0] + games, self.counts[1] + events]
        tmp = self.file.with_name(self.file.name + ".tmp")
        try:
            tmp.write_text(json.dumps({"games": self.counts[0], "events": self.counts[1]}), encoding="utf-8")
            tmp.replace(self.file)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            log.warning("cannot write %s: %s", self.file, exc)


class Reserve:
    """Room kept for a full disk: ``pages`` bytes inside the store, ``file_bytes`` beside it."""

    def __init__(self, store: Path, pages: int, file_bytes: int) -> None:
        self.store = store
        self.pages = pages
        self.file_bytes = file_bytes
        self.file = store.with_name(store.name + ".reserve")

    def low_on_disk(self) -> bool:
        """Less free space than twice the reserve file: too little to make it, time to use it."""
        try:
            return shutil.disk_usage(self.store.parent).free < 2 * self.file_bytes
        except OSError:
            return False

    def fill(self, db: sqlite3.Connection) -> bool:
        """Make the reserve unless it is there; a full disk just logs. True if pages were written."""
        wrote = False
        try:
            db.execute("BEGIN IMMEDIATE")  # another process may be making it too
            try:
                have = int(db.execute("SELECT coalesce(sum(length(pad)), 0) FROM reserve").fetchone()[0])
                if have < self.pages:
                    db.execute("INSERT INTO reserve (pad) VALUES (zeroblob(?))", (self.pages - have,))
                    wrote = True
                db.execute("COMMIT")
            except BaseException:
                rollback(db)
                raise
        except sqlite3.Error as exc:
            log.warning("no reserve inside the event store %s: %s", self.store, exc)
        made = self.file.exists() and self.file.stat().st_size >= self.file_bytes
        if self.file_bytes > 0 and not made and not self.low_on_disk():
            try:
                with open(self.file, "wb") as out:
                    os.posix_fallocate(out.fileno(), 0, self.file_bytes)
            except OSError as exc:
                self.file.unlink(missing_ok=True)
                log.warning("no disk reserve beside the event store %s: %s", self.store, exc)
        return wrote

    def release(self, db: sqlite3.Connection) -> bool:
        """Free the reserve after SQLite reported the disk full; False if there was none left."""
        released = False
        if self.file.exists():
            self.file.unlink(missing_ok=True)
            released = True
        try:
            if db.execute("SELECT 1 FROM reserve LIMIT 1").fetchone() is not None:
                db.execute("DELETE FROM reserve")  # autocommit: frees its pages for events
                released = True
        except sqlite3.Error as exc:
            log.warning("cannot release the event store's reserve: %s", exc)
        return released


def backup(db: sqlite3.Connection, target: Path) -> None:
    """Copy the store with SQLite's backup API to ``target``, the one before kept as ``target.1``.

    The copy is made beside it first, so a failed backup never replaces a good one. The
    caller holds the store's lock and handles OSError and sqlite3.Error.
    """
    tmp = target.with_name(target.name + ".tmp")
    older = target.with_name(target.name + ".1")
    try:
        with contextlib.closing(sqlite3.connect(tmp)) as copy:
            db.backup(copy)
        if target.exists():
            os.replace(target, older)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


__all__ = ["Reserve", "SeenNote", "backup", "check_integrity"]
