"""Real headless Chromium on a phone: the set-up offers the table's players, the statistics
page draws its charts and tables from the stored games, and the games list filters."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.events import GameConfigured
from scoring.simulate import random_game_events
from tests.pages import text_of
from tests.web.conftest import PIN
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

TABLE = ("Anna", "Beat", "Claudia", "Dario")
OTHERS = ("Eva", "Beat", "Fritz", "Dario")


def imported(store: EventStore, seed: int, players: tuple[str, ...]) -> int:
    events = random_game_events(random.Random(seed), players=players)
    game = max((g["id"] for g in store.catalog()), default=0) + 1
    store.import_game(game, None, events)
    return game


def test_the_setup_offers_the_tables_players_and_the_last_table_in_one_tap(
    phone: Page, live: ServerHandle, store: EventStore
) -> None:
    store.new_game(GameConfigured(players=TABLE))
    store.abandon(1)
    store.new_game(GameConfigured(players=OTHERS))
    store.abandon(2)
    phone.goto(f"{live.url}/setup")
    phone.wait_for_selector("#known-chips button[data-name='Fritz']")
    assert phone.eval_on_selector_all("#known-players option", "os => os.map(o => o.value)") == [
        "Beat",
        "Dario",
        "Eva",
        "Fritz",
        "Anna",
        "Claudia",
    ]
    phone.click("#known-chips button[data-name='Claudia']")
    phone.click("#known-chips button[data-name='Claudia']")  # already seated: not twice
    phone.click("#known-chips button[data-name='Eva']")
    assert [phone.input_value(f"input[name=p{i}]") for i in range(4)] == ["Claudia", "Eva", "", ""]
    phone.click("#last-table")
    assert [phone.input_value(f"input[name=p{i}]") for i in range(4)] == list(OTHERS)
    assert "Eva & Fritz" in text_of(phone, "#teams-line")


def test_the_statistics_page_draws_charts_and_figures_and_filters_by_player(
    phone: Page, live: ServerHandle, store: EventStore
) -> None:
    imported(store, 1, TABLE)
    imported(store, 2, OTHERS)
    phone.goto(f"{live.url}/stats")
    phone.wait_for_selector("body[data-loaded]")
    phone.wait_for_function("[...document.querySelectorAll('img.chart')].every(i => i.complete && i.naturalWidth > 0)")
    names = phone.eval_on_selector_all("#players-table tbody tr td:first-child", "tds => tds.map(t => t.textContent)")
    assert sorted(names) == ["Anna", "Beat", "Claudia", "Dario", "Eva", "Fritz"]
    assert phone.locator("#games-table tbody tr").count() == 2
    assert "Beat & Dario" in phone.eval_on_selector_all(
        "#pairs-table tbody tr td:first-child", "tds => tds.map(t => t.textContent)"
    )
    loaded = phone.get_attribute("body", "data-loaded")
    phone.select_option("#f-player", "Eva")
    phone.wait_for_function("n => document.body.dataset.loaded !== n", arg=loaded)
    assert phone.locator("#games-table tbody tr").count() == 1
    assert "player=Eva" in phone.url and "player=Eva" in (phone.get_attribute("#export-csv", "href") or "")
    # the Bergpreis is the table's setting: switched off behind the PIN, the column empties
    assert phone.request.post(f"{live.url}/api/pin", headers={"X-Table-Pin": PIN}).ok
    loaded = phone.get_attribute("body", "data-loaded")
    phone.click("#bergpreis-on")
    phone.wait_for_function("n => document.body.dataset.loaded !== n", arg=loaded)
    assert text_of(phone, "#games-table tbody tr td:last-child") == "–"
    assert live.app.extensions["jasscam_pins"].settings["bergpreis"] is False


def test_the_games_list_filters_by_player_and_variant(phone: Page, live: ServerHandle, store: EventStore) -> None:
    store.new_game(GameConfigured(players=TABLE))
    store.abandon(1)
    store.new_game(GameConfigured(players=("Eva", "Gina", "Hans", "Anna"), variant="speck"))
    phone.goto(f"{live.url}/games")
    phone.wait_for_selector("body[data-shown='2']")
    phone.select_option("#g-player", "Claudia")
    phone.wait_for_selector("body[data-shown='1']")
    assert phone.get_attribute("#games-list li", "data-game") == "1"
    phone.select_option("#g-player", "Anna")
    phone.wait_for_selector("body[data-shown='2']")  # both games have Anna at the table
    phone.select_option("#g-variant", "speck")
    phone.wait_for_selector("body[data-shown='1'] #games-list li[data-game='2']")
    assert phone.locator("#games-list li").count() == 1 and "variant=speck" in phone.url
