"""What the event store raises, and the one line that says what to do with a damaged file.

The dashboard does not import jasscam, so each error is also the plain Python error a
caller there already handles: ``StoreFullError`` is an ``OSError``, ``GameClosedError``
an ``EventError``, ``UnknownGameError`` a ``LookupError``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from scoring.events import EventError


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


class GameClosedError(StoreError, EventError):
    """An event for a game the table abandoned: it is closed, nothing more is added.

    Also an ``EventError``, so every writer that refuses a bad event (the pipeline, the
    dashboard, the demo's table script) refuses this one the same way.
    """


def is_disk_full(exc: BaseException) -> bool:
    """Whether SQLite failed because the disk (or the file's page cap) is full."""
    return isinstance(exc, sqlite3.Error) and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def damaged_advice(path: Path) -> str:
    """What to do with a damaged store (one line, for the console, the journal and the phones)."""
    return (
        f"stop jasscam, then run `jasscam store recover {path}` to salvage every readable event "
        f"into a new file (it uses {path.name}.backup too), or move {path.name}* away to start an empty store"
    )


__all__ = [
    "GameClosedError",
    "StoreDamagedError",
    "StoreError",
    "StoreFullError",
    "UnknownGameError",
    "damaged_advice",
    "is_disk_full",
]
