"""Real headless Chromium: a phone follows a whole replayed game to the end."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.game import fold
from tests.pages import text_of
from tests.web.conftest import NewGame, game_events
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


@pytest.mark.slow  # a whole game followed in the browser
def test_phone_follows_a_replayed_game_to_the_end_and_shows_the_right_totals(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    events = game_events(seed=3)  # the engine's simulator: Weis, Stöck, every trick collected
    game = new_game()
    phone.goto(f"{live.url}/game/{game}")
    phone.wait_for_selector("body[data-count='1']")
    seen_cards = 0
    for n, event in enumerate(events[1:], start=2):
        store.append(game, event)
        phone.wait_for_selector(f"body[data-count='{n}']")  # every event arrives, in order
        if event.type == "card_played":
            seen_cards += phone.locator(f".slot .card[data-ref='{n - 1}']").count()
    assert seen_cards == sum(e.type == "card_played" for e in events)  # each card was on the table
    state = fold(events)
    assert state.game_over is not None
    for team in (0, 1):
        assert text_of(phone, f"#team{team} .total") == str(state.totals[team].total)
    banner = text_of(phone, "#game-over")
    assert "AB"[state.game_over.winner or 0] in banner
    phone.click(".tabs button[data-tab='tafel']")
    for team in (0, 1):
        assert text_of(phone, f"#tafel-total{team}") == str(state.totals[team].total)
    assert phone.locator("#tafel tbody tr").count() == len(state.sheet)
    assert phone.locator("#chart svg path").count() == 2
