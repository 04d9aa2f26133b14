"""A store that never silently forgets: checkpoints, backups, damage reported at start-up, disk full, salvage."""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from jasscam.cli import main
from jasscam.store import EventStore, StoreDamagedError, StoreFullError
from jasscam.store_repair import check, recover
from scoring.events import Event, RoundStarted
from scoring.simulate import random_game_events
from web.camera import camera_status


def game(seed: int, target: int = 1000) -> list[Event]:
    return random_game_events(random.Random(seed), target=target, players=("Anna", "Beat", "Claudia", "Dario"))


def play(store: EventStore, events: list[Event]) -> int:
    game_id = store.new_game(events[0])  # type: ignore[arg-type]
    for event in events[1:]:
        store.append(game_id, event)
    return game_id


def main_file_events(path: Path, tmp: Path) -> int:
    """Events in the main file alone, as a store would have them if its WAL were lost."""
    copy = tmp / "main-only.db"
    shutil.copy(path, copy)
    with sqlite3.connect(copy) as db:
        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])


def page_count(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA page_count").fetchone()[0])


def test_each_round_is_checkpointed_into_the_main_file(tmp_path: Path) -> None:
    """The issue's probe: all live data sat in the WAL and games.db stayed 4 KB."""
    events = game(1)
    path = tmp_path / "games.db"
    store = EventStore(path)
    game_id = store.new_game(events[0])  # type: ignore[arg-type]
    starts = [i for i, e in enumerate(events) if isinstance(e, RoundStarted)]
    for event in events[1 : starts[2] + 1]:
        store.append(game_id, event)
    assert main_file_events(path, tmp_path) == starts[2] + 1  # two whole rounds and the third's start
    store.close()


def test_the_timer_checkpoints_what_waits_in_the_wal(tmp_path: Path) -> None:
    events = game(1)
    path = tmp_path / "games.db"
    store = EventStore(path, checkpoint_s=0.05)
    game_id = store.new_game(events[0])  # type: ignore[arg-type]
    store.append(game_id, events[1])
    store.append(game_id, events[2])  # a card: no round boundary
    for _ in range(200):
        if main_file_events(path, tmp_path) == 3:
            break
        store._stop_timer.wait(0.05)
    assert main_file_events(path, tmp_path) == 3
    store.close()


def test_a_backup_is_kept_after_every_game(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        first = play(store, game(2, target=300))
        assert store.games()[0]["finished"]
        with EventStore(store.backup_path) as backup:
            assert backup.events(first) == store.events(first)
        second = play(store, game(3, target=300))
        with EventStore(store.backup_path) as backup:
            assert backup.events(second) == store.events(second)
        assert path.with_name("games.db.backup.1").exists()  # the one before is kept


@pytest.mark.parametrize("wal", ["lost", "zeroed"])
def test_a_store_that_lost_its_wal_is_reported_at_start_up_not_started_over(tmp_path: Path, wal: str) -> None:
    path = tmp_path / "games.db"
    events = game(4)
    store = EventStore(path)
    play(store, events[:30])  # one round under way: its cards live in the WAL
    damaged = tmp_path / "copy"
    damaged.mkdir()
    for name in ("games.db", "games.db.seen"):
        shutil.copy(tmp_path / name, damaged / name)
    if wal == "zeroed":
        (damaged / "games.db-wal").write_bytes(b"\0" * (tmp_path / "games.db-wal").stat().st_size)
    store.close()
    with pytest.raises(StoreDamagedError, match=r"held 1 games with 30 events.*jasscam store recover"):
        EventStore(damaged / "games.db")


def test_a_store_whose_games_were_replaced_by_an_empty_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        play(store, game(5)[:12])
    path.write_bytes(b"")  # the file lost everything, its notes did not
    with pytest.raises(StoreDamagedError, match="held 1 games"):
        EventStore(path)


def corrupt_page(path: Path, page: int) -> None:
    size = 4096
    with open(path, "r+b") as out:
        out.seek((page - 1) * size)
        out.write(random.Random(page).randbytes(size))


def build_three_games(tmp_path: Path) -> tuple[Path, list[list[Event]]]:
    path = tmp_path / "games.db"
    games = [game(s, target=300) for s in (6, 7, 8)]
    with EventStore(path, reserve_bytes=0) as store:
        for events in games:
            play(store, events)
    return path, games


@pytest.mark.parametrize("where", ["middle", "last"])
def test_a_corrupt_page_is_reported_at_start_up_and_recover_salvages_every_readable_event(
    tmp_path: Path, where: str
) -> None:
    path, games = build_three_games(tmp_path)
    pages = page_count(path)
    corrupt_page(path, pages // 2 if where == "middle" else pages)
    with pytest.raises(StoreDamagedError, match="is damaged.*jasscam store recover"):
        EventStore(path)
    assert main(["store", "check", str(path)]) == 2
    report, out = recover(path)
    assert out == path
    with EventStore(path) as store:  # the salvaged store opens cleanly under the old name
        salvaged = [store.events(g["id"]) for g in store.games()]
    assert len(salvaged) == 3
    for events, original in zip(salvaged, games, strict=True):
        assert events == original[: len(events)]  # a prefix: every position and ref still right
    # The backup after the second game brings back games 1 and 2 whole; only the last loses events.
    assert salvaged[0] == games[0] and salvaged[1] == games[1]
    assert report.events == sum(len(e) for e in salvaged)
    assert list(tmp_path.glob("games.db.damaged-*"))  # the damaged file is kept
    assert main(["store", "check", str(path)]) == 0


def test_store_check_says_ok_for_a_healthy_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, games = build_three_games(tmp_path)
    assert main(["store", "check", str(path)]) == 0
    assert f"3 games, {sum(len(g) for g in games)} readable events, ok" in capsys.readouterr().out
    assert check(path).problems == []


def test_a_full_disk_keeps_the_score_going_from_the_reserve(tmp_path: Path) -> None:
    """The issue's probe: COMMIT failed, then ROLLBACK raised "no transaction is active" and the appliance exited."""
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        store.reserve_ready.wait(10)
    full = EventStore(path, max_pages=page_count(path))  # not one page more: the disk is full
    full.reserve_ready.wait(10)
    events = game(9, target=300)
    game_id = play(full, events)
    assert full.events(game_id) == events
    assert full.status() == {"disk_full": True}
    assert "disk is full" in camera_status({"store": full.status()})["warning"]
    full.close()


def test_when_the_reserve_is_used_up_an_append_is_refused_cleanly_and_a_restart_works(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with EventStore(path, reserve_bytes=8192) as store:
        store.reserve_ready.wait(10)
    limit = page_count(path)
    full = EventStore(path, reserve_bytes=8192, max_pages=limit)
    full.reserve_ready.wait(10)
    events = game(10, target=5000)
    game_id = full.new_game(events[0])  # type: ignore[arg-type]
    stored = 1
    with pytest.raises(StoreFullError, match="disk holding .* is full") as refused:
        for event in events[1:]:
            full.append(game_id, event)
            stored += 1
    assert isinstance(refused.value, OSError)  # the dashboard answers 507 without importing jasscam
    assert full.events(game_id) == events[:stored]  # nothing half-stored, the store still reads
    full.close()
    with EventStore(path, reserve_bytes=8192, max_pages=limit) as again:  # a restart while still full
        assert again.events(game_id) == events[:stored]


def test_the_dashboard_answers_a_full_disk_with_507_and_stores_nothing(tmp_path: Path) -> None:
    from scoring.events import event_to_dict
    from web.app import create_app

    path = tmp_path / "games.db"
    events = game(11, target=300)
    with EventStore(path, reserve_bytes=0) as store:
        game_id = store.new_game(events[0])  # type: ignore[arg-type]
    full = EventStore(path, reserve_bytes=0, reserve_file_bytes=0, max_pages=page_count(path))
    client = create_app(full, pin="471108").test_client()
    codes = []
    for event in events[1:]:
        before = len(full.events(game_id))
        r = client.post(f"/api/games/{game_id}/events", json=event_to_dict(event), headers={"X-Table-Pin": "471108"})
        codes.append(r.status_code)
        if r.status_code != 200:
            assert r.status_code == 507 and "disk" in r.get_json()["error"]
            assert len(full.events(game_id)) == before
            break
    assert codes[-1] == 507 and set(codes[:-1]) == {200}
    full.close()


def test_the_settings_file_failing_to_save_does_not_stop_the_dashboard(tmp_path: Path) -> None:
    """The issue's probe: a restart while full crashed in PinGuard.save."""
    from web.app import create_app

    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with EventStore(tmp_path / "games.db") as store:
        app = create_app(store, settings_path=blocker / "dashboard.json")
        assert len(app.extensions["jasscam_pins"].pin) == 6


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 16 MiB filesystem (tmpfs), where the machine lets the test mount one (root); else skipped."""
    import os
    import subprocess

    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> None:
    """Take every free byte of ``disk``."""
    import os

    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 4096, 512, 64, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                continue
    finally:
        os.close(fd)


def test_on_a_really_full_disk_the_score_goes_on_and_a_restart_works(small_disk: Path) -> None:
    path = small_disk / "games.db"
    events = game(12, target=300)
    with EventStore(path) as store:
        store.reserve_ready.wait(10)
        game_id = store.new_game(events[0])  # type: ignore[arg-type]
    assert (small_disk / "games.db.reserve").stat().st_size == 4 * 1024 * 1024
    fill(small_disk)
    with EventStore(path) as store:  # a restart while full
        store.reserve_ready.wait(10)
        for event in events[1:]:
            store.append(game_id, event)
        assert store.disk_full and store.events(game_id) == events
    with EventStore(path) as again:  # and once more, still full
        assert again.events(game_id) == events


def test_a_stopped_recording_is_a_warning_on_every_phone() -> None:
    status = camera_status({"source": {"state": "live"}, "recorder": {"problem": "video.avi stopped growing"}})
    assert status["ok"] and "recording stopped: video.avi stopped growing" in status["warning"]
    assert "warning" not in camera_status({"source": {"state": "live"}, "recorder": {"problem": None}})


def test_jasscam_run_on_a_damaged_store_says_what_to_do_and_exits_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 3 is in the unit's RestartPreventExitStatus: no restart loop over a damaged store."""
    path, _ = build_three_games(tmp_path)
    corrupt_page(path, page_count(path))
    conf = tmp_path / "jasscam.toml"
    conf.write_text("")
    assert main(["run", "--config", str(conf), "--state-dir", str(tmp_path), "--no-record"]) == 3
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "jasscam store recover" in err
    unit = (Path(__file__).resolve().parents[2] / "systemd" / "jasscam.service").read_text()
    assert "RestartPreventExitStatus=3" in unit


def test_recover_keeps_who_wrote_each_event_and_which_game_was_abandoned(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    events = random_game_events(random.Random(5))
    with EventStore(path) as store:
        left = store.new_game(events[0])  # type: ignore[arg-type]
        store.append(left, events[1], by_hand=True)
        store.append(left, events[2])
        store.abandon(left)
        store.checkpoint()
    report, out = recover(path, tmp_path / "new.db")
    with EventStore(out) as salvaged:
        assert salvaged.by_hand(left) == [True, True, False]
        assert salvaged.abandoned(left) is not None
        assert salvaged.current_game() is None
