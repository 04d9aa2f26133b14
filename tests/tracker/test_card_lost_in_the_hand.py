"""A card read as another while it is still in the hand, and a trick gone before the next
card comes.

At ten frames a second a card carried in crosses most of its length between frames and the
hand covers part of it, so its reads on the way in are unreliable. Two rendered near-centre
games at the guide's mounting lost tricks to that: a card whose last frames in the hand were
read as another card that counted first, and a lead that, landing where a card of the
collected trick had lain, was read in the hand as that old card and kept the old trick open.
"""

from __future__ import annotations

from scoring.events import TrickCollected
from tests.tracker.table import EDGE, SPOTS, Table, _Card, corrected, detection, plays, run


def carried_in_and_misread(table: Table, card: str, seat: int, read_as: str) -> None:
    """``seat``'s hand carries ``card`` in from its edge; for its last three frames in the
    hand the detector outlines what shows of it a little off and reads it as ``read_as``;
    then the card lies whole in its place and the hand withdraws."""
    start, spot = EDGE[seat], SPOTS[seat]
    table.arms = {"bottom" if seat == 0 else "right"}
    for i in range(3):
        f = i / 4
        table.cards[card] = _Card(card, (start[0] + (spot[0] - start[0]) * f, start[1] + (spot[1] - start[1]) * f), 0.0)
        table.step()
    table.hidden = {card}
    for _ in range(3):
        table.extra.append(detection(read_as, (spot[0] + 6.0, spot[1] - 18.0), 0.0, 0.86, scale=0.8))
        table.step()
    table.hidden = set()
    table.cards[card] = _Card(card, spot, 0.0)
    table.rest_times[card] = round(table.t, 6)
    table.step(4)
    table.arms = set()
    table.step(8)


def test_a_card_read_as_another_in_the_hand_is_one_card_of_its_player() -> None:
    # An Eicheln Ass read as the Eicheln Ober for its last frames under the hand: the Ober
    # counted first, then the Ass lying whole there counted as the next player's card.
    table = Table()
    carried_in_and_misread(table, "eicheln-ass", 0, "eicheln-ober")
    table.lay("eicheln-7", 1, rest=10)
    events = run(table, forehand=0, contract="rosen")
    assert corrected(events) == [(0, "eicheln-ass"), (1, "eicheln-7")]


def test_a_trick_gone_with_no_hand_in_view_is_collected_before_the_next_lead_lands_on_its_place() -> None:
    # Seat 2's card was never read. The trick is swept off; the table lies bare, no hand in
    # view; seat 0 leads the next card onto where its Ass lay, read in the hand as that Ass.
    trick = [(0, "eicheln-ass"), (1, "eicheln-7"), (2, "eicheln-8"), (3, "eicheln-9")]
    table = Table()
    table.hidden = {"eicheln-8"}
    for seat, card in trick:
        table.lay(card, seat, rest=8)
    table.sweep(0)
    table.step(14)
    table.misreads["rosen-koenig"] = ("eicheln-ass", 0.35, ())
    table.arms = {"bottom"}
    table.lay("rosen-koenig", 0, slide=2, rest=0)
    table.misreads["rosen-koenig"] = ("eicheln-ass", 0.35, ())
    table.step()
    table.arms = set()
    table.step(10)
    events = run(table, forehand=0, contract="schellen")
    collected = [e for e in events if isinstance(e, TrickCollected)]
    assert [(e.unseen, e.t is not None and e.t < table.rest_times["rosen-koenig"]) for e in collected] == [((2,), True)]
    assert plays(events) == [(0, "eicheln-ass"), (1, "eicheln-7"), (3, "eicheln-9"), (0, "rosen-koenig")]
