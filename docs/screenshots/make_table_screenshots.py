"""Regenerate the screenshots of the statistics, Coiffeur, Differenzler and a round entered
by hand (phone, headless Chromium) from games written into a temporary event store.

    .venv/bin/python docs/screenshots/make_table_screenshots.py
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from jasscam.store import EventStore
from scoring.events import ForecastMade, GameConfigured, RoundEntered, RoundStarted
from scoring.simulate import random_game_events
from web.app import create_app
from web.server import serve

OUT = Path(__file__).resolve().parent
PLAYERS = ("Anna", "Beat", "Claudia", "Dario")
PIN = "471108"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        tables = (
            PLAYERS,
            ("Eva", "Beat", "Fritz", "Dario"),
            ("Anna", "Dario", "Claudia", "Beat"),
            ("Eva", "Anna", "Fritz", "Claudia"),
        )
        for game, players in enumerate(tables, start=1):
            store.import_game(game, None, random_game_events(random.Random(game), players=players))
        coiffeur = store.new_game(GameConfigured(players=PLAYERS, variant="coiffeur"))
        for event in (
            RoundEntered(contract="rosen", row=2, forehand=0, team=0, points=100, weis=(20, 0)),
            RoundEntered(contract="obenabe", row=4, forehand=1, team=1, points=157, match=True),
            RoundStarted(forehand=2, contract="misere", row=7),
        ):
            store.append(coiffeur, event, by_hand=True)
        store.abandon(coiffeur)
        differenzler = store.new_game(GameConfigured(players=PLAYERS, variant="differenzler", differenzler_rounds=4))
        for event in (
            ForecastMade(seat=0, points=40),
            ForecastMade(seat=1, points=20),
            ForecastMade(seat=2, points=50),
            ForecastMade(seat=3, points=47),
            RoundEntered(contract="rosen", forehand=0, player_points=(45, 30, 40, 42)),
            ForecastMade(seat=1, points=60),
        ):
            store.append(differenzler, event, by_hand=True)
        app = create_app(store, pin=PIN, settings_path=Path(tmp) / "dashboard.json")
        server = serve(app, "127.0.0.1", 0)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path="/usr/bin/chromium",
                    args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
                )
                page = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1).new_page()
                assert page.request.post(f"{server.url}/api/pin", headers={"X-Table-Pin": PIN}).ok
                page.goto(f"{server.url}/stats")
                page.wait_for_selector("body[data-loaded]")
                page.wait_for_function(
                    "[...document.querySelectorAll('img.chart')].every(i => i.complete && i.naturalWidth > 0)"
                )
                page.screenshot(path=str(OUT / "stats.png"), full_page=True)
                page.goto(f"{server.url}/setup")
                page.wait_for_selector("#known-chips button")
                page.locator("#known").scroll_into_view_if_needed()
                page.screenshot(path=str(OUT / "setup-players.png"))
                page.goto(f"{server.url}/game/{coiffeur}")
                page.wait_for_selector("body[data-count='4']")
                page.click("button[data-tab='tafel']")
                page.screenshot(path=str(OUT / "coiffeur-tafel.png"), full_page=True)
                page.goto(f"{server.url}/game/{differenzler}")
                page.wait_for_selector("body[data-count='7']")
                page.screenshot(path=str(OUT / "differenzler.png"))
                schieber = store.new_game(GameConfigured(players=PLAYERS))
                page.goto(f"{server.url}/game/{schieber}")
                page.wait_for_selector("body[data-count='1']")
                page.click("#enter-round")
                page.click("#pick-hand-contract button[data-value='schellen']")
                page.fill("#hand-points", "98")
                page.click("#pick-hand-weis-team button[data-value='0']")
                page.click("#dlg-body button[data-weis='50']")
                page.screenshot(path=str(OUT / "round-by-hand.png"))
                browser.close()
        finally:
            server.stop()
            store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
