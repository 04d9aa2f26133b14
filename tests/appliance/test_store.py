"""The event store on a real SQLite file: durability, validation, concurrency, crashes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from jasscam.store import MIGRATIONS, SCHEMA_VERSION, EventStore, GameClosedError, StoreError, UnknownGameError
from scoring.events import CardPlayed, EventError, GameConfigured, RoundStarted, TrickCollected, event_to_dict
from scoring.game import RuleError
from tests.appliance.gamegen import config, round_events

REPO = Path(__file__).resolve().parents[2]


def test_events_round_trip_in_order_with_positions(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    events = round_events(seed=1)
    positions = [store.append(game, e) for e in events]
    assert positions == list(range(1, len(events) + 1))
    assert store.events(game) == [config(), *events]
    assert store.current_game() == game
    store.close()


def test_reopen_after_close_gives_the_same_events_and_current_game(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        first = store.new_game(config())
        second = store.new_game(GameConfigured(target=2500))
        for e in round_events(seed=2)[:7]:
            store.append(second, e)
        before = store.events(second)
    with EventStore(tmp_path / "g.db") as again:
        assert again.current_game() == second
        assert again.events(second) == before
        assert [g["id"] for g in again.games()] == [first, second]
        summary = again.games()[1]
        assert summary["config"]["target"] == 2500 and summary["events"] == 8
        assert summary["finished"] is False
        assert again.schema_version == SCHEMA_VERSION


def test_a_schema_error_stores_nothing_and_is_reraised(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    store.append(game, RoundStarted(forehand=0, contract="rosen"))
    with pytest.raises(EventError, match="card"):
        store.append(game, {"type": "card_played", "seat": 0, "card": "rosen-11"})
    with pytest.raises(EventError, match="game_configured"):
        store.append(game, config())
    assert len(store.events(game)) == 2
    store.close()
    raw = sqlite3.connect(tmp_path / "g.db").execute("SELECT count(*) FROM events").fetchone()[0]
    assert raw == 2


def test_a_rule_error_from_the_fold_stores_nothing(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    with pytest.raises(RuleError, match="round"):
        store.append(game, CardPlayed(seat=0, card="rosen-6"))  # no round running
    store.append(game, RoundStarted(forehand=0, contract="rosen"))
    store.append(game, CardPlayed(seat=0, card="rosen-6"))
    with pytest.raises(RuleError):
        store.append(game, TrickCollected(seat=0))  # a trick of one card cannot be collected
    assert len(store.events(game)) == 3
    store.close()


def test_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    with pytest.raises(UnknownGameError, match="no game with id 7"):
        store.events(7)
    with pytest.raises(UnknownGameError):
        store.append(7, RoundStarted(forehand=0, contract="rosen"))
    assert store.current_game() is None


def test_stored_events_cannot_be_updated_or_deleted(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    store.new_game(config())
    store.close()
    db = sqlite3.connect(tmp_path / "g.db")
    for sql in ("UPDATE events SET body = '{}'", "DELETE FROM events"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute(sql)
    db.close()


def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "g.db"
    bad.write_bytes(b"this is a video, not a database" * 100)
    with pytest.raises(StoreError, match="not a usable jasscam event store"):
        EventStore(bad)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "g.db")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this jasscam"):
        EventStore(tmp_path / "g.db")


def test_two_processes_opening_a_fresh_store_at_once_both_get_it(tmp_path: Path) -> None:
    """The pipeline and the dashboard open a new state directory's store at the same moment."""
    path = tmp_path / "g.db"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA journal_mode=WAL").fetchone()
    # The other process is migrating right now: its transaction is open, not committed.
    other.executescript(f"BEGIN IMMEDIATE;\n{MIGRATIONS[0]}\nPRAGMA user_version = 1;")
    opened: list[EventStore] = []
    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            opened.append(EventStore(path))
        except Exception as exc:  # reported by the assertion below, not lost in the thread
            errors.append(exc)

    thread = threading.Thread(target=open_store)
    thread.start()
    time.sleep(0.5)  # it has read version 0 and waits for the write lock
    other.execute("COMMIT")
    other.close()
    thread.join(timeout=30)
    assert not errors, errors
    (store,) = opened
    assert store.schema_version == SCHEMA_VERSION
    game = store.new_game(config())
    assert [type(e) for e in store.events(game)] == [GameConfigured]
    store.close()


