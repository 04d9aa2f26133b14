"""Check a damaged event store and salvage every readable event into a new one.

Why not SQLite's ``.recover``: Python's sqlite3 module does not ship it, and a salvaged
game must still fold. So the damaged file is read row by row by key (a page that cannot
be read costs only the rows on it), each game keeps the longest prefix of its events
that is readable and folds, and the backup (``games.db.backup``, SQLite's backup API
after every game) is read the same way: per game the source with more good events wins.
Positions stay what they were, so every ``ref`` in a correction or an undo still points
at the right event. Events after the first unreadable one of a game are counted as
lost, since without their predecessors they cannot be placed.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from jasscam.store import EventStore, StoreError
from scoring.events import Event, EventError, GameConfigured, loads
from scoring.game import RuleError, fold

#: Game ids tried one by one when the games table itself cannot be read.
MAX_BLIND_GAMES = 10_000


@dataclass
class Salvaged:
    """One game as read from one source: its good events and how many rows were lost after them."""

    game_id: int
    created: float | None
    events: list[Event]
    lost: int = 0
    source: str = ""
    by_hand: list[bool | None] = field(default_factory=list)  # per event; None where the store did not say
    abandoned: float | None = None


@dataclass
class Report:
    """What ``check`` or ``recover`` found; ``problems`` is empty for a healthy store."""

    path: Path
    problems: list[str] = field(default_factory=list)
    games: list[Salvaged] = field(default_factory=list)

    @property
    def events(self) -> int:
        return sum(len(g.events) for g in self.games)

    @property
    def lost(self) -> int:
        return sum(g.lost for g in self.games)


def _open_readonly(path: Path) -> sqlite3.Connection:
    """Open without changing the file (no migration, no checkpoint): ``mode=ro`` keeps the WAL as it is."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)


def integrity_problems(db: sqlite3.Connection) -> list[str]:
    try:
        return [str(r[0]) for r in db.execute("PRAGMA quick_check").fetchall() if r and r[0] != "ok"]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]


def _game_ids(db: sqlite3.Connection) -> dict[int, float | None]:
    for query in ("SELECT id, created FROM games ORDER BY id", "SELECT DISTINCT game_id, NULL FROM events ORDER BY 1"):
        try:
            return {int(i): (float(c) if c is not None else None) for i, c in db.execute(query).fetchall()}
        except sqlite3.DatabaseError:
            continue
    ids: dict[int, float | None] = {}
    for game_id in range(1, MAX_BLIND_GAMES + 1):  # blind: look each one up by key
        try:
            if db.execute("SELECT 1 FROM events WHERE game_id = ? AND position = 0", (game_id,)).fetchone():
                ids[game_id] = None
        except sqlite3.DatabaseError:
            continue
    return ids


def _row_count(db: sqlite3.Connection, game_id: int) -> int | None:
    try:
        return int(db.execute("SELECT max(position) + 1 FROM events WHERE game_id = ?", (game_id,)).fetchone()[0] or 0)
    except sqlite3.DatabaseError:
        return None


def salvage_game(db: sqlite3.Connection, game_id: int, created: float | None, source: str) -> Salvaged:
    """The longest prefix of the game's events that can be read and still folds."""
    events: list[Event] = []
    marks: list[bool | None] = []
    marked = _has_column(db, "events", "by_hand")  # a store older than schema 2 did not note who wrote what
    query = f"SELECT body, {'by_hand' if marked else 'NULL'} FROM events WHERE game_id = ? AND position = ?"
    while True:  # read by key, one row at a time: a bad page costs only its own rows
        try:
            row = db.execute(query, (game_id, len(events))).fetchone()
        except sqlite3.DatabaseError:
            break
        if row is None:
            break
        try:
            event = loads(str(row[0]))
        except (EventError, ValueError, TypeError):
            break
        if (not events) != isinstance(event, GameConfigured):
            break
        events.append(event)
        marks.append(None if row[1] is None else bool(row[1]))
    events = events[: _folding_prefix(events)]
    total = _row_count(db, game_id)  # None when even the count cannot be read
    lost = max(0, total - len(events)) if total is not None else 0
    return Salvaged(game_id, created, events, lost, source, marks[: len(events)], _abandoned(db, game_id))


def _has_column(db: sqlite3.Connection, table: str, column: str) -> bool:
    try:
        return any(row[1] == column for row in db.execute(f"PRAGMA table_info({table})").fetchall())
    except sqlite3.DatabaseError:
        return False


