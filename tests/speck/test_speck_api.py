"""The Speck blueprint's API on the dashboard app, over the real SQLite store."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from jasscam.store import EventStore
from scoring.events import CardPlayed, GameConfigured, RoundStarted, TrickCollected
from tests.speck.conftest import PIN, PLAYERS, SETUP, speck_events
from tests.speck.test_bodentrumpf import det
from vision.bodentrumpf import BodentrumpfWatcher
from web.speck import register_speck

AUTH = {"X-Table-Pin": PIN}


def new_speck(client: FlaskClient, **change: Any) -> int:
    r = client.post("/speck/api/games", json={**SETUP, **change}, headers=AUTH)
    assert r.status_code == 200, r.json
    return int(r.get_json()["game"])


def load(store: EventStore, events: list[Any]) -> int:
    assert isinstance(events[0], GameConfigured)
    game = store.new_game(events[0])
    for ev in events[1:]:
        store.append(game, ev)
    return game


def test_setup_writes_a_speck_game_configured_with_full_names_scorer_and_first_dealer(
    client: FlaskClient, store: EventStore
) -> None:
    game = new_speck(client, scorer=2, dealer=3, games=8)
    cfg = store.events(game)[0]
    assert isinstance(cfg, GameConfigured)
    assert (cfg.variant, cfg.players, cfg.speck_games, cfg.scorer, cfg.dealer) == ("speck", PLAYERS, 8, 2, 3)
    view = client.get(f"/speck/api/games/{game}").get_json()
    assert view["phase"] == "bodentrumpf"
    assert view["next"] == {"game": 1, "dealer": 3, "forehand": 0}


def test_setup_refuses_missing_last_names_odd_game_counts_bad_seats_and_wrong_pins(client: FlaskClient) -> None:
    players = [dict(p) for p in SETUP["players"]]  # type: ignore[attr-defined]
    players[1]["last"] = " "
    r = client.post("/speck/api/games", json={**SETUP, "players": players}, headers=AUTH)
    assert r.status_code == 400 and "seat 2" in r.get_json()["error"] and "last name" in r.get_json()["error"]
    r = client.post("/speck/api/games", json={**SETUP, "games": 10}, headers=AUTH)
    assert r.status_code == 400 and "12 or 8" in r.get_json()["error"]
    r = client.post("/speck/api/games", json={**SETUP, "scorer": 4}, headers=AUTH)
    assert r.status_code == 400 and "scorer" in r.get_json()["error"]
    client.delete_cookie("jasscam_session")  # the right PIN above signed this client in
    r = client.post("/speck/api/games", json=SETUP, headers={"X-Table-Pin": "0000"})
    assert r.status_code == 403
    assert client.post("/speck/api/games", data="x", headers=AUTH).status_code == 400


def test_bodentrumpf_starts_the_game_with_its_suit_and_the_seat_after_the_dealer(
    client: FlaskClient, store: EventStore
) -> None:
    game = new_speck(client)  # scorer and dealer seat 2
    r = client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": "schilten-9"}, headers=AUTH)
    assert r.status_code == 200, r.json
    ev = store.events(game)[1]
    assert isinstance(ev, RoundStarted)
    assert (ev.forehand, ev.contract, ev.bodentrumpf) == (3, "schilten", "schilten-9")
    view = client.get(f"/speck/api/games/{game}").get_json()
    assert view["phase"] == "playing" and view["round"]["to_play"] == 3 and view["round"]["dealer"] == 2
    again = client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": "rosen-6"}, headers=AUTH)
    assert again.status_code == 409 and "still running" in again.get_json()["error"]
    bad = client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": "rosen-11"}, headers=AUTH)
    assert bad.status_code == 400


def test_the_next_games_dealer_moves_on_one_seat(client: FlaskClient, store: EventStore) -> None:
    events = speck_events(seed=9, speck_games=12)
    second = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and i > 1)
    game = load(store, events[:second])
    first = events[1]
    assert isinstance(first, RoundStarted)
    view = client.get(f"/speck/api/games/{game}").get_json()
    assert view["phase"] == "bodentrumpf"
    assert view["next"] == {"game": 2, "forehand": (first.forehand + 1) % 4, "dealer": first.forehand}
    assert view["blatt"]["games_played"] == 1 and view["blatt"]["games"][0]["sum"] == 157


def test_live_points_per_player_while_a_game_runs(client: FlaskClient, store: EventStore) -> None:
    game = new_speck(client)
    client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": "rosen-6"}, headers=AUTH)
    for seat, card in ((3, "eicheln-ass"), (0, "eicheln-10"), (1, "eicheln-6"), (2, "rosen-7")):
        store.append(game, CardPlayed(seat=seat, card=card))
    store.append(game, TrickCollected(seat=2))
    view = client.get(f"/speck/api/games/{game}").get_json()
    assert view["round"]["points"] == [0, 0, 21, 0]  # Ass 11 + 10 + trump 7 (0) + 6 (0), taken by the trump
    assert view["round"]["sum"] == 21 and view["round"]["to_play"] == 2


def test_misplay_is_shown_with_the_rule_text_and_the_table_rules_on_it(client: FlaskClient, store: EventStore) -> None:
    game = new_speck(client)  # forehand seat 3
    client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": "rosen-6"}, headers=AUTH)
    pos = store.append(game, CardPlayed(seat=0, card="rosen-under"))  # seat 0 leads out of turn
    view = client.get(f"/speck/api/games/{game}").get_json()
    [m] = view["misplays"]
    assert m["code"] == "out_of_turn" and m["seat"] == 0 and m["name"] == PLAYERS[0]
    assert m["rule"]["section"] == "2.8.3" and m["rule"]["title"] == "Spieler spielt irrtümlich aus"
    assert "Die irrtümlich gespielte Karte verliert ihren Stichwert." in m["rule"]["text"]
    assert m["cards"] == [{"role": "played", "ref": pos, "card": "rosen-under", "ruling": None}]
    assert not m["decided"]
    r = client.post(f"/speck/api/games/{game}/ruling", json={"ref": pos, "ruling": "penalty"}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["event"] == {
        "type": "misplay_ruled",
        "v": 1,
        "ref": pos,
        "ruling": "penalty",
    }
    view = client.get(f"/speck/api/games/{game}").get_json()
    assert view["misplays"][0]["decided"] and view["misplays"][0]["cards"][0]["ruling"] == "penalty"
    assert view["round"]["trick"][0]["void"] is True
    # the table changes its mind: the latest ruling counts
    client.post(f"/speck/api/games/{game}/ruling", json={"ref": pos, "ruling": "ignore"}, headers=AUTH)
    assert client.get(f"/speck/api/games/{game}").get_json()["round"]["trick"][0]["void"] is False
    # only flagged cards can be ruled on
    r = client.post(f"/speck/api/games/{game}/ruling", json={"ref": 1, "ruling": "penalty"}, headers=AUTH)
    assert r.status_code == 400 and "not a card flagged" in r.get_json()["error"]
    r = client.post(f"/speck/api/games/{game}/ruling", json={"ref": pos, "ruling": "maybe"}, headers=AUTH)
    assert r.status_code == 400


def test_a_stale_screen_cannot_write(client: FlaskClient) -> None:
    game = new_speck(client)
    r = client.post(
        f"/speck/api/games/{game}/bodentrumpf", json={"card": "rosen-6"}, headers={**AUTH, "X-Expect-Count": "5"}
    )
    assert r.status_code == 409 and "changed meanwhile" in r.get_json()["error"]


def test_camera_proposal_is_offered_only_while_a_bodentrumpf_is_awaited(app: Flask, client: FlaskClient) -> None:
    watcher = BodentrumpfWatcher(frames=2)
    register_speck(app, bodentrumpf=watcher.proposal, title="Eidgenossen · Tisch 4")
    game = new_speck(client)
    assert client.get(f"/speck/api/games/{game}").get_json()["proposal"] is None
    for _ in range(2):
        watcher.update(game, [det("schellen-koenig", 0.93)])
    prop = client.get(f"/speck/api/games/{game}").get_json()["proposal"]
    assert prop["card"] == "schellen-koenig" and prop["label"] == "Schellen König"
    client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": prop["card"]}, headers=AUTH)
    assert client.get(f"/speck/api/games/{game}").get_json()["proposal"] is None
    assert "Eidgenossen · Tisch 4" in client.get(f"/speck/{game}/blatt").get_data(as_text=True)


@pytest.mark.slow  # a whole Speck game folded, its sheet drawn as a PDF
def test_punkteblatt_page_csv_and_pdf_of_a_whole_speck_game(client: FlaskClient, store: EventStore) -> None:
    game = load(store, speck_events(seed=11, scorer=1, dealer=1))
    blatt = client.get(f"/speck/api/games/{game}/blatt.json").get_json()
    assert blatt["check"]["actual"] == 1884 and blatt["complete"]
    html = client.get(f"/speck/{game}/blatt").get_data(as_text=True)
    for name in PLAYERS:
        assert name in html
    assert "12 Spiele × 157 = 1884" in html and "stimmt" in html and "speck.css" in html
    csv_r = client.get(f"/speck/api/games/{game}/blatt.csv")
    assert csv_r.mimetype == "text/csv" and "punkteblatt" in csv_r.headers["Content-Disposition"]
    assert csv_r.get_data(as_text=True).splitlines()[0].startswith("Spiel,Geber,Bodentrumpf,Anna Muster")
    pdf = client.get(f"/speck/api/games/{game}/blatt.pdf")
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF-")
    assert client.get(f"/speck/api/games/{game}").get_json()["phase"] == "over"


def test_schieber_games_and_unknown_games_are_not_speck_pages(client: FlaskClient, store: EventStore) -> None:
    schieber = store.new_game(GameConfigured(players=PLAYERS))
    assert client.get(f"/speck/{schieber}").status_code == 404
    assert client.get(f"/speck/api/games/{schieber}/blatt.csv").status_code == 404
    assert client.get("/speck/api/games/99").status_code == 404


def test_pages_render_in_every_language(client: FlaskClient) -> None:
    game = new_speck(client)
    for lang, word in (("de", "Schreiber"), ("fr", "Marqueur"), ("en", "Scorer")):
        client.set_cookie("lang", lang)
        assert word in client.get("/speck/setup").get_data(as_text=True)
        assert client.get(f"/speck/{game}").status_code == 200


def test_every_language_has_every_speck_word() -> None:
    from web.speck.i18n import SPECK_STRINGS

    keys = set(SPECK_STRINGS["de"])
    for lang, words in SPECK_STRINGS.items():
        assert set(words) == keys, lang


def test_a_trump_revoke_offers_every_other_trump_of_the_player_but_the_puur(
    client: FlaskClient, store: EventStore
) -> None:
    game = new_speck(client, dealer=3)  # forehand seat 0
    client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": "rosen-6"}, headers=AUTH)
    plays = [
        (0, "rosen-ass"),
        (1, "schellen-6"),
        (2, "rosen-7"),
        (3, "rosen-8"),  # seat 1 does not follow trump
        (0, "eicheln-6"),
        (1, "rosen-koenig"),
        (2, "eicheln-7"),
        (3, "eicheln-8"),  # ... and still had trumps
        (1, "rosen-under"),
        (2, "schilten-6"),
        (3, "schilten-7"),
        (0, "schilten-8"),  # the Puur keeps its value
        (1, "rosen-9"),
        (2, "eicheln-9"),
        (3, "eicheln-10"),
        (0, "schellen-7"),  # another trump: loses it too
    ]
    refs = [store.append(game, CardPlayed(seat=s, card=c)) for s, c in plays]
    view = client.get(f"/speck/api/games/{game}").get_json()
    m = next(m for m in view["misplays"] if m["code"] == "not_following_trump")
    assert m["rule"]["section"] == "2.8.4" and "ausser dem Trumpf-Puur" in m["rule"]["text"]
    assert [(c["role"], c["card"], c["ref"]) for c in m["cards"]] == [
        ("played", "schellen-6", refs[1]),
        ("kept", "rosen-koenig", refs[5]),
        ("trump", "rosen-9", refs[12]),
    ]
    r = client.post(f"/speck/api/games/{game}/ruling", json={"ref": refs[12], "ruling": "penalty"}, headers=AUTH)
    assert r.status_code == 200
    view = client.get(f"/speck/api/games/{game}").get_json()
    assert view["round"]["trick"][0] == {"seat": 1, "card": "rosen-9", "ref": refs[12], "void": True}


def test_a_series_continued_from_paper_carries_its_totals_and_games(client: FlaskClient, store: EventStore) -> None:
    """2.5.3: the Punkteblatt is checked against games x 157, the games on paper included."""
    game = new_speck(client, games=8, prior_games=3, prior_totals=[200, 100, 100, 71])
    view = client.get(f"/speck/api/games/{game}").get_json()
    assert view["blatt"]["totals"] == [200, 100, 100, 71]
    assert (view["blatt"]["games_played"], view["next"]["game"]) == (3, 4)
    r = client.post(
        "/speck/api/games", json={**SETUP, "prior_games": 3, "prior_totals": [200, 100, 100, 70]}, headers=AUTH
    )
    assert r.status_code == 400 and "3 x 157 = 471" in r.get_json()["error"]