def test_concurrent_appenders_lose_nothing_and_positions_are_unique(tmp_path: Path) -> None:
    """Eight threads append whatever is next in one legal round; every event lands once."""
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    events = round_events(seed=3)
    next_index = iter(range(len(events)))
    take = threading.Lock()
    errors: list[BaseException] = []

    def worker() -> None:
        while True:
            with take:  # the rules demand order; the store must cope with the threads
                i = next(next_index, None)
                if i is None:
                    return
                try:
                    store.append(game, events[i])
                except BaseException as exc:  # pragma: no cover - reported below
                    errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert store.events(game)[1:] == events


def test_independent_games_appended_from_threads_at_once(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    games = [store.new_game(config()) for _ in range(4)]
    rounds = {g: round_events(seed=g) for g in games}

    def worker(g: int) -> None:
        for e in rounds[g]:
            store.append(g, e)

    threads = [threading.Thread(target=worker, args=(g,)) for g in games]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for g in games:
        assert store.events(g)[1:] == rounds[g]


def test_wait_wakes_on_append_from_another_thread(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    assert store.wait(game, after=1, timeout=0.05) == 1  # nothing new: times out

    def later() -> None:
        time.sleep(0.1)
        store.append(game, RoundStarted(forehand=0, contract="rosen"))

    threading.Thread(target=later).start()
    start = time.monotonic()
    assert store.wait(game, after=1, timeout=5.0) == 2
    assert time.monotonic() - start < 2.0
    assert store.wait(game, after=0, timeout=5.0) == 2  # already more: returns at once


def test_close_wakes_waiters_with_an_error(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    seen: list[BaseException] = []

    def waiter() -> None:
        try:
            store.wait(game, after=5, timeout=10.0)
        except StoreError as exc:
            seen.append(exc)

    th = threading.Thread(target=waiter)
    th.start()
    time.sleep(0.1)
    store.close()
    th.join(timeout=2.0)
    assert not th.is_alive() and seen


WRITER = textwrap.dedent(
    """
    import sys
    import time
    from jasscam.store import EventStore
    from tests.appliance.gamegen import config, round_events
    store = EventStore(sys.argv[1])
    game = store.new_game(config())
    print(game, flush=True)
    for event in round_events(seed=5):
        pos = store.append(game, event)
        time.sleep(0.01)
        print(pos, flush=True)   # printed only after the commit returned
    time.sleep(60)
    """
)


def test_kill_9_mid_game_keeps_every_confirmed_event(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdout is not None
    game = int(proc.stdout.readline())
    confirmed = 0
    while confirmed < 17:  # mid-round: after the fifth trick's first card
        confirmed = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with EventStore(db) as store:
        events = store.events(game)
    expected = [config(), *round_events(seed=5)]
    assert len(events) >= confirmed + 1
    assert events == expected[: len(events)]
    assert [event_to_dict(e) for e in events[:18]] == [event_to_dict(e) for e in expected[:18]]


def test_games_reports_a_game_over_as_finished(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(GameConfigured(target=100))
    for e in round_events(seed=8):
        store.append(game, e)
    assert store.games()[0]["finished"] is True


def test_each_event_says_whether_the_table_or_the_camera_wrote_it(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        game = store.new_game(config())
        events = round_events(seed=1)
        store.append(game, events[0], by_hand=True)
        store.append(game, events[1])
    with EventStore(tmp_path / "g.db") as again:
        assert again.by_hand(game) == [True, True, False]


def test_a_version_1_store_is_upgraded_and_its_old_events_are_marked_unknown(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(f"BEGIN;\n{MIGRATIONS[0]}\nPRAGMA user_version = 1;\nCOMMIT;")
    db.execute("INSERT INTO games (id, created) VALUES (1, 0)")
    db.execute(
        "INSERT INTO events (game_id, position, type, body, stored) VALUES (1, 0, 'game_configured', ?, 0)",
        ('{"type": "game_configured", "v": 1}',),
    )
    db.close()
    with EventStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.by_hand(1) == [None]
        assert store.games()[0]["abandoned"] is None


def test_an_abandoned_game_stays_readable_but_is_no_longer_current(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        old = store.new_game(config())
        store.append(old, round_events(seed=1)[0])
        store.abandon(old)
        assert store.current_game() is None  # the camera's events go nowhere until a new game
        new = store.new_game(config())
        assert store.current_game() == new
        store.delete_game(new)
        assert store.current_game() is None  # the abandoned game does not come back to life
        (summary,) = store.games()
        assert summary["id"] == old and summary["abandoned"] is not None and not summary["finished"]
        assert len(store.events(old)) == 2


def test_deleting_a_game_removes_it_and_only_it_for_good(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        keep = store.new_game(config())
        gone = store.new_game(config())
        store.append(gone, round_events(seed=1)[0])
        store.delete_game(gone)
        with pytest.raises(UnknownGameError):
            store.events(gone)
        with pytest.raises(UnknownGameError):
            store.delete_game(gone)
    db = sqlite3.connect(tmp_path / "g.db")
    assert db.execute("SELECT count(*) FROM events WHERE game_id = ?", (gone,)).fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM events WHERE game_id = ?", (keep,)).fetchone()[0] == 1
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events WHERE game_id = ?", (keep,))  # a game not being deleted stays append-only
    db.close()


def test_an_abandoned_game_takes_no_more_events(tmp_path: Path) -> None:
    with EventStore(tmp_path / "g.db") as store:
        game = store.new_game(config())
        store.abandon(game)
        with pytest.raises(GameClosedError, match="abandoned"):
            store.append(game, round_events(seed=1)[0])
        with pytest.raises(EventError):  # writers that refuse a bad event refuse this one too
            store.append(game, round_events(seed=1)[0])
        assert len(store.events(game)) == 1


def _version_2_store(path: Path, migration: str) -> None:
    """A store made by a build whose schema 2 was ``migration`` (one game, one event)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(f"BEGIN;\n{MIGRATIONS[0]}\n{migration}\nPRAGMA user_version = 2;\nCOMMIT;")
    db.execute("INSERT INTO games (id, created) VALUES (1, 0)")
    db.execute(
        "INSERT INTO events (game_id, position, type, body, stored) VALUES (1, 0, 'game_configured', ?, 0)",
        ('{"type": "game_configured", "v": 1}',),
    )
    db.close()


def _columns(path: Path, table: str) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
    finally:
        db.close()


@pytest.mark.parametrize("kind", ["by_hand", "reserve"])
def test_a_version_2_store_of_either_kind_gets_both_the_marks_and_the_reserve(tmp_path: Path, kind: str) -> None:
    # schema 2 is who wrote each event (migration 2) and the reserve (migration 3);
    # a store whose version 2 made only the reserve table must still get the marks.
    path = tmp_path / "g.db"
    reserve = "CREATE TABLE reserve (id INTEGER PRIMARY KEY, pad BLOB NOT NULL);"
    _version_2_store(path, MIGRATIONS[1] if kind == "by_hand" else reserve)
    with EventStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 3
        assert store.by_hand(1) == [None]
        store.append(1, round_events(seed=1)[0], by_hand=True)
        assert store.by_hand(1) == [None, True]
        store.abandon(1)
        assert store.current_game() is None
        assert store.reserve_ready.wait(10)
    assert {"by_hand"} <= _columns(path, "events") and {"abandoned", "deleting"} <= _columns(path, "games")
    assert {"id", "pad"} <= _columns(path, "reserve")


def test_a_fresh_store_has_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with EventStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.reserve_ready.wait(10)
    assert "by_hand" in _columns(path, "events") and {"id", "pad"} <= _columns(path, "reserve")


def test_a_deleted_game_is_not_reported_as_lost_when_the_store_opens_again(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with EventStore(path) as store:
        keep = store.new_game(config())
        gone = store.new_game(config())
        for e in round_events(seed=1)[:5]:
            store.append(gone, e)
        store.delete_game(gone)
    with EventStore(path) as again:  # the start-up check compares against games.db.seen
        assert [g["id"] for g in again.games()] == [keep]