def _abandoned(db: sqlite3.Connection, game_id: int) -> float | None:
    """When the table left the game unfinished, if the store says so and can still be read there."""
    if not _has_column(db, "games", "abandoned"):
        return None
    try:
        row = db.execute("SELECT abandoned FROM games WHERE id = ?", (game_id,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    return None if row is None or row[0] is None else float(row[0])


def _folds(events: list[Event]) -> bool:
    try:
        fold(events)
    except (EventError, RuleError):
        return False
    return True


def _folding_prefix(events: list[Event]) -> int:
    """Length of the longest prefix that folds: a refused event refuses every longer prefix, so bisect."""
    if _folds(events):
        return len(events)
    good, bad = 0, len(events)  # events[:good] folds (the empty list trivially), events[:bad] does not
    while bad - good > 1:
        mid = (good + bad) // 2
        if _folds(events[:mid]):
            good = mid
        else:
            bad = mid
    return good


def read_store(path: Path, source: str) -> tuple[list[Salvaged], list[str]]:
    """Every game readable from ``path`` (a store or its backup), and the integrity problems found."""
    try:
        db = _open_readonly(path)
    except sqlite3.Error as exc:
        return [], [f"{path}: {exc}"]
    with closing(db):
        problems = integrity_problems(db)
        try:
            ids = _game_ids(db)
        except sqlite3.DatabaseError as exc:
            return [], [*problems, f"{path}: {exc}"]
        return [salvage_game(db, i, c, source) for i, c in ids.items()], problems


def check(path: Path) -> Report:
    """Read the whole store: integrity, every game readable and folding."""
    report = Report(path)
    if not path.exists():
        report.problems.append(f"{path} does not exist")
        return report
    games, problems = read_store(path, "store")
    report.problems += problems
    report.games = games
    for game in games:
        if game.lost:
            report.problems.append(f"game {game.game_id}: {game.lost} events cannot be read or do not fold")
    seen = _seen(path)
    if seen is not None and (len(games) < seen[0] or report.events < seen[1]):
        report.problems.append(
            f"it held {seen[0]} games with {seen[1]} events and {len(games)} with {report.events} can be read "
            "(was its -wal file lost or emptied?)"
        )
    return report


def _seen(path: Path) -> tuple[int, int] | None:
    """The counts the store last noted after a checkpoint (``games.db.seen``), if any."""
    try:
        data = json.loads(path.with_name(path.name + ".seen").read_text(encoding="utf-8"))
        return int(data["games"]), int(data["events"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def best_games(*sources: list[Salvaged]) -> list[Salvaged]:
    """Per game id the salvage with the most good events (the damaged file wins ties: it is newer)."""
    best: dict[int, Salvaged] = {}
    for games in sources:
        for game in games:
            if game.game_id not in best or len(game.events) > len(best[game.game_id].events):
                best[game.game_id] = game
    return [best[i] for i in sorted(best)]


def recover(path: Path, target: Path | None = None) -> tuple[Report, Path]:
    """Salvage ``path`` (and its backup) into a new store; in place unless ``target`` is given.

    In place, the damaged file and its companions are kept as ``<name>.damaged-<time>*``
    and the salvaged store takes its name. Raises StoreError if nothing can be read.
    """
    report = Report(path)
    games, problems = read_store(path, "store") if path.exists() else ([], [f"{path} does not exist"])
    report.problems += problems
    backup = path.with_name(path.name + ".backup")
    backup_games, _ = read_store(backup, "backup") if backup.exists() else ([], [])
    report.games = [g for g in best_games(games, backup_games) if g.events]
    if not report.games and not games:
        raise StoreError(f"nothing readable in {path} or {backup}; nothing was changed")
    out = target or path.with_name(f"{path.name}.recovered-{time.strftime('%Y%m%dT%H%M%S')}")
    if out.exists():
        raise StoreError(f"{out} exists already; choose another target")
    with EventStore(out, reserve_bytes=0, reserve_file_bytes=0) as store:
        for game in report.games:
            store.import_game(game.game_id, game.created, game.events, game.by_hand, game.abandoned)
        store.checkpoint()
    if target is None:
        stamp = time.strftime("%Y%m%dT%H%M%S")
        for suffix in ("", "-wal", "-shm", ".seen", ".reserve"):
            old = path.with_name(path.name + suffix)
            if old.exists():
                os.replace(old, path.with_name(f"{path.name}.damaged-{stamp}{suffix}"))
        for suffix in ("", "-wal", "-shm", ".seen"):
            new = out.with_name(out.name + suffix)
            if new.exists():
                shutil.move(str(new), str(path.with_name(path.name + suffix)))
        out = path
    return report, out
