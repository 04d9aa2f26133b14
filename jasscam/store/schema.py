"""The store's tables, and the numbered migrations that bring an older file up to them.

``PRAGMA user_version`` holds the file's schema version; each migration is one SQL
script, run in its own transaction, so a file is always at one version or the next and
a jasscam never reads a newer file than it knows.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Final

from jasscam.store.errors import StoreError

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


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the schema up to ``SCHEMA_VERSION``, one migration per transaction.

    The pipeline and the dashboard open the same file, often at the same moment on a
    fresh state directory: both read version 0, one migrates, and the other, let in
    once the first commits, finds the tables made. A step that fails while the
    version moved on meanwhile was done by the other process; read it again.
    """
    while True:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{path} has schema version {version}, newer than this jasscam "
                f"({SCHEMA_VERSION}); upgrade jasscam or use another state directory"
            )
        if version == SCHEMA_VERSION:
            return
        if version == 2 and not has_column(db, "events", "by_hand"):
            # A version-2 store of a development build whose migration 2 made the reserve
            # (now migration 3, which tolerates the table being there): run 2 for real.
            version = 1
        # executescript commits first, so run each step in its own explicit transaction.
        script = f"BEGIN IMMEDIATE;\n{MIGRATIONS[version]}\nPRAGMA user_version = {version + 1};\nCOMMIT;"
        try:
            db.executescript(script)
        except sqlite3.Error:
            rollback(db)
            if int(db.execute("PRAGMA user_version").fetchone()[0]) > version:
                continue
            raise


def has_column(db: sqlite3.Connection, table: str, column: str) -> bool:
    """Whether ``table`` has ``column`` (how a migration tells a half-known file apart)."""
    return any(row[1] == column for row in db.execute(f"PRAGMA table_info({table})").fetchall())


def rollback(db: sqlite3.Connection) -> None:
    """ROLLBACK if a transaction is still open: SQLite ends it by itself after a full disk."""
    if db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "has_column", "migrate", "rollback"]
