"""Real headless Chromium on a phone viewport: the buttons change the score."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.events import parse_event
from scoring.game import fold
from tests.pages import text_of
from tests.web.conftest import PIN, PLAYERS, STOECK_ROUND, NewGame
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def open_game(phone: Page, live: ServerHandle, game: int, count: int, pin: str | None = PIN) -> None:
    if pin is not None:  # sign this phone in: the session cookie is all later writes carry
        assert phone.request.post(f"{live.url}/api/pin", headers={"X-Table-Pin": pin}).ok
    phone.goto(f"{live.url}/game/{game}")
    phone.wait_for_selector(f"body[data-count='{count}']")


def feed(store: EventStore, game: int, events: list[dict[str, object]]) -> int:
    for e in events:
        store.append(game, parse_event(e))
    return len(store.events(game))


def pick_card(phone: Page, card: str) -> None:
    """In the open card dialog: the card's suit, the card, OK."""
    phone.click(f"#pick-psuit button[data-value='{card.split('-')[0]}']")
    phone.click(f".picker button[data-card='{card}']")
    phone.click("#dlg-ok")


def test_wrong_pin_is_refused_then_weis_by_button_changes_the_score(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    count = feed(
        store,
        game,
        [
            {"type": "round_started", "forehand": 0, "contract": "schellen"},  # x2 in the default table
            {"type": "card_played", "seat": 0, "card": "eicheln-6"},
        ],
    )
    open_game(phone, live, game, count, pin=None)
    assert text_of(phone, "#team0 .rnd").startswith("+0")
    phone.click("#weis-btn")
    phone.click("#pick-seat button[data-value='0']")
    phone.click("#pick-kind button[data-value='sequence']")
    phone.click("#pick-suit button[data-value='eicheln']")
    phone.click("#pick-from button[data-value='6']")
    phone.click("#pick-to button[data-value='9']")
    phone.click("#dlg-ok")
    # no PIN remembered yet: the PIN dialog asks; a wrong one is refused there
    phone.fill("#pin-input", "0000")
    phone.click("#pin-ok")
    phone.wait_for_selector("#pin-error:has-text('Falsche PIN')")
    assert len(store.events(game)) == count
    phone.fill("#pin-input", PIN)
    phone.click("#pin-ok")
    phone.wait_for_selector(f"body[data-count='{count + 1}']")
    # Vierblatt = 50, times 2 for Schellen; the engine says it counts for team A
    phone.wait_for_selector("#weis li[data-status='counts']")
    assert text_of(phone, "#team0 .rnd").startswith("+100")
    assert store.events(game)[-1] == parse_event(
        {"type": "weis_declared", "seat": 0, "weis": [["eicheln-6", "eicheln-7", "eicheln-8", "eicheln-9"]]}
    )


def call_stoeck(phone: Page, seat: int) -> None:
    phone.click("#stoeck-btn")
    phone.click(f"#pick-stoeck-seat button[data-value='{seat}']")
    phone.click("#dlg-ok")


def test_stoeck_by_button_counts_in_the_window_and_a_late_press_is_refused(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    count = feed(store, game, STOECK_ROUND)
    open_game(phone, live, game, count)
    assert text_of(phone, "#team0 .rnd").startswith("+4")
    # every seat is offered alike: nothing on screen hints who holds them
    phone.click("#stoeck-btn")
    classes = phone.eval_on_selector_all("#pick-stoeck-seat button", "bs => bs.map(b => b.className + b.disabled)")
    assert len(classes) == 4 and len(set(classes)) == 1
    phone.click("#dlg-cancel")
    call_stoeck(phone, 0)
    phone.wait_for_selector(f"body[data-count='{count + 1}']")
    assert text_of(phone, "#team0 .rnd").startswith("+24")

    game2 = new_game()
    count2 = feed(store, game2, [*STOECK_ROUND, {"type": "card_played", "seat": 1, "card": "schellen-6"}])
    open_game(phone, live, game2, count2)
    call_stoeck(phone, 0)
    phone.wait_for_selector("#toast.bad:has-text('zu spät')")
    assert len(store.events(game2)) == count2
    assert text_of(phone, "#team0 .rnd").startswith("+4")


def test_a_correction_changes_the_score_and_undo_brings_it_back(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    count = feed(store, game, STOECK_ROUND)
    open_game(phone, live, game, count)
    assert text_of(phone, "#team0 .rnd").startswith("+4")
    phone.click("#last-cards .card[data-ref='2']")  # the trump König, recognised wrongly
    pick_card(phone, "rosen-ass")
    phone.wait_for_selector(f"body[data-count='{count + 1}']")
    assert phone.get_attribute("#last-cards .card[data-ref='2']", "data-card") == "rosen-ass"
    assert text_of(phone, "#team0 .rnd").startswith("+11")
    phone.click(".tabs button[data-tab='history']")
    assert "rosen" in text_of(phone, f"#events li[data-pos='{count}']").lower()
    phone.click("#undo")
    assert "rosen" in text_of(phone, "#dlg-body").lower()  # the preview names what goes
    phone.click("#dlg-ok")
    phone.wait_for_selector(f"body[data-count='{count + 2}']")
    phone.wait_for_selector(f"#events li.voided[data-pos='{count}']")
    phone.click(".tabs button[data-tab='table']")
    assert text_of(phone, "#team0 .rnd").startswith("+4")


def test_new_round_by_button_sets_contract_and_multiplier(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    open_game(phone, live, game, 1)
    phone.click("#new-round")
    phone.click("#pick-forehand button[data-value='1']")
    phone.click("#pick-contract button[data-value='undenufe']")
    phone.check("#schieben")
    phone.click("#dlg-ok")
    phone.wait_for_selector("body[data-count='2']")
    assert "Undenufe" in text_of(phone, "#trump")
    assert text_of(phone, "#mult") == "×4"
    assert store.events(game)[1] == parse_event(
        {"type": "round_started", "forehand": 1, "contract": "undenufe", "schoben": True}
    )
    # after Schieben the engine names forehand's partner as the declarer; the screen shows it
    assert fold(store.events(game)).round.declarer == 3  # type: ignore[union-attr]
    assert f"→ {PLAYERS[3]}" in text_of(phone, "#contract")


def test_a_flagged_card_can_be_tapped_and_corrected_and_the_flag_goes(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    count = feed(
        store,
        game,
        [
            {"type": "round_started", "forehand": 0, "contract": "rosen"},
            {"type": "card_played", "seat": 0, "card": "schellen-6"},
            {"type": "card_played", "seat": 1, "card": "schellen-6"},  # the camera misread a card
        ],
    )
    open_game(phone, live, game, count)
    phone.wait_for_selector("#flags li[data-code='card_already_played']")
    phone.click("#flags li.tap")
    pick_card(phone, "schellen-7")
    phone.wait_for_selector(f"body[data-count='{count + 1}']")
    assert phone.locator("#flags li").count() == 0
    assert phone.get_attribute("#seat1 .slot .card", "data-card") == "schellen-7"


def test_a_card_the_camera_never_saw_is_entered_from_its_flag(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    count = feed(
        store,
        game,
        [
            {"type": "round_started", "forehand": 0, "contract": "rosen"},
            {"type": "card_played", "seat": 0, "card": "schellen-6"},
            {"type": "card_played", "seat": 2, "card": "schellen-10"},  # seat 1's card was never read
            {"type": "card_played", "seat": 3, "card": "schellen-7"},
            {"type": "trick_collected", "seat": 1, "unseen": 1},
        ],
    )
    open_game(phone, live, game, count)
    phone.wait_for_selector("#flags li[data-code='card_unseen']")
    assert phone.locator("#last-cards .card.unseen").count() == 1
    assert "10" in text_of(phone, "#last .meta")  # the three seen cards, provisionally
    phone.click("#flags li.tap")
    pick_card(phone, "schellen-ass")
    phone.wait_for_selector(f"body[data-count='{count + 1}']")
    assert phone.locator("#flags li").count() == 0
    assert phone.locator("#last-cards .card.unseen").count() == 0
    cards = phone.locator("#last-cards .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == ["schellen-6", "schellen-ass", "schellen-10", "schellen-7"]  # in the order laid
    assert "21" in text_of(phone, "#last .meta")
    assert store.events(game)[-1] == parse_event(
        {"type": "card_corrected", "ref": count - 1, "card": "schellen-ass", "seat": 1}
    )


def test_two_cards_the_camera_never_saw_are_entered_each_from_its_own_flag(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    # Seats 1 and 3 laid their cards at once, each on the card before, and neither was
    # ever read: the trick was swept with two cards seen.
    game = new_game()
    count = feed(
        store,
        game,
        [
            {"type": "round_started", "forehand": 0, "contract": "rosen"},
            {"type": "card_played", "seat": 0, "card": "schellen-6"},
            {"type": "card_played", "seat": 2, "card": "schellen-10"},
            {"type": "trick_collected", "unseen": [1, 3]},
        ],
    )
    open_game(phone, live, game, count)
    phone.wait_for_selector("#flags li[data-code='card_unseen']")
    assert phone.locator("#flags li[data-code='card_unseen']").count() == 2
    assert phone.locator("#last-cards .card.unseen").count() == 2
    for n, (seat, card) in enumerate([(3, "schellen-7"), (1, "schellen-ass")]):
        flag = phone.locator("#flags li.tap").filter(has_text=PLAYERS[seat])
        flag.click()
        pick_card(phone, card)
        phone.wait_for_selector(f"body[data-count='{count + n + 1}']")
        assert store.events(game)[-1] == parse_event(
            {"type": "card_corrected", "ref": count - 1, "card": card, "seat": seat}
        )
    assert phone.locator("#flags li").count() == 0
    assert phone.locator("#last-cards .card.unseen").count() == 0
    cards = phone.locator("#last-cards .card").evaluate_all("els => els.map(e => e.dataset.card)")
    assert cards == ["schellen-6", "schellen-ass", "schellen-10", "schellen-7"]  # in the order laid
