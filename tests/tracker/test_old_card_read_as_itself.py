"""A card of the trick just collected, outlined anew where it lies and read mostly as
itself, is that card, even while the hand of a player still to lay is in view.

A trick left lying is collected when the next lead counts, and its cards lie on until
someone gathers them. In a rendered game with the players' habits (oracle detections,
5,000,421), the next player's hand passed over one of them: it vanished for a frame, was
outlined again a tenth of its size off where it lay, and read by turns as a card still to
come and as itself. With a hand of a player still to lay in view, the rule for old cards
misread (``TrickTracker._old_card_misread``) took it for that card only when it lay corner
for corner on it; it counted as the card still to come for the turn's seat, the real card
came a seat late, and the round's later tricks were lost.
"""

from __future__ import annotations

from tests.tracker.table import Table, detection, plays, run
from tests.tracker.test_trick_left_lying_seen_again import FIRST, SECOND, lay_in_turn, lay_then_lead

#: The second trick is laid a little above the first, which lies on around the middle.
PLACES = {2: (320.0, 120.0), 3: (262.0, 176.0), 0: (322.0, 230.0), 1: (380.0, 182.0)}


def old_card_outlined_anew(table: Table, card: str, off: float) -> None:
    """``card`` of the trick lying there vanishes a frame under the left player's hand and
    shows again ``off`` pixels from where it lay, read by turns as itself and as the
    Schellen Ass (a card still to come, and that player's), a little more often as itself."""
    lying = table.cards[card]
    x, y = lying.pos
    table.arms = {"left"}
    table.hidden = {card}
    table.step()
    shown = (x + off, y)
    for k in range(10):
        if k == 4:
            table.arms = set()
        read, other = ("schellen-ass", card) if k % 2 == 0 else (card, "schellen-ass")
        table.extra.append(detection(read, shown, lying.angle, 0.6 if read == card else 0.5, ((other, 0.3),)))
        table.step()
    table.hidden = set()


def test_an_old_card_read_as_itself_where_it_lay_is_no_card_of_the_next_trick() -> None:
    table = Table()
    lay_then_lead(table, places=PLACES, slide=4, rest=6)
    table.step(4)
    old_card_outlined_anew(table, "rosen-6", 6.0)
    lay_in_turn(table, SECOND[1:], PLACES)
    assert plays(run(table)) == [*FIRST, *SECOND]
