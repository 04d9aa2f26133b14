"""The Speck set-up page continues a series from paper (real Chromium, phone viewport)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jasscam.store import EventStore
from scoring.events import GameConfigured
from tests.speck.conftest import PIN, PLAYERS
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page


def test_a_series_continued_from_paper_starts_at_the_next_game(
    live: ServerHandle, store: EventStore, phone: Page
) -> None:
    """2.5.3: the Punkteblatt is checked against games x 157, those on paper included."""
    assert phone.request.post(live.url + "/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
    phone.goto(live.url + "/speck/setup")
    for i, name in enumerate(PLAYERS):
        first, last = name.split()
        phone.fill(f"input[name=first{i}]", first)
        phone.fill(f"input[name=last{i}]", last)
    phone.check("input[name=games][value='8']")
    phone.fill("input[name=prior_games]", "3")
    for i, points in enumerate((200, 100, 100, 70)):  # 470: one point short of 3 x 157
        phone.fill(f"input[name=prior{i}]", str(points))
    phone.click("#create")
    phone.wait_for_selector("#toast:has-text('3 x 157 = 471')")
    assert store.games() == []
    phone.fill("input[name=prior3]", "71")
    phone.click("#create")
    phone.wait_for_url("**/speck/1")
    cfg = store.events(1)[0]
    assert isinstance(cfg, GameConfigured) and (cfg.prior_games, cfg.prior_totals) == (3, (200, 100, 100, 71))
    phone.wait_for_selector("#speck[data-phase=bodentrumpf]")
    assert "Spiel 4 / 8" in phone.locator("#head").inner_text()
