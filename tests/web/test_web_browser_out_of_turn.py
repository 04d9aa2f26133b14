"""Real headless Chromium: a card the camera saw laid out of turn is flagged with the
players' names, and one tap gives it to the player whose turn it was."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.events import CardCorrected, parse_event
from scoring.game import fold
from tests.pages import text_of
from tests.web.conftest import PLAYERS, NewGame
from tests.web.test_web_browser_buttons import feed, open_game
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

FLAG = "#flags li[data-code='out_of_turn']"


def flagged(phone: Page, live: ServerHandle, store: EventStore, game: int, plays: list[dict[str, object]]) -> int:
    """A Rosen round (forehand seat 0) with ``plays`` stored, opened on the phone until the
    out-of-turn flag shows; returns the event count."""
    count = feed(store, game, [{"type": "round_started", "forehand": 0, "contract": "rosen"}, *plays])
    open_game(phone, live, game, count)
    phone.wait_for_selector(FLAG)
    return count


def test_an_out_of_turn_flag_names_the_players_and_one_tap_gives_the_card_its_turn(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    plays: list[dict[str, object]] = [
        {"type": "card_played", "seat": 0, "card": "schellen-6"},
        {"type": "card_played", "seat": 2, "card": "schellen-ass"},  # the camera saw seat 2's hand
    ]
    count = flagged(phone, live, store, game, plays)
    text = text_of(phone, FLAG)
    assert PLAYERS[2] in text and PLAYERS[1] in text
    phone.click(f"{FLAG} button.oot-fix")
    phone.wait_for_selector(f"body[data-count='{count + 1}']")
    last = store.events(game)[-1]
    assert isinstance(last, CardCorrected) and last.seat == 1 and last.card == "schellen-ass"
    assert not [f for f in fold(store.events(game)).flags if f.code == "out_of_turn"]
    assert phone.locator(FLAG).count() == 0
    assert parse_event({"type": "card_corrected", "ref": 3, "card": "schellen-ass", "seat": 1}) == last


def test_a_lead_seen_from_another_seat_asks_the_table_to_check_the_last_trick(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    # Seat 1's Schellen Ass takes the first trick; the camera then sees seat 2's hand lead
    # the second. Either seat 2 led out of turn, or a card of the first trick was misread
    # and seat 2 won it: the flag says so, and offers no one-tap move of the lead.
    game = new_game()
    first = [
        {"type": "card_played", "seat": s, "card": c}
        for s, c in enumerate(["schellen-6", "schellen-ass", "schellen-7", "schellen-8"])
    ]
    flagged(
        phone,
        live,
        store,
        game,
        [
            *first,
            {"type": "trick_collected"},
            {"type": "card_played", "seat": 2, "card": "eicheln-6", "seat_seen": True},
        ],
    )
    text = text_of(phone, FLAG)
    assert PLAYERS[2] in text and PLAYERS[1] in text
    assert any(words in text for words in ("last trick", "letzten Stich", "dernier pli"))
    assert [f.lead for f in fold(store.events(game)).flags if f.code == "out_of_turn"] == [True]
    assert phone.locator(f"{FLAG} button.oot-fix").count() == 0
