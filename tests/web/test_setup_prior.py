"""The set-up page continues a game from paper (``prior_totals``) and offers the new settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient

from jasscam.store import EventStore
from scoring.events import GameConfigured
from tests.pages import text_of
from tests.web.conftest import PIN, PLAYERS
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page

BODY = {"players": list(PLAYERS), "target": 1000}


def config_of(store: EventStore, game: int) -> GameConfigured:
    config = store.events(game)[0]
    assert isinstance(config, GameConfigured)
    return config


def test_setup_carries_prior_totals_and_the_new_settings_into_the_game(client: FlaskClient, store: EventStore) -> None:
    body = {**BODY, "prior_totals": [640, 710], "target_rule": "exceeded", "weis_card_once": True}
    r = client.post("/api/games", json=body, headers={"X-Table-Pin": PIN})
    assert r.status_code == 200, r.get_json()
    game = r.get_json()["game"]
    config = config_of(store, game)
    assert (config.prior_totals, config.target_rule, config.weis_card_once) == ((640, 710), "exceeded", True)
    totals = client.get(f"/api/games/{game}").get_json()["state"]["totals"]
    assert [t["total"] for t in totals] == [640, 710]


def test_setup_refuses_prior_totals_that_already_reach_the_target(client: FlaskClient, store: EventStore) -> None:
    """001: «Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte Zielpunktzahl überschreitet.»"""
    r = client.post("/api/games", json={**BODY, "prior_totals": [1000, 20]}, headers={"X-Table-Pin": PIN})
    assert r.status_code == 400 and "already reaches the target 1000" in r.get_json()["error"]
    assert store.games() == []


@pytest.mark.browser
def test_prior_totals_typed_on_the_setup_page_are_the_tafels_first_row(
    phone: Page, live: ServerHandle, store: EventStore
) -> None:
    assert phone.request.post(f"{live.url}/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
    phone.goto(f"{live.url}/setup")
    for i, name in enumerate(PLAYERS):
        phone.fill(f"input[name='p{i}']", name)
    phone.fill("input[name='prior_0']", "640")
    phone.fill("input[name='prior_1']", "710")
    phone.click("#create")
    phone.wait_for_url("**/game/*")
    phone.click("button[data-tab='tafel']")
    phone.wait_for_selector("#tafel tr.prior")
    assert text_of(phone, "#tafel-total0") == "640" and text_of(phone, "#tafel-total1") == "710"
    row = text_of(phone, "#tafel tr.prior")
    assert "640" in row and "710" in row
    assert config_of(store, store.games()[0]["id"]).prior_totals == (640, 710)


def test_the_csv_tafel_starts_with_the_prior_totals(client: FlaskClient, store: EventStore) -> None:
    r = client.post("/api/games", json={**BODY, "prior_totals": [640, 710]}, headers={"X-Table-Pin": PIN})
    game = r.get_json()["game"]
    lines = client.get(f"/api/games/{game}/export.csv").data.decode().splitlines()
    assert lines[1].split(",")[0] == "prior"
    row = dict(zip(lines[0].split(","), lines[1].split(","), strict=True))
    assert (row["teamA_total"], row["teamB_total"]) == ("640", "710")
