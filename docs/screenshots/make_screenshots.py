"""Regenerate the dashboard screenshots in this folder (phone and tablet, headless Chromium).

A simulated game (scoring.simulate, seed 3) is written into a temporary event store and
the real server is photographed at a few moments of it, on a phone (390 x 844) and a
tablet (820 x 1180); the bundled demo recording gives the Verlauf's trick picture. Needs
/usr/bin/chromium.

    .venv/bin/python docs/screenshots/make_screenshots.py
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from jasscam.pictures import GamePictures, serialized
from jasscam.store import EventStore
from scoring.events import CardPlayed, GameConfigured, RoundStarted, TrickCollected, WeisDeclared
from scoring.simulate import random_game_events
from vision.recognizer import Recognizer
from vision.recording import Recording
from web.app import create_app
from web.server import serve

OUT = Path(__file__).resolve().parent
DEMO = OUT.parents[1] / "jasscam" / "data" / "demo-recording"
PLAYERS = ("Anna", "Beat", "Claudia", "Dario")
PIN = "471108"


def by_table(event: object) -> bool:
    """What the players enter on their phones (the camera sees cards and collections)."""
    return not isinstance(event, (CardPlayed, TrickCollected))


def main() -> int:
    events = random_game_events(random.Random(3), players=PLAYERS)
    config = events[0]
    assert isinstance(config, GameConfigured)
    # a moment in the second round: Weis declared, three cards on the table
    starts = [i for i, e in enumerate(events) if isinstance(e, RoundStarted)]
    weis_round = next(
        i
        for i, s in enumerate(starts)
        if any(isinstance(e, WeisDeclared) for e in events[s : (starts + [len(events)])[i + 1]])
    )
    cut = starts[weis_round]
    cards = 0
    while cards < 7 or not any(isinstance(e, WeisDeclared) for e in events[starts[weis_round] : cut]):
        cards += isinstance(events[cut], CardPlayed)
        cut += 1
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "shots.sqlite")
        game = store.new_game(config)
        for e in events[1:cut]:
            store.append(game, e, by_hand=by_table(e))
        app = create_app(
            store,
            pin=PIN,
            public_url="http://jasscam.local:8080/",
            frame_at=GamePictures(store, replayed=DEMO),
            recognize=serialized(Recognizer().recognize),
        )
        handle = serve(app, "127.0.0.1", 0)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path="/usr/bin/chromium",
                    args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
                )
                ctx = browser.new_context(
                    viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
                )
                page = ctx.new_page()
                page.on("dialog", lambda d: d.accept())
                base = handle.url

                page.goto(base + "/")
                page.screenshot(path=OUT / "start.png")

                page.goto(base + "/setup")
                page.fill("input[name=p0]", "Anna")
                page.fill("input[name=p1]", "Beat")
                page.fill("input[name=p2]", "Claudia")
                page.fill("input[name=p3]", "Dario")
                page.screenshot(path=OUT / "setup.png", full_page=True)

                page.goto(f"{base}/game/{game}")
                assert page.request.post(base + "/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
                page.wait_for_selector(f"body[data-count='{cut}']")
                page.screenshot(path=OUT / "live.png")
                page.click("#undo-quick")  # what ↶ would take back, before it does
                page.wait_for_timeout(300)
                page.screenshot(path=OUT / "undo-preview.png")
                page.click("#dlg-cancel")

                tablet = browser.new_context(
                    viewport={"width": 820, "height": 1180}, is_mobile=True, has_touch=True
                ).new_page()
                tablet.goto(f"{base}/game/{game}")
                tablet.wait_for_selector(f"body[data-count='{cut}']")
                tablet.wait_for_timeout(300)
                tablet.screenshot(path=OUT / "live-tablet.png")

                page.click(".slot .card >> nth=0")
                page.wait_for_timeout(300)
                page.screenshot(path=OUT / "correct-card.png")
                page.click("#dlg-cancel")

                page.goto(f"{base}/game/{game}")
                page.wait_for_selector(f"body[data-count='{cut}']")
                page.evaluate("() => document.getElementById('weis-btn') || true")

                for e in events[cut:]:
                    store.append(game, e, by_hand=by_table(e))
                page.wait_for_selector(f"body[data-count='{len(events)}']")
                page.click(".tabs button[data-tab='tafel']")
                page.screenshot(path=OUT / "tafel.png", full_page=True)
                tablet.goto(f"{base}/game/{game}")
                tablet.wait_for_selector(f"body[data-count='{len(events)}']")
                tablet.wait_for_timeout(300)
                tablet.screenshot(path=OUT / "tafel-tablet.png", full_page=True)

                # a fresh round for the Weis dialog, in English to show the language choice
                game2 = store.new_game(config)
                for e in events[1 : starts[0] + 2]:
                    store.append(game2, e, by_hand=by_table(e))
                page.goto(f"{base}/lang/en?next=/game/{game2}")
                page.wait_for_selector(f"body[data-count='{starts[0] + 2}']")
                page.click("#weis-btn")
                page.click("#pick-from button[data-value='7']")
                page.click("#pick-to button[data-value='10']")
                page.wait_for_timeout(300)
                page.screenshot(path=OUT / "weis-dialog-en.png")
                page.click("#dlg-ok")
                page.wait_for_selector(f"body[data-count='{starts[0] + 3}']")
                # a correction by tapping the card, then undo: both show in the history
                page.click(".slot .card >> nth=0")
                page.click("#pick-psuit button[data-value='rosen']")
                page.click(".picker button[data-card='rosen-ass']")
                page.click("#dlg-ok")
                page.wait_for_selector(f"body[data-count='{starts[0] + 4}']")
                page.click(".tabs button[data-tab='history']")
                page.click("#undo")
                page.click("#dlg-ok")
                page.wait_for_selector(f"body[data-count='{starts[0] + 5}']")
                page.goto(f"{base}/lang/de?next=/game/{game2}")
                page.wait_for_selector(f"body[data-count='{starts[0] + 5}']")
                page.click(".tabs button[data-tab='history']")
                page.screenshot(path=OUT / "history.png")
                # a game with no round yet: the contract and Schieben by button
                store.abandon(game2)  # as the set-up page does when the table ends a running game
                game3 = store.new_game(config)
                page.goto(f"{base}/game/{game3}")
                page.wait_for_selector("body[data-count='1']")
                page.click("#new-round")
                page.click("#pick-contract button[data-value='rosen']")
                page.check("#schieben")
                page.wait_for_timeout(300)
                page.screenshot(path=OUT / "new-round.png")
                page.click("#dlg-cancel")

                # a new game while one runs: the question, then the list of games
                page.goto(base + "/setup")
                for i, name in enumerate(PLAYERS):
                    page.fill(f"input[name=p{i}]", name)
                page.click("#create")
                page.wait_for_selector("dialog.ask[open]")
                page.wait_for_timeout(300)
                page.screenshot(path=OUT / "new-game-question.png")
                page.click("#ask-ok")
                page.wait_for_url("**/game/*")
                page.goto(base + "/games")
                page.wait_for_selector("#games-list li.game")
                page.screenshot(path=OUT / "games.png", full_page=True)

                # the one Stöck button asks who calls; every seat looks the same
                game5 = store.new_game(config)
                store.append(game5, RoundStarted(forehand=0, contract="rosen"), by_hand=True)
                store.append(game5, CardPlayed(seat=0, card="rosen-koenig"))
                page.goto(f"{base}/game/{game5}")
                page.wait_for_selector("body[data-count='3']")
                page.click("#stoeck-btn")
                page.wait_for_timeout(300)
                page.screenshot(path=OUT / "stoeck.png")
                page.click("#dlg-cancel")
                store.abandon(game5)

                # the camera's picture of a trick, from the bundled recording
                demo = Recording.open(DEMO).events
                game4 = store.new_game(demo[0])  # type: ignore[arg-type]
                collect = [i for i, e in enumerate(demo) if isinstance(e, TrickCollected)][2]
                for e in demo[1 : collect + 1]:
                    store.append(game4, e, by_hand=by_table(e))
                page.goto(f"{base}/game/{game4}")
                page.wait_for_selector(f"body[data-count='{collect + 1}']")
                page.click(".tabs button[data-tab='history']")
                page.click(f"#events li[data-pos='{collect}'] .shot")
                page.wait_for_function("() => document.querySelector('#shot').naturalWidth > 0", timeout=30_000)
                page.screenshot(path=OUT / "trick-picture.png")
                browser.close()
        finally:
            handle.stop()
            store.close()
    print("\n".join(sorted(str(p.name) for p in OUT.glob("*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
