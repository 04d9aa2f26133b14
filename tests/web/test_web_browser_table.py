"""Real headless Chromium on a phone: the screens behave as a Jass table expects.

Undo takes back what the table did by hand, a new game ends the running one first, the
Weis stays open as long as the rules accept one, the score reads at a glance, and Stöck
is one clear button with visible feedback.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from jasscam.store import EventStore
from scoring.events import parse_event
from tests.pages import text_of
from tests.web.conftest import PIN, NewGame, game_events
from web.server import ServerHandle

if TYPE_CHECKING:
    from playwright.sync_api import Browser, FloatRect, Page

pytestmark = pytest.mark.browser

#: An Eicheln round: seat 0 leads the trump König, the others lay Rosen; seat 0 wins.
FIRST_TRICK: list[dict[str, object]] = [
    {"type": "card_played", "seat": 0, "card": "eicheln-koenig"},
    {"type": "card_played", "seat": 1, "card": "rosen-6"},
    {"type": "card_played", "seat": 2, "card": "rosen-7"},
    {"type": "card_played", "seat": 3, "card": "rosen-8"},
]
ROUND = {"type": "round_started", "forehand": 0, "contract": "eicheln"}


def open_game(phone: Page, live: ServerHandle, game: int, pin: str | None = PIN) -> None:
    phone.goto(f"{live.url}/game/{game}")
    if pin is not None:
        assert phone.request.post(f"{live.url}/api/pin", headers={"X-Table-Pin": pin}).ok  # signs this phone in
    wait_count(phone, live, game)


def wait_count(phone: Page, live: ServerHandle, game: int) -> None:
    """Wait until the page shows every event the store has now."""
    count = len(live.app.extensions["jasscam_store"].events(game))
    phone.wait_for_selector(f"body[data-count='{count}']")


def wrote(phone: Page, live: ServerHandle, game: int, before: int) -> None:
    """After a tap that writes: wait until the store has the new event and the page shows it."""
    store = live.app.extensions["jasscam_store"]
    phone.wait_for_function("n => Number(document.body.dataset.count) > n", arg=before)
    phone.wait_for_selector(f"body[data-count='{len(store.events(game))}']")


def camera(store: EventStore, game: int, *events: dict[str, object]) -> None:
    """Events as the camera's pipeline stores them."""
    for e in events:
        store.append(game, parse_event(e))


def by_hand(store: EventStore, game: int, *events: dict[str, object]) -> None:
    """Events as a phone stores them (the demo's table script does the same)."""
    for e in events:
        store.append(game, parse_event(e), by_hand=True)


# -- 1. undo ----------------------------------------------------------------------------


