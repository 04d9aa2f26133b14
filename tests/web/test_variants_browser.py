"""Real headless Chromium on phones: Coiffeur, Differenzler and a round entered by hand,
as a table plays them, against the real SQLite store.

Coiffeur: the team whose turn it is taps its row (geschoben too), the Tafel shows every
row, the open ones, the totals and the difference. Differenzler: each phone enters its
forecast, which no other phone sees until the round ends. A round by hand: contract, one
team's points, Weis and Stöck by value, and the sheet says «von Hand eingegeben».
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.events import ForecastMade, GameConfigured, RoundEntered, RoundStarted
from tests.pages import text_of
from tests.web.conftest import PIN, PLAYERS, NewGame
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser


def signed_in(page: Page, live: ServerHandle) -> None:
    assert page.request.post(f"{live.url}/api/pin", headers={"X-Table-Pin": PIN}).ok


def shows_all(page: Page, store: EventStore, game: int) -> None:
    page.wait_for_selector(f"body[data-count='{len(store.events(game))}']")


def test_coiffeur_from_setup_the_team_taps_its_row_and_the_tafel_shows_open_rows_totals_and_difference(
    phone: Page, live: ServerHandle, store: EventStore
) -> None:
    signed_in(phone, live)
    phone.goto(f"{live.url}/setup")
    for seat, name in enumerate(PLAYERS):
        phone.fill(f"input[name=p{seat}]", name)
    phone.check("input[name=variant][value=coiffeur]")
    assert phone.is_checked("input[name=count_weis]")  # Coiffeur counts Weis and Stöck unless the table says not
    assert not phone.is_visible("input[name=target_other]") and phone.is_visible("input[name=row_misere]")
    phone.fill("input[name=row_misere]", "10")
    phone.click("#create")
    phone.wait_for_url("**/game/*")
    game = store.games()[-1]["id"]
    config = store.events(game)[0]
    assert isinstance(config, GameConfigured) and config.variant == "coiffeur" and config.rows[-1] == ("misere", 10)
    shows_all(phone, store, game)
    # Team A's turn (Anna leads): it plays Rosen ×3, geschoben to Claudia
    phone.click("#play-row")
    assert phone.locator("#pick-row button").count() == 8
    phone.click("#pick-row button[data-value='2']")
    phone.check("#cf-schoben")
    phone.click("#dlg-ok")
    phone.wait_for_selector("body[data-count='2']")
    start = store.events(game)[1]
    assert isinstance(start, RoundStarted) and (start.row, start.contract, start.schoben, start.declarer) == (
        2,
        "rosen",
        True,
        2,
    )
    assert phone.locator("#cf-grid tr[data-row='2'] td.playing[data-team='0']").count() == 1  # the row being played
    # the camera is off this round: the table enters it by hand, 100 points to team A, a Weis of 20 and Stöck
    phone.click("#enter-round")
    phone.click("#pick-row button[data-value='2']")
    phone.click("#pick-hand-team button[data-value='0']")
    phone.fill("#hand-points", "100")
    assert text_of(phone, "#hand-other") == "das andere Team: 57"
    phone.click("#pick-hand-weis-team button[data-value='0']")
    phone.click("#dlg-body button[data-weis='20']")
    phone.click("#pick-hand-stoeck button[data-value='0']")
    phone.click("#dlg-ok")
    phone.wait_for_selector("body[data-count='3']")
    entered = store.events(game)[2]
    assert isinstance(entered, RoundEntered) and (
        entered.row,
        entered.team,
        entered.points,
        entered.weis,
        entered.stoeck,
    ) == (2, 0, 100, (20, 0), 0)
    phone.click("button[data-tab='tafel']")
    cell = phone.locator("#cf-grid tr[data-row='2'] td[data-team='0']")
    assert (cell.text_content() or "").startswith("420")  # (100 + 20 + 20) × 3
    assert cell.locator(".badge.hand").count() == 1
    assert (
        phone.locator("#cf-grid td.open[data-team='0']").count() == 7
        and phone.locator("#cf-grid td.open[data-team='1']").count() == 8
    )
    assert text_of(phone, "#cf-total0") == "420" and text_of(phone, "#cf-total1") == "0"
    assert text_of(phone, "#cf-diff") == "A +420"
    # now it is team B's turn, and only its open rows are offered
    phone.click("button[data-tab='table']")
    assert "(Team B)" in text_of(phone, "#play-row")


def test_differenzler_forecasts_are_secret_to_the_other_phones_until_the_round_is_over(
    browser: Browser, live: ServerHandle, store: EventStore
) -> None:
    game = store.new_game(GameConfigured(players=PLAYERS, variant="differenzler", differenzler_rounds=2))
    phones, errors = [], []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(10_000)
        signed_in(page, live)
        page.goto(f"{live.url}/game/{game}")
        shows_all(page, store, game)
        phones.append(page)
    anna, beat = phones
    try:
        assert not anna.is_visible("#score")  # no teams in the Differenzler
        anna.click("#df-forecast-btn")
        anna.click("#pick-df-seat button[data-value='0']")
        anna.fill("#df-points", "63")
        anna.click("#dlg-ok")
        for page in phones:
            page.wait_for_selector("body[data-count='2']")
        anna.wait_for_selector("#df-table tr[data-seat='0'] .df-forecast:text('63 ✓')")
        assert text_of(beat, "#df-table tr[data-seat='0'] .df-forecast") == "🔒 ✓"
        assert text_of(beat, "#df-given").startswith("Prognosen abgegeben: 1/4")
        # nothing Beat's phone holds names the number: not the page, not its view of the game
        beat.click("button[data-tab='history']")
        assert "63" not in text_of(beat, "#events")
        view = beat.request.get(f"{live.url}/api/games/{game}").json()
        assert all("points" not in row for row in view["events"] if row["type"] == "forecast_made")
        assert beat.request.get(f"{live.url}/api/games/{game}/forecast").json() == {"forecasts": {}}
        assert isinstance(store.events(game)[1], ForecastMade)
        # the round is entered by hand on Beat's phone: now everybody sees the forecast and the penalties
        beat.click("button[data-tab='table']")
        beat.click("#enter-round")
        beat.click("#pick-hand-contract button[data-value='obenabe']")
        for seat, points in enumerate((60, 30, 40, 27)):
            beat.fill(f"#hand-p{seat}", str(points))
        beat.click("#dlg-ok")
        for page in phones:
            page.wait_for_selector("body[data-count='3']")
            page.click("button[data-tab='tafel']")
            assert text_of(page, "#df-rounds tr[data-round='0'] td:nth-child(2)") == "63 / 60 3"
            assert page.locator("#df-rounds tr[data-round='0'] .badge.hand").count() == 1
            assert [text_of(page, f"#df-total{s}") for s in range(4)] == ["3", "30", "40", "27"]
    finally:
        for page in phones:
            page.context.close()
    assert not errors, errors


def test_a_schieber_round_entered_by_hand_in_a_few_taps_is_marked_on_the_tafel(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    signed_in(phone, live)
    phone.goto(f"{live.url}/game/{game}")
    shows_all(phone, store, game)
    phone.click("#enter-round")
    phone.click("#pick-hand-contract button[data-value='schellen']")  # ×2
    phone.click("#pick-hand-team button[data-value='1']")
    phone.check("#hand-match")
    assert phone.input_value("#hand-points") == "157" and text_of(phone, "#hand-other") == "Match: 257"
    phone.click("#dlg-ok")
    phone.wait_for_selector("body[data-count='2']")
    assert phone.is_visible("#by-hand") and not phone.is_visible(
        "#trick-no"
    )  # no «Stich 1/9» for a round without tricks
    phone.click("button[data-tab='tafel']")
    row = phone.locator("#tafel tr[data-round='0']")
    assert "von Hand eingegeben" in (row.text_content() or "")
    assert text_of(phone, "#tafel-total1") == "514" and text_of(phone, "#tafel-total0") == "0"
    assert "Runde von Hand: Schellen · Team B 157 Match" in text_of(phone, "#events")
