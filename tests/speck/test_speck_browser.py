"""The Speck screens in a real browser on a phone viewport (Debian Chromium, Playwright)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.events import CardPlayed, GameConfigured
from tests.speck.conftest import PIN, PLAYERS, speck_events
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page


def test_setup_bodentrumpf_live_points_misplay_ruling_on_a_phone(
    live: ServerHandle, store: EventStore, phone: Page
) -> None:
    assert phone.request.post(live.url + "/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
    phone.goto(live.url + "/speck/setup")
    for i, name in enumerate(PLAYERS):
        first, last = name.split()
        phone.fill(f"input[name=first{i}]", first)
        phone.fill(f"input[name=last{i}]", last)
    phone.select_option("select[name=scorer]", "2")  # the Schreiber deals first (2.6.1)
    assert phone.input_value("select[name=dealer]") == "2"
    rotation = phone.locator("#rotation li")
    assert rotation.count() == 12
    assert rotation.nth(0).inner_text() == "Claudia Frei" and rotation.nth(1).inner_text() == "Dario Rossi"
    phone.check("input[name=games][value='8']")
    assert phone.locator("#rotation li").count() == 8
    phone.click("#create")
    phone.wait_for_url("**/speck/1")
    cfg = store.events(1)[0]
    assert isinstance(cfg, GameConfigured) and cfg.players == PLAYERS and cfg.speck_games == 8 and cfg.scorer == 2

    # Bodentrumpf by button: the dealer is Claudia, forehand Dario
    phone.wait_for_selector("#speck[data-phase=bodentrumpf]")
    head = phone.locator("#head").inner_text()
    assert "Spiel 1 / 8" in head and "Geber: Claudia Frei" in head and "Vorhand: Dario Rossi" in head
    phone.click("#bt-picker button[data-suit=schellen]")
    phone.click("#bt-picker button[data-card='schellen-ober']")
    assert "Schellen Ober" in phone.inner_text("#bt-confirm")
    phone.click("#bt-confirm")
    phone.wait_for_selector("#speck[data-phase=playing]")
    assert "Trumpf Schellen" in phone.inner_text("#head")
    assert "am Zug: Dario Rossi" in phone.inner_text("#head")

    # the camera sees Anna lead out of turn (2.8.3): flagged at once, with the rule's text
    pos = store.append(1, CardPlayed(seat=0, card="schellen-under"))
    item = phone.locator(f"#misplays li[data-ref='{pos}']")
    item.wait_for()
    text = item.inner_text()
    assert "2.8.3 Spieler spielt irrtümlich aus" in text and "Anna Muster" in text
    assert "Die irrtümlich gespielte Karte verliert ihren Stichwert." in phone.inner_text("#misplays blockquote")
    item.locator("button[data-ruling=penalty]").click()
    phone.wait_for_selector(f"#misplays li[data-ref='{pos}'].decided button[data-ruling=penalty].on")
    phone.wait_for_selector("#trick figure.void")
    assert store.events(1)[-1].type == "misplay_ruled"

    # a card entered by hand (no camera): Beat is next
    phone.click("#manual summary")
    phone.click("#play-picker button[data-suit=schellen]")
    assert phone.locator("#play-picker button[data-card='schellen-under']").is_disabled()  # already played
    phone.click("#play-picker button[data-card='schellen-6']")
    phone.wait_for_function("document.querySelectorAll('#trick figure img').length === 2")
    played = store.events(1)[-1]
    assert isinstance(played, CardPlayed) and (played.seat, played.card, played.source) == (1, "schellen-6", "manual")
    assert phone.locator("#points tr").count() == 4
    # the phone layout does not scroll sideways
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.slow  # a browser prints and downloads
def test_punkteblatt_page_prints_and_downloads_on_a_phone(live: ServerHandle, store: EventStore, phone: Page) -> None:
    events = speck_events(seed=12, scorer=1, dealer=1, speck_games=8)
    assert isinstance(events[0], GameConfigured)
    game = store.new_game(events[0])
    for ev in events[1:]:
        store.append(game, ev)
    phone.goto(f"{live.url}/speck/{game}")
    phone.wait_for_selector("#speck[data-phase=over]")
    assert "Alle Spiele gespielt" in phone.inner_text("#head")
    assert phone.locator("#blatt tbody tr").count() == 8
    assert phone.inner_text("#blatt-total") == "1256"

    phone.click("#to-blatt")
    phone.wait_for_url(f"**/speck/{game}/blatt")
    assert phone.locator("#blatt-table tbody tr").count() == 8
    assert "8 Spiele × 157 = 1256" in phone.inner_text("#blatt-check") and "stimmt" in phone.inner_text("#blatt-check")
    ranking = phone.locator("#ranking tbody tr")
    assert ranking.count() == 4 and ranking.nth(0).inner_text().startswith("1.")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.emulate_media(media="print")
    assert not phone.locator("header.top").is_visible() and not phone.locator("#print").is_visible()
    assert phone.locator("#blatt-table").is_visible()
    phone.emulate_media(media="screen")
    pdf = phone.request.get(live.url + str(phone.locator("#pdf").get_attribute("href")))
    assert pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF-")
    csv = phone.request.get(live.url + str(phone.locator("#csv").get_attribute("href")))
    assert csv.text().splitlines()[0] == "Spiel,Geber,Bodentrumpf," + ",".join(PLAYERS) + ",Summe,Kontrolle"


def test_a_speck_game_set_up_while_a_schieber_runs_asks_first_and_ends_it_abandoned(
    live: ServerHandle, store: EventStore, phone: Page
) -> None:
    running = store.new_game(GameConfigured(players=("Anna", "Beat", "Claudia", "Dario")))
    assert phone.request.post(live.url + "/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
    phone.goto(live.url + "/speck/setup")
    for i, name in enumerate(PLAYERS):
        first, last = name.split()
        phone.fill(f"input[name=first{i}]", first)
        phone.fill(f"input[name=last{i}]", last)
    phone.click("#create")
    phone.wait_for_selector("dialog.ask[open]")
    assert f"#{running}" in phone.inner_text("dialog.ask .running-game")
    phone.click("#ask-ok")
    phone.wait_for_url(f"**/speck/{running + 1}")
    assert store.abandoned(running) is not None and store.current_game() == running + 1
