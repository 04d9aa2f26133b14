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

The parts: ``event_store`` (``EventStore``: the lock, the cache, the write transaction,
when to checkpoint and back up), ``queries`` (every statement on games and events),
``schema`` (the tables and their migrations), ``safety`` (the start-up checks, the
reserve, the backup) and ``errors``.
"""

from __future__ import annotations

from jasscam.store.errors import (
    GameClosedError,
    StoreDamagedError,
    StoreError,
    StoreFullError,
    UnknownGameError,
    damaged_advice,
)
from jasscam.store.event_store import (
    CHECKPOINT_S,
    RESERVE_BYTES,
    RESERVE_FILE_BYTES,
    EventStore,
    config_summary,
    validation_errors,
)
from jasscam.store.schema import MIGRATIONS, SCHEMA_VERSION
from scoring.events import Event

__all__ = [
    "CHECKPOINT_S",
    "MIGRATIONS",
    "RESERVE_BYTES",
    "RESERVE_FILE_BYTES",
    "SCHEMA_VERSION",
    "Event",
    "EventStore",
    "GameClosedError",
    "StoreDamagedError",
    "StoreError",
    "StoreFullError",
    "UnknownGameError",
    "config_summary",
    "damaged_advice",
    "validation_errors",
]
