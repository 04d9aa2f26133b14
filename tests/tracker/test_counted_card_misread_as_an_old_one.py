"""The next player's hand covers part of the card counted last, and what still shows of it
is outlined anew and read as a card of an earlier trick. That is the counted card
misread, not a new card: a card still to come cannot be one already played. Counted as
new, it took the next player's seat, and their real card the seat after (a rendered
game lost its last trick so)."""

from __future__ import annotations

import pytest

from scoring.events import CardPlayed
from tests.tracker.table import SPOTS, Table, _Card, plays, run
from vision.tracker.reread import CardReread

FIRST = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]
#: The cards counted once ``second_trick_begun`` has laid them.
BEGUN = [*FIRST, (1, "schellen-9"), (2, "rosen-7")]


def second_trick_begun() -> Table:
    """The first trick laid and swept to seat 1 (its Ass wins, no trump played), then seat
    1's Schellen 9 and seat 2's Rosen 7 laid into the second."""
    table = Table()
    for seat, card in FIRST:
        table.lay(card, seat, rest=8)
    table.sweep(1)
    table.step(8)
    table.lay("schellen-9", 1, rest=8)
    table.lay("rosen-7", 2, rest=10)
    return table


def test_a_counted_card_read_as_a_card_of_an_earlier_trick_under_the_next_hand_is_no_new_card() -> None:
    table = second_trick_begun()
    # Seat 3's hand comes over the 7: it vanishes, then what shows of it lies a little
    # off its place, read as the Rosen 6 of the first trick, before seat 3's card shows.
    table.hidden = {"rosen-7"}
    table.step(1)
    table.hidden = set()
    x, y = SPOTS[2]
    table.cards["rosen-7"].pos = (x + 14.0, y + 2.0)
    table.reads_as["rosen-7"] = ("rosen-6", 0.87, (("eicheln-under", 0.03),))
    table.step(4)
    table.lay("schilten-ober", 3, at=(SPOTS[2][0] - 40.0, SPOTS[2][1] + 30.0), rest=12)
    del table.reads_as["rosen-7"]
    table.step(4)
    table.lay("schellen-8", 0, rest=10)
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [
        *BEGUN,
        (3, "schilten-ober"),
        (0, "schellen-8"),
    ]
    assert not any(isinstance(e, CardPlayed) and e.card == "rosen-6" and e.t and e.t > 10 for e in events)


def test_a_new_card_laid_over_the_counted_one_and_read_as_an_old_card_still_counts_for_its_player() -> None:
    table = second_trick_begun()
    # Seat 3 lays its card half over the 7, which it hides; the new card, its outline well
    # off the 7's, is read as the Rosen 10 of the first trick while it settles.
    x, y = SPOTS[2]
    table.reads_as["schilten-ober"] = ("rosen-10", 0.87, (("eicheln-under", 0.03),))
    table.hidden = {"rosen-7"}
    table.lay("schilten-ober", 3, at=(x - 25.0, y + 10.0), rest=6)
    del table.reads_as["schilten-ober"]
    table.step(8)
    table.lay("schellen-8", 0, rest=10)
    events = run(table, forehand=0, contract="eicheln")
    seen = plays(events)
    assert [seat for seat, _ in seen] == [0, 1, 2, 3, 1, 2, 3, 0]
    assert seen[4:6] == BEGUN[4:]
    assert seen[-1] == (0, "schellen-8")


@pytest.mark.parametrize("lost", [False, True], ids=["hidden-a-moment", "track-lost-under-a-hand"])
def test_a_counted_card_misread_as_an_old_one_as_the_fourth_card_lands_on_it_is_no_fifth_card(lost: bool) -> None:
    table = second_trick_begun()
    table.lay("schilten-ober", 3, rest=10)
    if lost:  # a hand rests over the 7 longer than the tracker keeps a card it cannot see
        table.hidden = {"rosen-7"}
        table.step(50)
        table.hidden = set()
    # As seat 0's card comes in over the 7, the 7 shows only in part, outlined well off
    # its own outline and read unsurely as the Rosen 10 of the first trick; for one frame
    # it is read right again (unless its track was lost), then the misread stays until
    # the trick is swept.
    x, y = SPOTS[2]
    misread = ("rosen-10", 0.64, (("eicheln-under", 0.03),))
    seven = table.cards.pop("rosen-7")
    table.cards["schellen-8"] = _Card("schellen-8", (x, y + 85.0), 0.0)  # still coming in
    table.cards["rosen-7"] = seven
    seven.pos = (x + 25.0, y - 12.0)
    table.reads_as["rosen-7"] = misread
    table.step(1)
    table.cards["schellen-8"].pos = (x, y + 45.0)
    table.rest_times["schellen-8"] = round(table.t, 6)
    if not lost:
        del table.reads_as["rosen-7"]
        table.cards["rosen-7"].pos = (x, y)
        table.step(1)
        table.cards["rosen-7"].pos = (x + 25.0, y - 12.0)
        table.reads_as["rosen-7"] = misread
    table.step(12)
    del table.reads_as["rosen-7"]
    table.sweep(3)
    table.step(8)
    table.lay("schellen-6", 3, rest=10)
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [
        *BEGUN,
        (3, "schilten-ober"),
        (0, "schellen-8"),
        (3, "schellen-6"),
    ]


def test_the_next_card_coming_in_over_the_counted_one_and_read_as_an_unlike_old_card_is_that_new_card() -> None:
    table = second_trick_begun()
    # Seat 3's Schilten 9 comes in almost squarely over the counted Rosen 7, which it hides
    # for good. On its way in it is outlined nearly at the 7's place and read as the
    # Eicheln 9 of the first trick: a card like neither the 7's suit nor its rank, so what
    # shows is the card coming in, not the 7 misread.
    x, y = SPOTS[2]
    table.arms = {"left"}
    table.hidden = {"rosen-7"}
    table.step(1)
    table.cards["schilten-9"] = _Card("schilten-9", (x + 9.0, y - 8.0), 0.0)
    table.reads_as["schilten-9"] = ("eicheln-9", 0.62, (("rosen-6", 0.05),))
    table.step(3)
    del table.reads_as["schilten-9"]
    table.cards["schilten-9"].pos = (x + 12.0, y - 12.0)
    table.rest_times["schilten-9"] = round(table.t, 6)
    table.arms = set()
    table.step(14)
    table.lay("schellen-8", 0, rest=10)
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [
        *BEGUN,
        (3, "schilten-9"),
        (0, "schellen-8"),
    ]
    assert not any(isinstance(e, CardReread) for e in events)
