"""A trick gathered into a pile that stays in view is no new card.

The winner often gathers the trick into a pile in front of them and leaves it lying for a
while. The hand hides the cards as it gathers them, so the pile shows up as a new card
where no card lay, its top card read clearly as a card of the trick just collected. That
is an old card seen again: counted as the next trick's lead (after waiting for a read of a
card not yet played), it took the leader's turn, and the real lead and every later card
of the round came one seat off (rendered game 5,000,725 lost three tricks so).
"""

from __future__ import annotations

from tests.tracker.table import Table, plays, run

#: In front of seat 0 (the winner), inside the play area.
PILE = (320.0, 390.0)

FIRST = [(0, "schellen-ass"), (1, "schellen-6"), (2, "schellen-7"), (3, "schellen-8")]
SECOND = [(0, "rosen-ass"), (1, "rosen-6"), (2, "rosen-7"), (3, "rosen-8")]


def _trick_gathered_into_a_pile(table: Table) -> None:
    """The first trick is laid; seat 0's hand covers it and gathers it (4 frames), and the
    pile is left lying, its top card the Schellen 8, while the second trick is played."""
    for seat, card in FIRST:
        table.lay(card, seat, rest=8)
    table.hidden = {card for _, card in FIRST}
    table.step(4)
    for _, card in FIRST[:-1]:
        del table.cards[card]
    table.cards["schellen-8"].pos = PILE
    table.hidden = set()
    table.step(10)
    for seat, card in SECOND:
        table.lay(card, seat, rest=8)


def test_the_pile_of_the_gathered_trick_is_not_counted_as_the_next_lead() -> None:
    table = Table()
    _trick_gathered_into_a_pile(table)
    assert plays(run(table, forehand=0, contract="eicheln")) == FIRST + SECOND
