"""Clean data only: NaN, Infinity, lone surrogates, long names and huge bodies never reach the store."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient

from jasscam.store import EventStore
from scoring.events import EventError, parse_event
from tests.web.conftest import PIN, PLAYERS, NewGame, post_event
from web.hooks import MAX_JSON_BYTES

AUTH = {"X-Table-Pin": PIN, "Content-Type": "application/json"}


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_an_event_get_400_and_the_game_stays_valid_json(
    client: FlaskClient,
    store: EventStore,
    new_game: NewGame,
    number: str,
) -> None:
    game = new_game()
    body = '{"type": "round_started", "forehand": 0, "contract": "eicheln", "t": ' + number + "}"
    r = client.post(f"/api/games/{game}/events", data=body, headers=AUTH)
    assert r.status_code == 400 and "finite" in r.get_json()["error"]
    assert len(store.events(game)) == 1
    json.loads(client.get(f"/api/games/{game}").get_data(as_text=True), parse_constant=lambda c: pytest.fail(c))


def test_the_schema_refuses_non_finite_numbers_anywhere() -> None:
    for event in (
        {"type": "card_played", "seat": 0, "card": "rosen-6", "t": float("nan")},
        {"type": "card_played", "seat": 0, "card": "rosen-6", "confidence": float("inf")},
        {"type": "card_played", "seat": 0, "card": "rosen-6", "alternatives": [["rosen-7", float("nan")]]},
    ):
        with pytest.raises(EventError, match="finite"):
            parse_event(event)


def test_a_lone_surrogate_in_a_player_name_gets_400_not_500(client: FlaskClient, store: EventStore) -> None:
    body = '{"players": ["\\ud800", "Beat", "Claudia", "Dario"]}'
    r = client.post("/api/games", data=body, headers=AUTH)
    assert r.status_code == 400 and "surrogate" in r.get_json()["error"]
    assert store.current_game() is None
    with pytest.raises(EventError, match="surrogate"):
        parse_event({"type": "game_configured", "players": ["\udc80x", "b", "c", "d"]})


def test_player_names_are_at_most_60_characters(client: FlaskClient, store: EventStore) -> None:
    r = client.post("/api/games", json={"players": ["A" * 61, *PLAYERS[1:]]}, headers={"X-Table-Pin": PIN})
    assert r.status_code == 400 and "60 characters" in r.get_json()["error"]
    assert store.current_game() is None
    r = client.post("/api/games", json={"players": ["A" * 60, *PLAYERS[1:]]}, headers={"X-Table-Pin": PIN})
    assert r.status_code == 200


def test_a_megabyte_name_or_a_big_body_is_refused_with_413_before_it_is_parsed(
    client: FlaskClient, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    r = client.post("/api/games", data=json.dumps({"players": ["x" * 2**20, "b", "c", "d"]}), headers=AUTH)
    assert r.status_code == 413 and "64 KB" in r.get_json()["error"]
    big = b'{"type": "stoeck_called", "seat": 0, "pad": "' + b" " * (MAX_JSON_BYTES + 1) + b'"}'
    r = client.post(f"/api/games/{game}/events", data=big, headers=AUTH)
    assert r.status_code == 413
    assert store.current_game() == game and len(store.events(game)) == 1
    assert post_event(client, game, {"type": "round_started", "forehand": 0, "contract": "rosen"}).status_code == 200
