"""A card the table declared in a Weis says whose it is.

Two cards laid almost together about the middle of the table are ordered by where they
lie and the hands seen; when neither says much, by which settled first, which says little
(rendered oracle rounds lost tricks to two such cards taking each other's seats). The
Weis the table enters on the dashboard during the first trick name cards in one player's
hand: a declared card was laid by the player who declared it.
"""

from __future__ import annotations

from scoring.events import RoundStarted, WeisDeclared
from tests.tracker.table import Table, _Card, corrected, run
from vision.tracker import TrickTracker

LEAD = (2, "rosen-koenig")
#: Seat 3's three Eicheln in sequence, declared as the round began.
WEIS = WeisDeclared(seat=3, weis=(("eicheln-6", "eicheln-7", "eicheln-8"),))


def laid_together(table: Table) -> None:
    """Seat 2 leads; then seats 3 and 0 lay at the same moment, both hands in view, both
    cards about the middle and turned alike, seat 0's Schellen 7 settling a frame before
    seat 3's Eicheln 8."""
    table.arms = {"top"}
    table.lay(LEAD[1], LEAD[0], at=(322.0, 212.0), rest=8)
    table.arms = set()
    table.step(6)
    table.arms = {"left", "bottom"}
    table.cards["schellen-7"] = _Card("schellen-7", (305.0, 250.0), 45.0)
    table.step()
    table.cards["eicheln-8"] = _Card("eicheln-8", (330.0, 255.0), 45.0)
    table.step(2)
    table.arms = set()
    table.step(12)


def test_two_cards_laid_together_take_their_players_seats_when_one_was_declared_in_a_weis() -> None:
    table = Table()
    laid_together(table)
    events = run(table, forehand=2, contract="rosen", declared=[WEIS])
    assert corrected(events) == [LEAD, (3, "eicheln-8"), (0, "schellen-7")]


def test_a_weis_the_table_took_back_says_nothing_of_whose_card_it_is() -> None:
    # The Weis was entered and then undone on the dashboard: the round's history, as the
    # rules engine counts it now, has no Weis, and the two cards count as they settled.
    table = Table()
    laid_together(table)
    tracker = TrickTracker()
    started = RoundStarted(forehand=2, contract="rosen")
    tracker.start_round(started)
    tracker.declare(WEIS)
    tracker.amend([])
    events = []
    for frame in table.frames:
        events += tracker.update(frame)
    assert corrected(events + tracker.finish()) == corrected(run(table, forehand=2, contract="rosen"))
