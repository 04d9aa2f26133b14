"""A card laid on its player's own card of the trick left lying counts, though that old card
was misread there a moment before.

Players lay every card at their own spot. When a trick is left lying, the next card a
player lays lands on the card they laid into it. In a rendered game with the players'
habits (the real recogniser, 5,000,820), that old card, once its trick was collected, was
read vaguely as another card: its reads started a track of their own. The player's hand
then hid the spot, laid the next card outline for outline on the old one, and the new card
was read surely as itself. The vague track took those reads, and since it had shown up
where the old card lay just as that card went, the new card was struck as the old card
misread: it never counted, and the trick was lost.
"""

from __future__ import annotations

from tests.tracker.table import SPOTS, Table, plays, run
from tests.tracker.test_habits import EDGE_NAME
from tests.tracker.test_trick_left_lying_seen_again import FIRST, SECOND, lay_in_turn, lay_then_lead


def test_a_card_laid_on_its_players_own_old_card_read_vaguely_as_another_counts() -> None:
    table = Table()
    lay_then_lead(table)
    table.step(8)
    # Seat 3's Rosen 6 of the collected trick, read vaguely as a card not yet played.
    old = FIRST[3][1]
    table.reads_as[old] = ("schilten-6", 0.43, ((SECOND[1][1], 0.2),))
    table.step(5)
    # Seat 3's hand hides the spot and lays the Schellen Ass squarely on the Rosen 6.
    table.arms = {EDGE_NAME[3]}
    table.hidden = {old, SECOND[1][1]}
    table.lay(SECOND[1][1], 3, at=SPOTS[3], slide=3)
    table.step(2)
    table.hidden = {old}
    table.arms = set()
    table.step(10)
    lay_in_turn(table, SECOND[2:])
    assert plays(run(table)) == [*FIRST, *SECOND]
