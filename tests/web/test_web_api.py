"""The dashboard's HTTP API with Flask's test client over the real SQLite store."""

from __future__ import annotations

import csv
import io
import json

from flask import Flask
from flask.testing import FlaskClient

from jasscam.store import EventStore
from scoring.events import GameConfigured, event_to_dict, parse_event
from scoring.game import fold
from tests.web.conftest import PIN, PLAYERS, STOECK_ROUND, NewGame, game_events, post_event
from web.i18n import LANGUAGES, STRINGS


def config_of(store: EventStore, game: int) -> GameConfigured:
    config = store.events(game)[0]
    assert isinstance(config, GameConfigured)
    return config


SETUP = {
    "players": list(PLAYERS),
    "edge": "left",
    "target": 2500,
    "multipliers": "common",
    "end_order": ["stoeck", "weis", "tricks"],
    "weis_one_per_player": True,
    "weis_needs_trick": False,
}


def test_reading_needs_no_pin(client: FlaskClient, new_game: NewGame) -> None:
    game = new_game()
    for url in ("/", "/setup", f"/game/{game}", "/games", "/api/games", f"/api/games/{game}"):
        assert client.get(url).status_code == 200, url


def test_write_without_pin_is_refused_and_nothing_is_stored(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    r = post_event(client, game, STOECK_ROUND[0], pin=None)
    assert r.status_code == 403
    assert "PIN" in r.get_json()["error"]
    assert len(store.events(game)) == 1


def test_wrong_pin_is_refused_and_repeated_guessing_is_slowed(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    r = post_event(client, game, STOECK_ROUND[0], pin="0000")
    assert r.status_code == 403 and r.get_json()["error"] == "wrong table PIN"
    for _ in range(9):
        post_event(client, game, STOECK_ROUND[0], pin="0001")
    r = post_event(client, game, STOECK_ROUND[0], pin=PIN)  # even the right PIN waits now
    assert r.status_code == 429
    assert len(store.events(game)) == 1


def test_right_pin_appends_and_returns_position(client: FlaskClient, store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    r = post_event(client, game, STOECK_ROUND[0])
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["position"] == 1
    assert store.events(game)[1] == parse_event(STOECK_ROUND[0])


def test_body_that_is_not_a_json_object_gets_400(client: FlaskClient, new_game: NewGame) -> None:
    game = new_game()
    for body in (b"not json", b"[1, 2]"):
        r = client.post(
            f"/api/games/{game}/events", data=body, headers={"X-Table-Pin": PIN, "Content-Type": "application/json"}
        )
        assert r.status_code == 400
        assert "JSON object" in r.get_json()["error"]


def test_event_types_a_phone_may_not_write_get_400(client: FlaskClient, store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    for kind in ("game_configured", "no_such_event", None):
        r = post_event(client, game, {"type": kind})
        assert r.status_code == 400
        assert "type must be one of" in r.get_json()["error"]
    assert len(store.events(game)) == 1


def test_schema_error_names_the_field_and_stores_nothing(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    post_event(client, game, STOECK_ROUND[0])
    r = post_event(client, game, {"type": "card_played", "seat": 0, "card": "rosen-13"})
    assert r.status_code == 400
    assert "card" in r.get_json()["error"] and "rosen-13" in r.get_json()["error"]
    r = post_event(client, game, {"type": "card_played", "seat": 7, "card": "rosen-10"})
    assert r.status_code == 400 and "seat" in r.get_json()["error"]
    assert len(store.events(game)) == 2


def test_rule_error_from_the_engine_gets_400_and_stores_nothing(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    r = post_event(client, game, {"type": "card_played", "seat": 0, "card": "rosen-10"})  # no round yet
    assert r.status_code == 400
    assert r.get_json()["error"]
    r = post_event(client, game, {"type": "event_voided", "ref": 5})  # points forward
    assert r.status_code == 400
    assert len(store.events(game)) == 1


def test_unknown_game_is_404(client: FlaskClient) -> None:
    assert client.get("/api/games/99").status_code == 404
    assert client.get("/game/99").status_code == 404
    assert post_event(client, 99, STOECK_ROUND[0]).status_code == 404


def test_stale_view_gets_409_instead_of_voiding_the_wrong_event(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    post_event(client, game, STOECK_ROUND[0])
    r = client.post(
        f"/api/games/{game}/events",
        json={"type": "event_voided", "ref": 1},
        headers={"X-Table-Pin": PIN, "X-Expect-Count": "1"},
    )
    assert r.status_code == 409
    assert len(store.events(game)) == 2


def test_stoeck_in_the_window_counts_and_a_late_press_is_refused_with_the_reason(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    for e in STOECK_ROUND:
        assert post_event(client, game, e).status_code == 200
    assert client.get(f"/api/games/{game}").get_json()["state"]["stoeck_window"] == 0
    r = post_event(client, game, {"type": "stoeck_called", "seat": 0})
    assert r.status_code == 200
    state = client.get(f"/api/games/{game}").get_json()["state"]
    assert state["round"]["score"]["written"][0]["stoeck"] == 20

    game2 = new_game()
    for e in [*STOECK_ROUND, {"type": "card_played", "seat": 1, "card": "schellen-6"}]:
        post_event(client, game2, e)
    before = len(store.events(game2))
    r = post_event(client, game2, {"type": "stoeck_called", "seat": 0})
    assert r.status_code == 400
    assert "zu spät" in r.get_json()["error"]  # the engine's own reason
    assert len(store.events(game2)) == before


def test_a_whole_game_written_through_the_api_ends_with_the_engines_totals(
    client: FlaskClient, new_game: NewGame
) -> None:
    events = game_events(seed=5)
    game = new_game()
    for e in events[1:]:
        r = post_event(client, game, event_to_dict(e))
        assert r.status_code == 200, (event_to_dict(e), r.get_json())
    view = client.get(f"/api/games/{game}").get_json()
    expected = fold(events).to_dict()
    assert view["state"]["totals"] == expected["totals"]
    assert view["state"]["game_over"] == expected["game_over"]
    assert view["state"]["game_over"] is not None


def test_correction_and_undo_change_the_score_and_show_in_the_history(client: FlaskClient, new_game: NewGame) -> None:
    game = new_game()
    for e in STOECK_ROUND[:5]:
        post_event(client, game, e)
    # seat 0 led the trump König and took the trick; say it was really the Rosen Ass
    before = client.get(f"/api/games/{game}").get_json()
    assert before["state"]["round"]["tricks"][0]["winner"] == 0
    r = post_event(client, game, {"type": "card_corrected", "ref": 2, "card": "rosen-ass"})
    assert r.status_code == 200
    after = client.get(f"/api/games/{game}").get_json()
    assert after["state"]["round"]["tricks"][0]["winner"] == 0
    assert after["state"]["round"]["score"]["card_points"] != before["state"]["round"]["score"]["card_points"]
    assert after["events"][2]["corrected_by"] == [6]
    r = post_event(client, game, {"type": "event_voided", "ref": 6})
    undone = client.get(f"/api/games/{game}").get_json()
    assert undone["events"][6]["voided"] is True
    assert undone["state"]["round"]["score"] == before["state"]["round"]["score"]


def test_new_game_from_the_setup_form(client: FlaskClient, store: EventStore, app: Flask) -> None:
    r = client.post("/api/games", json={**SETUP, "new_pin": "123456"}, headers={"X-Table-Pin": PIN})
    assert r.status_code == 200, r.get_json()
    game = r.get_json()["game"]
    config = config_of(store, game)
    assert config.players == PLAYERS and config.target == 2500 and config.multipliers == "common"
    assert config.end_order == ("stoeck", "weis", "tricks") and config.weis_one_per_player is True
    assert client.get(f"/api/games/{game}").get_json()["edge"] == "left"
    # the new PIN replaced the old one (for phones that are not signed in yet)
    other = app.test_client()
    assert post_event(other, game, STOECK_ROUND[0], pin=PIN).status_code == 403
    assert post_event(other, game, STOECK_ROUND[0], pin="123456").status_code == 200
    saved = json.loads((app.extensions["jasscam_pins"].settings_path).read_text())
    assert saved["pin"] == "123456"


def test_bad_setup_gets_400_and_creates_no_game(client: FlaskClient, store: EventStore) -> None:
    bad = [
        {**SETUP, "players": ["A", "B", "C"]},
        {**SETUP, "players": ["A", "B", "C", "  "]},
        {**SETUP, "target": "viel"},
        {**SETUP, "target": -5},
        {**SETUP, "multipliers": "custom"},
        {**SETUP, "edge": "ceiling"},
        {**SETUP, "end_order": ["weis", "weis", "tricks"]},
        {**SETUP, "new_pin": "12"},
        {**SETUP, "variant": "speck"},
    ]
    for body in bad:
        r = client.post("/api/games", json=body, headers={"X-Table-Pin": PIN})
        assert r.status_code == 400, body
        assert r.get_json()["error"]
    assert store.games() == []


def test_custom_multipliers_and_other_target_from_the_form(client: FlaskClient, store: EventStore) -> None:
    factors = {"eicheln": 1, "schilten": 2, "rosen": 3, "schellen": 4, "obenabe": 5, "undenufe": 7}
    body = {**SETUP, "target": "1500", "multipliers": "custom", "custom_multipliers": factors}
    r = client.post("/api/games", json=body, headers={"X-Table-Pin": PIN})
    assert r.status_code == 200, r.get_json()
    config = config_of(store, r.get_json()["game"])
    assert config.target == 1500 and config.custom_multipliers == factors


def test_export_json_has_every_event_and_the_engines_state(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    events = game_events(seed=7)
    game = new_game()
    for e in events[1:]:
        store.append(game, e)
    r = client.get(f"/api/games/{game}/export.json")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    body = json.loads(r.data)
    stored = store.events(game)
    assert [parse_event(e) for e in body["events"]] == stored
    assert body["state"] == fold(stored).to_dict()


def test_export_csv_is_the_jasstafel(client: FlaskClient, store: EventStore, new_game: NewGame) -> None:
    events = game_events(seed=7)
    game = new_game()
    for e in events[1:]:
        store.append(game, e)
    r = client.get(f"/api/games/{game}/export.csv")
    assert r.status_code == 200 and r.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(r.data.decode())))
    state = fold(store.events(game))
    sheet = [row for row in rows if row["round"] != "winner"]
    assert len(sheet) == len(state.sheet)
    for line, row in zip(sheet, state.sheet, strict=True):
        assert line["contract"] == row.contract and int(line["multiplier"]) == row.multiplier
        assert int(line["teamA_weis"]) == row.written[0].weis and int(line["teamB_tricks"]) == row.written[1].tricks
        assert int(line["teamA_total"]) == row.totals[0].total and int(line["teamB_total"]) == row.totals[1].total
    assert state.game_over is not None
    winner = [row for row in rows if row["round"] == "winner"][0]
    assert winner["contract"] == "AB"[state.game_over.winner or 0]
    assert winner["multiplier"] == state.game_over.deciding_block


def test_start_page_shows_qr_code_and_url_but_never_the_pin(client: FlaskClient) -> None:
    page = client.get("/", base_url="http://192.168.1.20:8080").data.decode()
    assert "<svg" in page and "http://192.168.1.20:8080/" in page
    assert PIN not in page


def test_every_language_has_every_word() -> None:
    keys = set(STRINGS["de"])
    for code in LANGUAGES:
        assert set(STRINGS[code]) == keys, code
        assert all(v.strip() for v in STRINGS[code].values()), code


def test_language_is_german_until_the_table_picks_another(client: FlaskClient) -> None:
    page = client.get("/setup", headers={"Accept-Language": "en-US"}).data.decode()
    assert STRINGS["de"]["create"] in page
    r = client.get("/lang/fr?next=/setup")
    assert r.status_code == 302 and r.headers["Location"].endswith("/setup")
    assert STRINGS["fr"]["create"] in client.get("/setup").data.decode()
    assert client.get("/lang/xx").status_code == 400
    assert client.get("/lang/en?next=//evil.example").headers["Location"] == "/"


def test_every_asset_is_served_locally(client: FlaskClient, new_game: NewGame) -> None:
    game = new_game()
    import re

    for url in ("/", "/setup", f"/game/{game}", "/games"):
        html = client.get(url, base_url="http://10.0.0.7").data.decode()
        links = re.findall(r'(?:src|href)="([^"]*)"', html)
        assert links
        for link in links:  # local paths, inline data, or the dashboard's own address (QR)
            assert link.startswith(("/", "data:", "http://10.0.0.7/")), (url, link)
    assert client.get("/static/cards/rosen-ober.png").status_code == 200
    assert client.get("/static/cards/back.png").status_code == 200


def test_web_never_imports_jasscam() -> None:
    import ast
    from pathlib import Path

    import web

    for path in Path(web.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n == "jasscam" or n.startswith("jasscam.") for n in names), path


def test_qr_code_on_the_appliance_screen_points_at_the_lan_address(client: FlaskClient) -> None:
    from web.hosts import lan_address

    page = client.get("/", base_url="http://localhost:8080").data.decode()
    lan = lan_address()
    if lan is None:  # no network at all: nothing better than localhost to offer
        assert "http://localhost:8080/" in page
    else:
        assert f"http://{lan}:8080/" in page


def test_speck_games_open_on_the_speck_screens(client: FlaskClient, app: Flask, new_game: NewGame) -> None:
    import pytest

    if "speck" not in app.blueprints:
        pytest.skip("the Speck screens (web.speck) are not mounted in this build")
    game = new_game(variant="speck")
    r = client.get(f"/game/{game}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/speck/{game}")
    assert 'href="/speck/setup"' in client.get("/setup").data.decode()
    schieber = new_game()
    assert client.get(f"/game/{schieber}").status_code == 200


def test_a_new_game_while_one_runs_is_refused_until_the_table_ends_the_running_one(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    running = new_game()
    r = client.post("/api/games", json=SETUP, headers={"X-Table-Pin": PIN})
    assert r.status_code == 409 and "still running" in r.get_json()["error"]
    assert [g["id"] for g in store.games()] == [running]
    assert client.get("/api/running").get_json()["running"]["id"] == running
    r = client.post("/api/games", json={**SETUP, "end_running": True}, headers={"X-Table-Pin": PIN})
    assert r.status_code == 200
    assert store.abandoned(running) is not None and store.current_game() == r.get_json()["game"]
    # the abandoned game takes no more events; the list says what became of each game
    assert post_event(client, running, STOECK_ROUND[0]).status_code == 400
    assert [g["status"] for g in client.get("/api/games").get_json()["games"]] == ["abandoned", "running"]


def test_deleting_a_game_needs_the_pin(client: FlaskClient, store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    assert client.delete(f"/api/games/{game}").status_code == 403
    assert client.delete(f"/api/games/{game}", headers={"X-Table-Pin": PIN}).status_code == 200
    assert store.games() == []
    assert client.delete(f"/api/games/{game}", headers={"X-Table-Pin": PIN}).status_code == 404