def test_undo_takes_back_the_tables_correction_not_the_camera_collection_after_it(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    by_hand(store, game, ROUND)
    camera(store, game, *FIRST_TRICK)
    open_game(phone, live, game)
    assert text_of(phone, "#team0 .rnd").startswith("+4")
    phone.click("#seat0 .slot .card")  # the trump König, to be "corrected" to the Rosen Ass
    phone.click("#pick-psuit button[data-value='rosen']")
    phone.click(".picker button[data-card='rosen-ass']")
    phone.click("#dlg-ok")
    correction = 6
    phone.wait_for_selector(f"body[data-count='{correction + 1}']")
    assert text_of(phone, "#team0 .rnd").startswith("+11")
    camera(store, game, {"type": "trick_collected", "seat": 0})  # the camera logs the collection meanwhile
    wait_count(phone, live, game)
    phone.click("#undo-quick")
    # the preview names the correction, and says the camera's collection stays
    preview = text_of(phone, "#dlg-body")
    assert f"#{correction}" in preview and "Rosen Ass" in preview
    assert "1" in text_of(phone, "#dlg-body .muted")
    before = len(store.events(game))
    phone.click("#dlg-ok")
    wrote(phone, live, game, before)
    events = store.events(game)
    assert events[-1] == parse_event({"type": "event_voided", "ref": correction})
    assert text_of(phone, "#team0 .rnd").startswith("+4")
    assert phone.locator("#last-cards .card").count() == 4  # the collected trick stayed collected
    # the voided correction comes back from the history (a redo, itself an event_voided)
    phone.click(".tabs button[data-tab='history']")
    phone.click(f"#events li.voided[data-pos='{correction}']")
    before = len(store.events(game))
    phone.click("#dlg-ok")
    wrote(phone, live, game, before)
    assert store.events(game)[-1] == parse_event({"type": "event_voided", "ref": len(events) - 1})
    phone.click(".tabs button[data-tab='table']")
    assert text_of(phone, "#team0 .rnd").startswith("+11")


def test_undo_with_only_camera_events_after_the_round_voids_nothing_by_surprise(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    by_hand(store, game, ROUND)
    camera(store, game, *FIRST_TRICK, {"type": "trick_collected", "seat": 0})
    open_game(phone, live, game)
    phone.click("#undo-quick")
    # the target is the round the table started by hand, and the camera's five events are named
    assert "#1" in text_of(phone, "#dlg-body")
    assert "5" in text_of(phone, "#dlg-body .muted")
    phone.click("#dlg-cancel")
    assert len(store.events(game)) == 7


# -- 3. a new game while one runs ---------------------------------------------------------


@pytest.mark.slow  # a browser through a whole flow
def test_a_new_game_asks_to_end_the_running_one_closes_it_abandoned_and_the_list_shows_and_deletes(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    finished = new_game()
    for event in game_events(seed=3)[1:]:
        store.append(finished, event)
    running = new_game()
    by_hand(store, running, ROUND)
    camera(store, running, *FIRST_TRICK)
    assert phone.request.post(f"{live.url}/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
    phone.goto(f"{live.url}/setup")
    assert f"#{running}" in text_of(phone, "#running-note")
    for i, name in enumerate(("Eva", "Fritz", "Gina", "Hans")):
        phone.fill(f"input[name=p{i}]", name)
    phone.click("#create")
    phone.wait_for_selector("dialog.ask[open]")
    assert "Laufende Partie beenden?" in text_of(phone, "dialog.ask h2")
    assert f"#{running}" in text_of(phone, "dialog.ask .running-game")
    phone.click("#ask-cancel")  # the table keeps playing: nothing changes
    assert [g["id"] for g in store.games()] == [finished, running] and store.current_game() == running
    phone.click("#create")
    phone.click("#ask-ok")
    phone.wait_for_url(f"**/game/{running + 1}")
    new = running + 1
    assert store.current_game() == new
    assert store.abandoned(running) is not None and store.abandoned(finished) is None
    assert store.events(new)[0].players == ("Eva", "Fritz", "Gina", "Hans")  # type: ignore[union-attr]

    # the abandoned game still reads, closed: a banner and no buttons
    phone.goto(f"{live.url}/game/{running}")
    wait_count(phone, live, running)
    assert phone.is_visible("#abandoned")
    assert phone.locator("#actions button").count() == 0

    phone.goto(f"{live.url}/games")
    phone.wait_for_selector(f"#games-list li[data-game='{finished}']")
    status = phone.eval_on_selector_all(
        "#games-list li", "ls => ls.map(l => [Number(l.dataset.game), l.dataset.status])"
    )
    assert status == [[new, "running"], [running, "abandoned"], [finished, "finished"]]
    assert "abgebrochen" in text_of(phone, f"#games-list li[data-game='{running}']")
    phone.click(f"#games-list li[data-game='{running}'] .delete")
    assert "löschen" in text_of(phone, "dialog.ask h2")
    phone.click("#ask-ok")
    phone.wait_for_selector(f"#games-list li[data-game='{running}']", state="detached")
    assert [g["id"] for g in store.games()] == [finished, new]


def test_the_start_page_offers_the_running_game_only_while_it_runs(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    phone.goto(live.url + "/")
    assert phone.locator("#go-live").count() == 1
    for event in game_events(seed=3)[1:]:
        store.append(game, event)
    phone.goto(live.url + "/")
    assert phone.locator("#go-live").count() == 0  # the game is over: nothing runs
    assert phone.get_attribute("#go-last", "href") == f"/game/{game}"


# -- 4. the Weis window -------------------------------------------------------------------


def test_the_weis_button_stays_through_the_second_trick_and_a_weis_entered_there_counts(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    """000: «Das Team mit dem besten Weis zeigt die tatsächlichen Karten erst auf dem zweiten Stich»."""
    game = new_game()
    by_hand(store, game, ROUND)
    camera(store, game, *FIRST_TRICK, {"type": "trick_collected", "seat": 0})
    camera(store, game, {"type": "card_played", "seat": 0, "card": "schellen-ass"})  # trick 2 is laid
    open_game(phone, live, game)
    phone.click("#weis-btn")  # still there, although the first trick has four cards
    phone.click("#pick-seat button[data-value='1']")
    phone.click("#pick-suit button[data-value='schilten']")
    phone.click("#pick-from button[data-value='6']")
    phone.click("#pick-to button[data-value='8']")
    before = len(store.events(game))
    phone.click("#dlg-ok")
    wrote(phone, live, game, before)
    phone.wait_for_selector("#weis li[data-status='counts']")  # Dreiblatt for team B, not late
    assert text_of(phone, "#team1 .rnd").startswith("+20")
    camera(
        store,
        game,
        *[
            {"type": "card_played", "seat": s, "card": c}
            for s, c in ((1, "schellen-6"), (2, "schellen-7"), (3, "schellen-8"))
        ],
    )
    wait_count(phone, live, game)
    assert phone.locator("#weis-btn").count() == 0  # the second trick is complete: a Weis now is late


# -- 7. the score at a glance -------------------------------------------------------------


def test_the_round_points_are_large_the_totals_say_what_is_left_and_the_words_agree(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game(target=1000)
    by_hand(store, game, ROUND)
    camera(store, game, *FIRST_TRICK)
    open_game(phone, live, game)
    assert text_of(phone, "#trick-no") == "Stich 1/9"  # the complete trick still lies there
    camera(store, game, {"type": "trick_collected", "seat": 0})
    wait_count(phone, live, game)
    assert text_of(phone, "#trick-no") == "Stich 2/9"  # collected: the next one is due
    assert text_of(phone, "#team0 .rnd") == "+4"
    assert "1 Stich" in text_of(phone, "#team0 .tricks") and "Stiche" not in text_of(phone, "#team0 .tricks")
    assert "0 Stiche" in text_of(phone, "#team1 .tricks")
    assert "noch 1000" in text_of(phone, "#team0 .togo")
    big = phone.eval_on_selector("#team0 .rnd", "e => parseFloat(getComputedStyle(e).fontSize)")
    total = phone.eval_on_selector("#team0 .total", "e => parseFloat(getComputedStyle(e).fontSize)")
    assert big >= 2 * total  # the live round is what the table reads from across the felt
    # nothing sticks out of a 390 px phone, Team B's card included
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    box = phone.locator("#team1").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390


# -- 9. Stöck -----------------------------------------------------------------------------


def overlaps(a: FloatRect, b: FloatRect) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_one_stoeck_button_of_touch_size_says_what_it_wrote_and_the_toast_covers_no_button(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    by_hand(store, game, {"type": "round_started", "forehand": 0, "contract": "schellen"})  # x2: Stöck writes 40
    camera(
        store,
        game,
        *[
            {"type": "card_played", "seat": s, "card": c}
            for s, c in ((0, "schellen-koenig"), (1, "rosen-6"), (2, "rosen-7"), (3, "rosen-8"))
        ],
    )
    camera(
        store, game, {"type": "trick_collected", "seat": 0}, {"type": "card_played", "seat": 0, "card": "schellen-ober"}
    )
    open_game(phone, live, game)
    assert phone.locator(".seat .stoeck").count() == 0  # no small buttons on the felt
    button = phone.locator("#stoeck-btn").bounding_box()
    assert button is not None and button["height"] >= 44 and button["width"] >= 44
    phone.click("#stoeck-btn")
    phone.click("#pick-stoeck-seat button[data-value='0']")
    phone.click("#dlg-ok")
    phone.wait_for_selector("#toast.show:has-text('Stöck +40')")
    assert "Team A" in text_of(phone, "#toast")
    assert text_of(phone, "#team0 .stoeck-badge") == "Stöck +40"
    toast = phone.locator("#toast").bounding_box()
    assert toast is not None
    # the toast lies within the header (which covers whatever scrolls under it anyway) and
    # leaves the header's own buttons free
    header = phone.locator("header.top").bounding_box()
    assert header is not None
    assert toast["y"] >= header["y"] and toast["y"] + toast["height"] <= header["y"] + header["height"]
    own = [b.bounding_box() for b in phone.locator("header.top button, header.top select").all()]
    assert own and not any(box and overlaps(toast, box) for box in own)
    # a second call is refused with the engine's reason, and nothing is stored
    count = len(store.events(game))
    phone.click("#stoeck-btn")
    phone.click("#pick-stoeck-seat button[data-value='2']")
    phone.click("#dlg-ok")
    phone.wait_for_selector("#toast.bad.show")
    assert "Abgelehnt" in text_of(phone, "#toast") and len(text_of(phone, "#toast")) > len("Abgelehnt: ")
    assert len(store.events(game)) == count


# -- 2. the PIN on the phone --------------------------------------------------------------


def test_the_pin_dialog_says_where_the_pin_is_and_a_phone_enters_it_once(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    open_game(phone, live, game, pin=None)
    phone.click("#new-round")
    phone.click("#pick-contract button[data-value='rosen']")
    phone.click("#dlg-ok")
    phone.wait_for_selector("#pin-dialog[open]")
    assert "erste Partie eingerichtet" in text_of(phone, "#pin-where")
    assert "journalctl -u jasscam" in text_of(phone, "#pin-where")
    assert "Einmal pro Handy" in text_of(phone, "#pin-once")
    phone.click("#pin-forgot summary")
    assert "neue PIN" in phone.inner_text("#pin-forgot")
    phone.fill("#pin-input", PIN)
    before = len(store.events(game))
    phone.click("#pin-ok")
    wrote(phone, live, game, before)
    # the same phone, later: it writes without being asked again
    phone.reload()
    wait_count(phone, live, game)
    phone.click("#enter-card")
    phone.click("#pick-seat button[data-value='0']")
    phone.click(".picker button[data-card='eicheln-6']")
    before = len(store.events(game))
    phone.click("#dlg-ok")
    wrote(phone, live, game, before)
    assert len(store.events(game)) == 3
    assert not phone.is_visible("#pin-dialog")


# -- 6. hints in the players' words -------------------------------------------------------


def test_hints_name_the_players_and_cards_in_the_chosen_language_and_sit_at_the_top(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    by_hand(
        store, game, ROUND, {"type": "weis_declared", "seat": 1, "cards": ["schellen-8", "schellen-9", "schellen-10"]}
    )
    camera(store, game, {"type": "card_played", "seat": 0, "card": "schellen-10"})  # the Weis card, from another hand
    open_game(phone, live, game)
    hint = text_of(phone, "#flags li[data-code='weis_not_in_hand']")
    assert hint is not None and hint.startswith("Weis von Beat: Schellen Banner nicht in dieser Hand")
    assert "Platz" not in hint and "schellen-10" not in hint  # no seat counted from 0, no raw card id
    hints, score = phone.locator("#flags-panel").bounding_box(), phone.locator("#score").bounding_box()
    assert hints is not None and score is not None and hints["y"] < score["y"]  # above everything else
    phone.goto(f"{live.url}/lang/en?next=/game/{game}")
    wait_count(phone, live, game)
    assert text_of(phone, "#flags li").startswith("Weis from Beat:")
    # a refused button is explained in the page's language too
    phone.click("#stoeck-btn")
    phone.click("#pick-stoeck-seat button[data-value='2']")
    phone.click("#dlg-ok")
    phone.wait_for_selector("#toast.bad.show")
    assert "Stöck from Claudia" in text_of(phone, "#toast")


# -- 10. language and layout ----------------------------------------------------------------


def test_weis_labels_and_a_wrong_pin_are_worded_in_french(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    by_hand(
        store, game, ROUND, {"type": "weis_declared", "seat": 0, "cards": ["rosen-ober", "rosen-koenig", "rosen-under"]}
    )
    phone.goto(f"{live.url}/lang/fr?next=/game/{game}")
    wait_count(phone, live, game)
    weis = text_of(phone, "#weis li")
    assert weis is not None and "Tierce" in weis and "Dreiblatt" not in weis
    phone.click("#enter-card")
    phone.click(".picker button[data-card='eicheln-6']")
    phone.click("#dlg-ok")
    phone.fill("#pin-input", "000000")
    phone.click("#pin-ok")
    phone.wait_for_selector("#pin-error:has-text('PIN incorrect')")
    assert "wrong" not in text_of(phone, "#pin-error")


def test_the_header_links_fit_a_phone_on_the_speck_and_deck_pages_and_the_deck_page_is_linked(
    phone: Page, live: ServerHandle, new_game: NewGame
) -> None:
    speck = new_game(variant="speck", scorer=0, dealer=0)
    phone.goto(live.url + "/")
    assert phone.get_attribute("#go-enroll", "href") == "/enroll/"
    for path in ("/speck/setup", f"/speck/{speck}/blatt", "/enroll/", "/games"):
        phone.goto(live.url + path)
        cut = phone.eval_on_selector(
            ".top nav",
            "nav => [...nav.querySelectorAll('a')].filter(a => a.getBoundingClientRect().right > "
            "Math.min(nav.getBoundingClientRect().right, innerWidth) + 0.5).map(a => a.textContent)",
        )
        assert cut == [], (path, cut)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, path


def test_a_speck_game_is_listed_with_its_four_players_not_as_two_teams(
    phone: Page, live: ServerHandle, new_game: NewGame
) -> None:
    speck = new_game(variant="speck", scorer=0, dealer=0)
    phone.goto(live.url + "/games")
    line = text_of(phone, f"#games-list li[data-game='{speck}'] a")
    assert line is not None and "Anna, Beat, Claudia, Dario" in line and "&" not in line


def test_the_qr_code_offers_only_an_address_the_server_listens_on(phone: Page, live: ServerHandle) -> None:
    assert live.host == "127.0.0.1"
    phone.goto(live.url + "/")
    assert text_of(phone, ".qr .url") == live.url + "/"  # not this machine's LAN address
    assert "--host 0.0.0.0" in text_of(phone, "#qr-local")


# -- 8. the Tafel as paper players know it ---------------------------------------------------


def z_strokes(total: int) -> tuple[int, int, int, int]:
    """A total on the Z of a Jasstafel: strokes of 100 on top, of 50 on the diagonal, of 20 below, and the rest."""
    return total // 100, total % 100 // 50, total % 50 // 20, total % 50 % 20


@pytest.mark.slow  # a browser through a whole flow
def test_the_tafel_draws_the_z_with_its_strokes_the_back_side_and_explains_its_columns(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    from scoring.game import fold

    events = game_events(seed=3)
    game = new_game()
    for event in events[1:]:
        store.append(game, event)
    state = fold(events)
    open_game(phone, live, game)
    phone.click(".tabs button[data-tab='tafel']")
    for team in (0, 1):
        total = state.totals[team].total
        hundreds, fifties, twenties, rest = z_strokes(total)
        drawn = [phone.locator(f"#z{team} .{cls}").count() for cls in ("s100", "s50", "s20")]
        assert drawn == [hundreds, fifties, twenties], (team, total)
        assert text_of(phone, f"#z{team} .zrest") == str(rest)
        matches = sum(row.match_team == team for row in state.sheet)
        assert phone.get_attribute(f"#board-back-svg .matches[data-team='{team}']", "data-n") == str(matches)
        assert phone.locator(f"#board-back-svg .matches[data-team='{team}'] .stroke").count() == matches
    assert state.game_over is not None
    winner = state.game_over.winner
    assert phone.locator(f"#board-back-svg .wins[data-team='{winner}'] .stroke").count() == 1
    # the columns are explained, and in the page's language
    assert "W = Weis" in text_of(phone, "#tafel-legend")
    phone.goto(f"{live.url}/lang/fr?next=/game/{game}")
    wait_count(phone, live, game)
    phone.click(".tabs button[data-tab='tafel']")
    heads = phone.eval_on_selector_all("#tafel thead tr:nth-child(2) th", "ths => ths.map(t => t.textContent)")
    assert heads[2:6] == ["A", "S", "Pl", "Σ"]
    assert "A = annonces" in text_of(phone, "#tafel-legend")


def test_a_tablet_shows_the_felt_and_the_tafel_side_by_side(
    browser: Browser, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    by_hand(store, game, ROUND)
    camera(store, game, *FIRST_TRICK)
    context = browser.new_context(viewport={"width": 820, "height": 1180}, is_mobile=True, has_touch=True)
    try:
        tablet = context.new_page()
        tablet.set_default_timeout(10_000)
        open_game(tablet, live, game)
        felt, board = tablet.locator("#felt").bounding_box(), tablet.locator("#board-panel").bounding_box()
        assert felt is not None and board is not None
        assert board["x"] >= felt["x"] + felt["width"]  # beside, not below
        assert abs(board["y"] - felt["y"]) < felt["height"]
        assert not tablet.is_visible(".tabs button[data-tab='tafel']")  # no tab needed for what is shown
        assert tablet.evaluate("document.documentElement.scrollWidth") <= 820
        tablet.click(".tabs button[data-tab='history']")
        assert not tablet.is_visible("#felt") and tablet.is_visible("#events")
    finally:
        context.close()


# -- 5. what the camera saw -----------------------------------------------------------------


def test_an_unsure_read_is_marked_and_one_tap_confirms_or_corrects_it(
    phone: Page, live: ServerHandle, store: EventStore, new_game: NewGame
) -> None:
    game = new_game()
    by_hand(store, game, ROUND)
    camera(
        store,
        game,
        {"type": "card_played", "seat": 0, "card": "eicheln-koenig", "confidence": 0.97},
        {"type": "card_played", "seat": 1, "card": "rosen-6", "confidence": 0.41, "alternatives": [["rosen-9", 0.33]]},
        {"type": "card_played", "seat": 2, "card": "rosen-8", "confidence": 0.35, "alternatives": [["rosen-7", 0.34]]},
    )
    open_game(phone, live, game)
    assert phone.locator("#seat0 .card.unsure").count() == 0  # a sure read looks sure
    assert text_of(phone, "#seat1 .card.unsure .unsure-mark") == "? 41 %"
    phone.click("#seat1 .card")
    before = len(store.events(game))
    phone.click("#confirm-card")  # one tap: the card is what the camera read
    wrote(phone, live, game, before)
    assert store.events(game)[-1] == parse_event({"type": "card_corrected", "ref": 3, "card": "rosen-6"})
    assert phone.locator("#seat1 .card.unsure").count() == 0
    phone.click("#seat2 .card")
    before = len(store.events(game))
    phone.click("#dlg-body .alt[data-card='rosen-7']")  # one tap: the camera's runner-up
    wrote(phone, live, game, before)
    assert phone.get_attribute("#seat2 .slot .card", "data-card") == "rosen-7"
    assert phone.locator(".card.unsure").count() == 0


def test_the_set_up_and_live_pages_show_the_camera_state_and_its_picture_on_demand(
    phone: Page, store: EventStore, tmp_path: Path
) -> None:
    import numpy as np

    from web.app import create_app
    from web.mounting import register_mounting
    from web.server import serve

    source = {"name": "picamera2", "state": "live"}
    frame = np.zeros((960, 1280, 3), np.uint8)
    frame[:, :, 1] = np.linspace(0, 255, 1280, dtype=np.uint8)  # a green gradient: what the camera sees
    app = create_app(store, pin=PIN, settings_path=tmp_path / "dashboard.json", status=lambda: {"source": dict(source)})
    from vision.recognizer.scale import CardScale

    register_mounting(app, frames=lambda: frame, scale=CardScale(fixed=40))  # cards 40 px long: hung too high
    handle = serve(app, "127.0.0.1", 0)
    try:
        phone.goto(handle.url + "/setup")
        phone.wait_for_selector("#cam-state")
        assert text_of(phone, "#cam-state") == "Kamera: läuft"
        source.update(state="lost", error="no frame for 5 s")
        game = store.new_game(parse_event({"type": "game_configured", "players": ["A", "B", "C", "D"]}))  # type: ignore[arg-type]
        phone.goto(f"{handle.url}/game/{game}")
        assert phone.request.post(
            f"{handle.url}/api/pin", headers={"X-Table-Pin": PIN}
        ).ok  # the picture shows the table: sign in
        phone.wait_for_selector("body[data-count='1']")
        phone.wait_for_selector("#camera:not([hidden])")  # the banner while the camera is not live
        phone.click("#cam-open")
        phone.wait_for_selector("#cam-dlg #cam-state")
        assert text_of(phone, "#cam-dlg #cam-state") == "Kamera: keine Bilder: no frame for 5 s"
        assert (
            phone.get_attribute("#cam-dlg #cam-mounting", "data-state") == "too-small"
        )  # the mounting, from the live page too
        assert "40 Pixel" in text_of(phone, "#cam-dlg #cam-mounting")
        phone.click("#cam-show")
        phone.wait_for_function("() => document.querySelector('#cam-picture')?.naturalWidth > 0")
        assert phone.eval_on_selector("#cam-picture", "i => [i.naturalWidth, i.naturalHeight]") == [640, 480]  # small
    finally:
        handle.stop()
