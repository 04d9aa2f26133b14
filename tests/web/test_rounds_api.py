"""The phone's writes for Coiffeur, Differenzler and rounds entered by hand (web.rounds),
against the real SQLite store: PIN checks, refusals that store nothing, and a
Differenzler forecast that no other phone can read before its round ends."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from jasscam.store import EventStore
from tests.web.conftest import PIN, NewGame, SSEClient
from web.server import ServerHandle

HEADERS = {"X-Table-Pin": PIN}


def signed_in(app: Flask) -> FlaskClient:
    """Another phone: its own cookie jar, signed in with the table PIN."""
    phone = app.test_client()
    assert phone.post("/api/pin", headers=HEADERS).status_code == 200
    return phone


def view(client: FlaskClient, game: int) -> dict[str, Any]:
    response = client.get(f"/api/games/{game}")
    assert response.status_code == 200
    return response.get_json()


def test_choosing_a_coiffeur_row_starts_its_round(client: FlaskClient, store: EventStore, new_game: NewGame) -> None:
    game = new_game(variant="coiffeur")
    answer = client.post(f"/api/games/{game}/row", json={"row": 6, "forehand": 1}, headers=HEADERS)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["event"] == {
        "type": "round_started",
        "v": 1,
        "forehand": 1,
        "contract": "slalom",
        "declarer": 1,
        "schoben": False,
        "row": 6,
    }
    state = view(client, game)["state"]
    assert state["round"]["row"] == 6 and state["coiffeur"]["playing"] == {"row": 6, "team": 1}
    assert state["coiffeur"]["open"][1] == list(range(8))  # open until the round is played


def test_a_row_the_team_already_played_is_refused_and_nothing_is_stored(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game(variant="coiffeur")
    entry = {"contract": "eicheln", "row": 0, "team": 0, "points": 90, "forehand": 0}
    assert client.post(f"/api/games/{game}/round", json=entry, headers=HEADERS).status_code == 200
    count = len(store.events(game))
    again = client.post(f"/api/games/{game}/row", json={"row": 0, "forehand": 2}, headers=HEADERS)
    assert again.status_code == 400 and "already played the row Eicheln" in again.get_json()["error"]
    assert len(store.events(game)) == count


def test_a_row_needs_the_table_pin_and_a_coiffeur_game(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game(variant="coiffeur")
    assert client.post(f"/api/games/{game}/row", json={"row": 0}).status_code == 403
    schieber = new_game()
    refused = client.post(f"/api/games/{schieber}/row", json={"row": 0}, headers=HEADERS)
    assert refused.status_code == 400 and "Coiffeur" in refused.get_json()["error"]
    assert client.post("/api/games/999/row", json={"row": 0}, headers=HEADERS).status_code == 404


def test_a_forecast_is_told_back_only_to_its_phone_until_the_round_ends(
    app: Flask, store: EventStore, new_game: NewGame
) -> None:
    game = new_game(variant="differenzler")
    anna, beat = signed_in(app), signed_in(app)
    assert (
        anna.post(
            f"/api/games/{game}/events", json={"type": "round_started", "forehand": 0, "contract": "rosen"}
        ).status_code
        == 200
    )
    made = anna.post(f"/api/games/{game}/forecast", json={"seat": 0, "points": 83})
    assert made.status_code == 200 and made.get_json()["event"]["points"] == 83
    assert beat.post(f"/api/games/{game}/forecast", json={"seat": 1, "points": 41}).status_code == 200

    assert anna.get(f"/api/games/{game}/forecast").get_json() == {"forecasts": {"0": 83}}
    assert beat.get(f"/api/games/{game}/forecast").get_json() == {"forecasts": {"1": 41}}
    assert app.test_client().get(f"/api/games/{game}/forecast").status_code == 403  # not signed in: nothing
    for phone in (anna, beat, app.test_client()):
        seen = view(phone, game)
        text = json.dumps(seen)
        assert "83" not in text and "41" not in text
        rows = [r for r in seen["events"] if r["type"] == "forecast_made"]
        assert all(r["hidden"] and "points" not in r for r in rows)
        assert seen["state"]["round"]["forecasts"] == [None, None, None, None]
        assert seen["state"]["round"]["forecast_given"] == [True, True, False, False]
    assert "83" not in anna.get(f"/api/games/{game}/export.json").get_data(as_text=True)

    ended = anna.post(f"/api/games/{game}/round", json={"contract": "rosen", "player_points": [80, 40, 20, 17]})
    assert ended.status_code == 200, ended.get_json()
    after = view(beat, game)
    assert after["state"]["sheet"][0]["forecasts"] == [83, 41, None, None]
    assert after["state"]["sheet"][0]["penalties"] == [3, 1, 20, 17]
    assert [r["points"] for r in after["events"] if r["type"] == "forecast_made"] == [83, 41]
    assert beat.get(f"/api/games/{game}/forecast").get_json() == {"forecasts": {}}


def test_the_live_stream_never_carries_an_open_forecast(
    live: ServerHandle, app: Flask, store: EventStore, new_game: NewGame
) -> None:
    game = new_game(variant="differenzler")
    phone = signed_in(app)
    sse = SSEClient(f"{live.url}/api/games/{game}/stream")
    frames = [json.dumps(sse.next()["data"])]
    assert phone.post(f"/api/games/{game}/forecast", json={"seat": 2, "points": 129}).status_code == 200
    frames.append(json.dumps(sse.next(within=5)["data"]))
    assert (
        phone.post(
            f"/api/games/{game}/round", json={"contract": "eicheln", "forehand": 0, "player_points": [0, 0, 157, 0]}
        ).status_code
        == 200
    )
    last = sse.next(within=5)["data"]
    sse.close()
    assert all("129" not in f for f in frames)
    assert "129" in json.dumps(last)  # the round is over: now every phone may see it


def test_a_forecast_goes_through_its_own_endpoint_only(client: FlaskClient, new_game: NewGame) -> None:
    game = new_game(variant="differenzler")
    refused = client.post(
        f"/api/games/{game}/events", json={"type": "forecast_made", "seat": 0, "points": 3}, headers=HEADERS
    )
    assert refused.status_code == 400 and "/forecast" in refused.get_json()["error"]
    bad = client.post(f"/api/games/{game}/forecast", json={"seat": 0, "points": 200}, headers=HEADERS)
    assert bad.status_code == 400 and "at most 157" in bad.get_json()["error"]


def test_a_round_entered_by_hand_is_on_the_sheet_marked_by_hand(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    entry = {
        "contract": "schellen",
        "forehand": 0,
        "team": 1,
        "points": 157,
        "match": True,
        "weis": [0, 50],
        "stoeck": 1,
    }
    answer = client.post(f"/api/games/{game}/round", json=entry, headers=HEADERS)
    assert answer.status_code == 200, answer.get_json()
    sheet = view(client, game)["state"]["sheet"]
    assert sheet[0]["by_hand"] and sheet[0]["written"][1] == {"weis": 100, "stoeck": 40, "tricks": 514, "total": 654}
    undo = client.post(
        f"/api/games/{game}/events",
        json={"type": "event_voided", "ref": answer.get_json()["position"]},
        headers=HEADERS,
    )
    assert undo.status_code == 200 and view(client, game)["state"]["sheet"] == []


def test_a_wrong_entry_is_refused_with_its_reason_and_stores_nothing(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    cases = [
        ({"contract": "rosen", "forehand": 0, "team": 0, "points": 140, "match": True}, "a Match is all nine tricks"),
        ({"contract": "rosen", "forehand": 0, "team": 0, "points": 40, "weis": [20, 20]}, "best Weis"),
        ({"contract": "rosen", "forehand": 0, "team": 0, "points": 40, "colour": "red"}, "unknown field"),
        ({"contract": "trumpf", "forehand": 0, "team": 0, "points": 40}, "contract must be one of"),
    ]
    for body, message in cases:
        answer = client.post(f"/api/games/{game}/round", json=body, headers=HEADERS)
        assert answer.status_code == 400 and message in answer.get_json()["error"], (body, answer.get_json())
    assert len(store.events(game)) == 1
    stale = client.post(
        f"/api/games/{game}/round",
        json={"contract": "rosen", "forehand": 0, "team": 0, "points": 40},
        headers={**HEADERS, "X-Expect-Count": "7"},
    )
    assert stale.status_code == 409 and len(store.events(game)) == 1
