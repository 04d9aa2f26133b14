"""Tournament scale: three tables publish over a real Mosquitto, the board ranks them all."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest

from jasscam.store import EventStore
from jasscam.tournament.board import TournamentBoard
from jasscam.tournament.publish import PublishError, TablePublisher, follow_store
from jasscam.tournament.ranking import tournament_ranking
from jasscam.tournament.topics import TopicError, parse_topic, table_topic
from scoring.events import GameConfigured, RoundStarted
from scoring.game import fold
from scoring.speck import punkteblatt
from tests.speck.conftest import free_port, speck_events
from web.ranking import create_ranking_app

TOURNAMENT = "eidgenossen-2026"
TABLES = {
    "1": ("Anna Muster", "Beat Keller", "Claudia Frei", "Dario Rossi"),
    "2": ("Eva Huber", "Fritz Meier", "Gina Graf", "Hans Roth"),
    "3": ("Ida Brun", "Jon Caduff", "Karin Vogt", "Luca Bianchi"),
}


def until(cond: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


def expected_ranking(blatts: dict[str, dict[str, Any]]) -> list[tuple[str, int, int]]:
    """All twelve players by total, then best single game, computed from the fold directly."""
    rows = []
    for blatt in blatts.values():
        for seat, name in enumerate(blatt["players"]):
            games = [g["points"][seat] for g in blatt["games"]]
            rows.append((name, sum(games), max(games)))
    return sorted(rows, key=lambda r: (-r[1], -r[2]))


def test_three_tables_publish_and_the_board_ranks_the_whole_tournament(mosquitto: int) -> None:
    blatts = {t: punkteblatt(fold(speck_events(seed=20 + int(t), players=names))) for t, names in TABLES.items()}
    publishers = [TablePublisher("127.0.0.1", mosquitto, tournament=TOURNAMENT, table=t) for t in TABLES]
    try:
        for pub in publishers:
            pub.publish(1, blatts[pub.table])
        # the board starts after the tables reported: retained messages give it everything
        with TournamentBoard("127.0.0.1", mosquitto, tournament=TOURNAMENT) as board:
            until(lambda: len(board.tables) == 3 and all(board.status.get(t) == "online" for t in TABLES))
            snap = board.snapshot()
    finally:
        for pub in publishers:
            pub.close()
    want = expected_ranking(blatts)
    got = [(r["name"], r["total"], r["best"]) for r in snap["ranking"]]
    assert got == want
    assert len(got) == 12 and sum(r[1] for r in got) == 3 * 1884
    assert [r["place"] for r in snap["ranking"]][0] == 1
    assert {r["table"] for r in snap["ranking"]} == set(TABLES)
    assert all(t["complete"] and t["check_ok"] and t["online"] for t in snap["tables"])
    assert snap["problems"] == [] and snap["tournament"] == TOURNAMENT


def test_a_table_publishing_game_by_game_updates_the_live_ranking(mosquitto: int, tmp_path: Path) -> None:
    events = speck_events(seed=31, players=TABLES["2"])
    starts = [i for i, e in enumerate(events) if isinstance(e, RoundStarted)]
    with (
        EventStore(tmp_path / "table2.sqlite") as store,
        TournamentBoard("127.0.0.1", mosquitto, tournament=TOURNAMENT) as board,
        TablePublisher("127.0.0.1", mosquitto, tournament=TOURNAMENT, table="2") as pub,
    ):
        config = events[0]
        assert isinstance(config, GameConfigured)
        game = store.new_game(config)
        for ev in events[1 : starts[1]]:  # the first game
            store.append(game, ev)
        stop = threading.Event()
        sent: list[int] = []
        follower = threading.Thread(target=lambda: sent.append(follow_store(store, game, pub, stop, poll=0.2)))
        follower.start()
        try:
            until(lambda: "2" in board.tables and board.tables["2"]["blatt"]["games_played"] == 1)
            version = board.version
            for ev in events[starts[1] : starts[2]]:  # the second game, card by card
                store.append(game, ev)
            until(lambda: board.tables["2"]["blatt"]["games_played"] == 2)
            assert board.version > version
        finally:
            stop.set()
            follower.join(5)
        snap = board.snapshot()
        blatt2 = punkteblatt(fold(store.events(game)))
        assert [(r["name"], r["total"]) for r in snap["ranking"]] == [
            (r["name"], r["total"]) for r in blatt2["ranking"]
        ]
        assert snap["tables"][0]["games_played"] == 2 and not snap["tables"][0]["complete"]
        assert sent and sent[0] >= 2


@pytest.mark.slow  # a real broker and a live server
def test_ranking_page_serves_the_board_live(mosquitto: int) -> None:
    from web.server import serve

    blatt = punkteblatt(fold(speck_events(seed=41, players=TABLES["3"])))
    with TournamentBoard("127.0.0.1", mosquitto, tournament=TOURNAMENT) as board:
        app = create_ranking_app(board, heartbeat=0.5)
        client = app.test_client()
        assert client.get("/api/ranking").get_json()["ranking"] == []
        handle = serve(app, "127.0.0.1", 0)
        try:
            import http.client
            from urllib.parse import urlsplit

            parts = urlsplit(handle.url)
            conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=10)
            conn.request("GET", f"/api/stream?since={board.version}")
            stream = conn.getresponse()
            with TablePublisher("127.0.0.1", mosquitto, tournament=TOURNAMENT, table="3") as pub:
                pub.publish(7, blatt)
                buf = b""
                data: dict[str, Any] = {"ranking": []}
                while not data["ranking"]:  # the table's "online" status may come first
                    while b"\n\n" not in buf:
                        buf += stream.read1(65536)
                    frame, buf = buf.split(b"\n\n", 1)
                    if b"event: ranking" in frame:
                        data = json.loads(frame.split(b"data: ", 1)[1])
            assert [r["name"] for r in data["ranking"]] == [r["name"] for r in blatt["ranking"]]
            conn.close()
        finally:
            handle.stop()
        page = client.get("/").get_data(as_text=True)
        assert "Rangliste" in page and TABLES["3"][0] in page


def test_bad_messages_and_resets_from_the_broker(mosquitto: int) -> None:
    blatt = punkteblatt(fold(speck_events(seed=51, players=TABLES["1"])))
    raw = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    raw.connect("127.0.0.1", mosquitto)
    raw.loop_start()
    try:
        with (
            TournamentBoard("127.0.0.1", mosquitto, tournament=TOURNAMENT) as board,
            TablePublisher("127.0.0.1", mosquitto, tournament=TOURNAMENT, table="1") as pub,
        ):
            pub.publish(1, blatt)
            until(lambda: "1" in board.tables)
            raw.publish(table_topic(TOURNAMENT, "9"), b"{not json", qos=1).wait_for_publish(5)
            until(lambda: len(board.rejected) == 1)
            assert "9" not in board.tables and len(board.snapshot()["ranking"]) == 4
            raw.publish(table_topic(TOURNAMENT, "1"), b"", qos=1, retain=True).wait_for_publish(5)  # organisers' reset
            until(lambda: "1" not in board.tables)
        assert board.snapshot()["ranking"] == []
    finally:
        raw.disconnect()
        raw.loop_stop()


def test_a_sheet_that_does_not_add_up_is_named_for_the_jassleitung() -> None:
    blatt = punkteblatt(fold(speck_events(seed=61, players=TABLES["1"])))
    blatt["check"] = {**blatt["check"], "ok": False, "actual": 1880}
    out = tournament_ranking({"1": {"blatt": blatt}, "x": {"blatt": {}}})
    assert out["problems"] == ["Tisch 1: Kontrolle 12 × 157 = 1884, Total 1880", "Tisch x: keine gültige Meldung"]


def test_topic_names_are_one_level_and_unreachable_brokers_fail_clearly() -> None:
    assert table_topic("t1", "4") == "jasscam/tournament/t1/table/4"
    assert parse_topic("jasscam/tournament/t1/table/4/status") == ("t1", "4", "status")
    assert parse_topic("jasscam/tournament/t1/other/4") is None
    with pytest.raises(TopicError, match="one MQTT topic level"):
        table_topic("a/b", "1")
    with pytest.raises(TopicError):
        table_topic("t", "#")
    with pytest.raises(PublishError, match="cannot reach"):
        TablePublisher("127.0.0.1", free_port(), tournament="t", table="1", connect_timeout=0.5)


@pytest.mark.slow  # a real broker and a live server
def test_cli_publishes_a_store_once_and_serves_the_ranking(
    mosquitto: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess
    import sys
    import urllib.request

    from jasscam.cli import main

    events = speck_events(seed=71, players=TABLES["1"], speck_games=8)
    config = events[0]
    assert isinstance(config, GameConfigured)
    with EventStore(tmp_path / "t1.sqlite") as store:
        game = store.new_game(config)
        for ev in events[1:]:
            store.append(game, ev)
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jasscam",
            "tournament",
            "ranking",
            "--broker",
            f"127.0.0.1:{mosquitto}",
            "--tournament",
            TOURNAMENT,
            "--listen",
            f"127.0.0.1:{port}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert "ranking of" in server.stdout.readline()
        rc = main(
            [
                "tournament",
                "publish",
                "--broker",
                f"127.0.0.1:{mosquitto}",
                "--tournament",
                TOURNAMENT,
                "--table",
                "1",
                "--store",
                str(tmp_path / "t1.sqlite"),
                "--once",
            ]
        )
        assert rc == 0 and "published table 1: 8 games" in capsys.readouterr().out

        def ranking() -> dict[str, Any]:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/ranking", timeout=5) as r:
                return json.loads(r.read())

        until(lambda: len(ranking()["ranking"]) == 4)
        assert sum(r["total"] for r in ranking()["ranking"]) == 8 * 157
    finally:
        server.terminate()
        server.wait(5)
    assert (
        main(
            [
                "tournament",
                "publish",
                "--broker",
                "127.0.0.1",
                "--tournament",
                "a/b",
                "--table",
                "1",
                "--store",
                str(tmp_path / "t1.sqlite"),
            ]
        )
        == 2
    )
    assert "one MQTT topic level" in capsys.readouterr().err
    assert (
        main(
            [
                "tournament",
                "publish",
                "--broker",
                "127.0.0.1",
                "--tournament",
                "t",
                "--table",
                "1",
                "--store",
                str(tmp_path / "missing.sqlite"),
            ]
        )
        == 2
    )
    assert "no event store" in capsys.readouterr().err
