"""The statistics, known players, history and exports over the real SQLite store: derived
from the stored games on every request, filtered by player and variant, and safe with any name."""

from __future__ import annotations

import csv
import io
import json
import random

from flask.testing import FlaskClient

from jasscam.store import EventStore
from scoring.events import EventVoided, GameConfigured
from scoring.simulate import random_game_events
from tests.web.conftest import PIN, PLAYERS


def played(store: EventStore, seed: int, players: tuple[str, ...] = PLAYERS, *, drop: int = 0, **config: object) -> int:
    """A whole simulated game stored as the camera would have stored it (less its last ``drop`` events)."""
    events = random_game_events(random.Random(seed), players=players, **config)  # type: ignore[arg-type]
    game = max((g["id"] for g in store.catalog()), default=0) + 1
    store.import_game(game, None, events[: len(events) - drop])  # one fold for the whole game, not one per event
    return game


def test_statistics_follow_the_store_when_a_round_is_undone(client: FlaskClient, store: EventStore) -> None:
    game = played(store, 1, drop=1)  # the last trick lies uncollected: the round counts with its last card
    before = client.get("/api/stats").get_json()
    anna = next(p for p in before["players"] if p["names"] == ["Anna"])
    assert anna["games"] == 1 and anna["finished"] == 1
    last = max(i for i, e in enumerate(store.events(game)) if e.type == "card_played")
    store.append(game, EventVoided(ref=last), by_hand=True)  # the game is no longer over
    after = client.get("/api/stats").get_json()
    assert next(p for p in after["players"] if p["names"] == ["Anna"])["finished"] == 0
    assert after["games"][0]["winners"] == []


def test_the_games_list_filters_by_player_and_variant(client: FlaskClient, store: EventStore) -> None:
    first = played(store, 1)
    second = played(store, 2, players=("Eva", "Beat", "Fritz", "Dario"))
    speck = store.new_game(GameConfigured(players=("Anna", "Eva", "Gina", "Hans"), variant="speck"))
    ids = lambda q: [g["id"] for g in client.get(f"/api/games{q}").get_json()["games"]]  # noqa: E731
    assert ids("") == [first, second, speck]
    assert ids("?player=anna") == [first, speck]  # a name matches however it is typed
    assert ids("?player=Eva&variant=schieber") == [second]
    assert ids("?variant=speck") == [speck]
    assert client.get("/api/games").get_json()["players"][:4] == ["Anna", "Eva", "Gina", "Hans"]


def test_exports_carry_the_players_date_and_variant(client: FlaskClient, store: EventStore) -> None:
    game = played(store, 3)
    created = store.games()[0]["created"]
    body = json.loads(client.get(f"/api/games/{game}/export.json").data)
    assert (body["players"], body["variant"], body["date"]) == (list(PLAYERS), "schieber", created)
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/games/{game}/export.csv").data.decode())))
    assert all(r["date"] == created and r["variant"] == "schieber" for r in rows)
    assert {r["teamA_players"] for r in rows} == {"Anna & Claudia"} and {r["teamB_players"] for r in rows} == {
        "Beat & Dario"
    }
    history = list(csv.DictReader(io.StringIO(client.get("/api/history.csv?player=Beat").data.decode())))
    assert [(h["game"], h["date"], h["variant"], h["side1"], h["side2"]) for h in history] == [
        (str(game), created, "schieber", "Anna & Claudia", "Beat & Dario")
    ]
    assert json.loads(client.get("/api/history.json").data)["games"][0]["players"] == list(PLAYERS)


def test_the_bergpreis_is_a_table_setting_behind_the_pin(client: FlaskClient, store: EventStore) -> None:
    played(store, 1)
    assert client.get("/api/stats").get_json()["games"][0]["bergpreis"] is not None
    assert client.post("/api/stats/settings", json={"bergpreis": False}).status_code == 403
    r = client.post("/api/stats/settings", json={"bergpreis": False}, headers={"X-Table-Pin": PIN})
    assert r.status_code == 200 and r.get_json() == {"bergpreis": False}
    stats = client.get("/api/stats").get_json()
    assert stats["bergpreis"] is False and stats["games"][0]["bergpreis"] is None
    assert all(p["bergpreise"] == 0 for p in stats["players"])
    assert (
        client.post("/api/stats/settings", json={"bergpreis": "yes"}, headers={"X-Table-Pin": PIN}).status_code == 400
    )


def test_known_players_and_the_last_table_are_offered_placeholders_left_out(
    client: FlaskClient, store: EventStore
) -> None:
    store.new_game(GameConfigured(players=("Anna", "Beat", "Claudia", "Dario")))
    store.abandon(1)
    store.new_game(GameConfigured(players=("Eva", "beat", "Spieler 3", "Player 4")))
    data = client.get("/api/players").get_json()
    assert data["players"] == ["beat", "Eva", "Anna", "Claudia", "Dario"]
    assert data["last_table"] == ["Eva", "beat", "Spieler 3", "Player 4"]


def test_a_name_that_looks_like_markup_stays_text_in_charts_and_figures(client: FlaskClient, store: EventStore) -> None:
    evil = "<script>alert(1)</script>&" + "x" * 30
    played(store, 1, players=(evil, "Beat", "Claudia", "Dario"))
    stats = client.get("/api/stats").get_json()
    assert stats["players"][0]["names"] == [evil]  # JSON: shown with textContent on the page
    for chart in ("players", "pairs", "matches", "contracts", "time", "games"):
        r = client.get(f"/api/stats/{chart}.svg?player=Beat")
        assert r.status_code == 200 and r.mimetype == "image/svg+xml"
        assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert b"<script>alert" not in r.data
    assert "&lt;script&gt;" in client.get("/api/stats/players.svg").data.decode()
    assert client.get("/api/stats/nothing.svg").status_code == 404
    played(store, 2, players=("=HYPERLINK(1)", "Beat", "Claudia", "Dario"))
    history = list(csv.DictReader(io.StringIO(client.get("/api/history.csv").data.decode())))
    assert history[-1]["side1"] == "'=HYPERLINK(1) & Claudia"  # a spreadsheet shows it as text, never runs it
    sheet = list(csv.DictReader(io.StringIO(client.get(f"/api/games/{history[-1]['game']}/export.csv").data.decode())))
    assert {r["teamA_players"] for r in sheet} == {"'=HYPERLINK(1) & Claudia"}
    assert client.get("/api/stats?player=" + "y" * 61).status_code == 400
    assert client.get("/api/stats?variant=poker").status_code == 400


def test_every_language_has_every_word_the_new_screens_use() -> None:
    import re
    from pathlib import Path

    from web.i18n import LANGUAGES
    from web.stats import words
    from web.table_i18n import TABLE_STRINGS

    for code in LANGUAGES:
        assert set(TABLE_STRINGS[code]) == set(TABLE_STRINGS["de"]), code
        assert all(v.strip() for v in TABLE_STRINGS[code].values()), code
    static = Path(__file__).parents[2] / "web" / "static"
    used = {
        k
        for name in ("stats.js", "variants.js", "games.js", "setup.js")
        for k in re.findall(r'\bt\("(\w+)"\)', (static / name).read_text())
    }
    for code in LANGUAGES:
        assert used <= set(words(code)), (code, sorted(used - set(words(code))))
