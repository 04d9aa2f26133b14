"""Two cards laid almost together, the first of them lost from sight until the second
had counted: each still counts for the player it lies in front of.

In rendered games the oracle lost tricks this way: the Schellen 6 and 7 were laid at the
same moment by the left and bottom players; the 6 showed first, read as one card and then
another under the two hands, and was taken for a view of the 7 under its hand once the 7
counted. Seen again, it counted after the 7, in the seat after the 7's: the two cards
swapped seats.
"""

from __future__ import annotations

from tests.tracker.table import Table, _Card, corrected, run

LEAD = (2, "rosen-koenig")
#: Seat 3 (left) lays just left of the centre, seat 0 (bottom) just below it.
LEFT_SPOT = (296.0, 236.0)
BOTTOM_SPOT = (318.0, 268.0)


def together(table: Table) -> None:
    """Seat 2 leads; seats 3 and 0 lay their cards at the same moment, the left card seen
    first, misread under the hands, then hidden under the bottom hand until the bottom
    card has lain still a while."""
    table.arms = {"top"}
    table.lay(*LEAD[::-1], at=(322.0, 212.0), rest=8)
    table.arms = set()
    table.step(6)
    table.arms = {"left", "bottom"}
    table.cards["schellen-6"] = _Card("schellen-6", LEFT_SPOT, 90.0)
    table.rest_times["schellen-6"] = round(table.t, 6)
    table.misreads["schellen-6"] = ("rosen-10", 0.5, (("schellen-6", 0.3),))
    table.step()
    table.misreads["schellen-6"] = ("schellen-7", 0.6, (("schellen-6", 0.3),))
    table.step()
    table.cards["schellen-7"] = _Card("schellen-7", BOTTOM_SPOT, 0.0)
    table.rest_times["schellen-7"] = round(table.t, 6)
    table.step()
    table.arms = {"bottom"}
    table.hidden = {"schellen-6"}
    table.step(2)
    table.arms = set()
    table.step()
    table.hidden = set()
    table.step(12)


def test_two_cards_laid_together_keep_their_players_when_the_first_was_lost_from_sight() -> None:
    table = Table()
    together(table)
    events = run(table, forehand=2)
    assert corrected(events) == [LEAD, (3, "schellen-6"), (0, "schellen-7")]
