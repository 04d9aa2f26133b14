"""The pages speak the table's words: its deck's names for suits and cards, refusals in the page's language."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.events import parse_event
from tests.pages import text_of
from vision.enroll import DeckLibrary, DeckProfile
from vision.recognizer import Recognizer
from web.app import create_app
from web.enroll import register_enroll
from web.server import serve

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


@pytest.mark.slow  # the deck is enrolled first (paris_suit_profile)
def test_a_french_deck_gives_the_contract_and_the_hints_its_own_suit_and_card_names(
    phone: Page, paris_suit_profile: DeckProfile, tmp_path: Path
) -> None:
    library = DeckLibrary(tmp_path / "decks")
    library.set_active(library.save(paris_suit_profile))
    with EventStore(tmp_path / "games.db") as store:
        game = store.new_game(parse_event({"type": "game_configured", "players": ["Anna", "Beat", "Claudia", "Dario"]}))  # type: ignore[arg-type]
        for raw in (
            {"type": "round_started", "forehand": 0, "contract": "rosen"},
            {"type": "card_played", "seat": 0, "card": "rosen-9"},
            {"type": "card_played", "seat": 1, "card": "rosen-9"},  # read twice: a hint about the card
        ):
            store.append(game, parse_event(raw))
        app = create_app(store, pin="471108", settings_path=tmp_path / "dashboard.json")
        register_enroll(app, decks_dir=tmp_path / "decks")
        handle = serve(app, "127.0.0.1", 0)
        try:
            phone.goto(f"{handle.url}/game/{game}")
            phone.wait_for_function("() => document.querySelector('#trump')?.textContent.includes('Herz')")
            hint = text_of(phone, "#flags li[data-code='card_already_played']")
            assert hint is not None and hint.startswith("Herz 9") and "Rosen" not in hint
        finally:
            handle.stop()


def test_a_capture_without_a_card_is_refused_in_the_pages_language(
    phone: Page, recognizer: Recognizer, tmp_path: Path
) -> None:
    import numpy as np

    with EventStore(tmp_path / "games.db") as store:
        app = create_app(store, pin="471108", settings_path=tmp_path / "dashboard.json")
        register_enroll(
            app, frames=lambda: np.full((480, 640, 3), 40, np.uint8), recognizer=recognizer, views=4
        )  # an empty table
        handle = serve(app, "127.0.0.1", 0)
        try:
            phone.goto(f"{handle.url}/lang/fr?next=/enroll/")
            assert phone.request.post(
                f"{handle.url}/api/pin", headers={"X-Table-Pin": "471108"}
            ).ok  # signs this phone in
            phone.fill("#start-form input[name=name]", "Paris")
            phone.click("#start-form button")
            phone.wait_for_selector("#next-cards li")
            phone.click("#capture")
            phone.wait_for_selector("#toast.bad.show")
            assert "Aucune carte visible" in text_of(phone, "#toast")
        finally:
            handle.stop()
