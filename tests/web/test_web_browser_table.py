"""Real headless Chromium on a phone: the screens behave as a Jass table expects (issue 31).

Undo takes back what the table did by hand, a new game ends the running one first, the
Weis stays open as long as the rules accept one, the score reads at a glance, and Stöck
is one clear button with visible feedback.
"""

from __future__ import annotations

import pytest

from jasscam.store import EventStore
from scoring.events import parse_event
from tests.web.conftest import PIN
from web.server import ServerHandle

pytestmark = pytest.mark.browser

#: An Eicheln round: seat 0 leads the trump König, the others lay Rosen; seat 0 wins.
FIRST_TRICK: list[dict[str, object]] = [
    {"type": "card_played", "seat": 0, "card": "eicheln-koenig"},
    {"type": "card_played", "seat": 1, "card": "rosen-6"},
    {"type": "card_played", "seat": 2, "card": "rosen-7"},
    {"type": "card_played", "seat": 3, "card": "rosen-8"},
]
ROUND = {"type": "round_started", "forehand": 0, "contract": "eicheln"}


def open_game(phone, live: ServerHandle, game: int, pin: str | None = PIN) -> None:  # type: ignore[no-untyped-def]
    phone.goto(f"{live.url}/game/{game}")
    if pin is not None:
        phone.evaluate("pin => localStorage.setItem('tablePin', pin)", pin)
    wait_count(phone, live, game)


def wait_count(phone, live: ServerHandle, game: int) -> None:  # type: ignore[no-untyped-def]
    count = len(live.app.extensions["jasscam_store"].events(game))
    phone.wait_for_selector(f"body[data-count='{count}']")


def camera(store: EventStore, game: int, *events: dict[str, object]) -> None:
    """Events as the camera's pipeline stores them."""
    for e in events:
        store.append(game, parse_event(e))


def by_hand(store: EventStore, game: int, *events: dict[str, object]) -> None:
    """Events as a phone stores them (the demo's table script does the same)."""
    for e in events:
        store.append(game, parse_event(e), by_hand=True)


# -- 1. undo ----------------------------------------------------------------------------


def test_undo_takes_back_the_tables_correction_not_the_camera_collection_after_it(phone, live: ServerHandle, store: EventStore, new_game) -> None:  # type: ignore[no-untyped-def]
    game = new_game()
    by_hand(store, game, ROUND)
    camera(store, game, *FIRST_TRICK)
    open_game(phone, live, game)
    assert phone.text_content("#team0 .rnd").startswith("+4")
    phone.click("#seat0 .slot .card")  # the trump König, to be "corrected" to the Rosen Ass
    phone.click("#pick-psuit button[data-value='rosen']")
    phone.click(".picker button[data-card='rosen-ass']")
    phone.click("#dlg-ok")
    correction = 6
    phone.wait_for_selector(f"body[data-count='{correction + 1}']")
    assert phone.text_content("#team0 .rnd").startswith("+11")
    camera(store, game, {"type": "trick_collected", "seat": 0})  # the camera logs the collection meanwhile
    wait_count(phone, live, game)
    phone.click("#undo-quick")
    # the preview names the correction, and says the camera's collection stays
    preview = phone.text_content("#dlg-body")
    assert f"#{correction}" in preview and "Rosen Ass" in preview
    assert "1" in phone.text_content("#dlg-body .muted")
    phone.click("#dlg-ok")
    wait_count(phone, live, game)
    events = store.events(game)
    assert events[-1] == parse_event({"type": "event_voided", "ref": correction})
    assert phone.text_content("#team0 .rnd").startswith("+4")
    assert phone.locator("#last-cards .card").count() == 4  # the collected trick stayed collected
    # the voided correction comes back from the history (a redo, itself an event_voided)
    phone.click(".tabs button[data-tab='history']")
    phone.click(f"#events li.voided[data-pos='{correction}']")
    phone.click("#dlg-ok")
    wait_count(phone, live, game)
    assert store.events(game)[-1] == parse_event({"type": "event_voided", "ref": len(events) - 1})
    phone.click(".tabs button[data-tab='table']")
    assert phone.text_content("#team0 .rnd").startswith("+11")


def test_undo_with_only_camera_events_after_the_round_voids_nothing_by_surprise(phone, live: ServerHandle, store: EventStore, new_game) -> None:  # type: ignore[no-untyped-def]
    game = new_game()
    by_hand(store, game, ROUND)
    camera(store, game, *FIRST_TRICK, {"type": "trick_collected", "seat": 0})
    open_game(phone, live, game)
    phone.click("#undo-quick")
    # the target is the round the table started by hand, and the camera's five events are named
    assert "#1" in phone.text_content("#dlg-body")
    assert "5" in phone.text_content("#dlg-body .muted")
    phone.click("#dlg-cancel")
    assert len(store.events(game)) == 7
