"""The fourth card laid squarely on a counted card while the hand over the trick hides the
other two: every counted card is gone from sight at once, as if the trick had been swept,
yet it still lies there. The card laid is the trick's fourth, its player's whose turn it
is, not the lead of a next trick with the fourth card "never read". (A rendered
near-centre game swapped the last cards of two tricks this way.) A trick really swept or
lifted with three cards counted still has its fourth card unseen."""

from __future__ import annotations

from scoring.events import TrickCollected
from tests.tracker.table import SPOTS, Table, laid, plays, run

TRICK = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]


def three_cards_laid() -> Table:
    return laid(TRICK)


def test_a_fourth_card_laid_on_a_counted_card_while_the_hand_hides_the_trick_completes_it() -> None:
    table = three_cards_laid()
    table.lay("rosen-10", 3, slide=4, at=SPOTS[0], rest=0)
    # It covers the 6; the hand withdrawing over the trick hides the ace and the 9.
    table.hidden = {"rosen-6", "rosen-ass", "eicheln-9"}
    table.step(20)
    events = run(table)
    assert plays(events) == [*TRICK, (3, "rosen-10")]
    assert [e for e in events if isinstance(e, TrickCollected)] == []


def test_the_trick_completed_on_its_own_cards_is_collected_once_with_no_card_unseen() -> None:
    table = three_cards_laid()
    table.lay("rosen-10", 3, slide=4, at=SPOTS[0], rest=0)
    table.hidden = {"rosen-6", "rosen-ass", "eicheln-9"}
    table.step(15)
    table.sweep(2)
    table.hidden = set()
    table.step(5)
    table.lay("schilten-7", 2, rest=8)  # the winner (seat 2, trumps) leads the next trick
    events = run(table)
    assert plays(events) == [*TRICK, (3, "rosen-10"), (2, "schilten-7")]
    assert [e.unseen for e in events if isinstance(e, TrickCollected)] == [()]


def test_a_trick_lifted_with_three_cards_counted_leaves_the_fourth_unseen_though_the_lead_lies_there() -> None:
    table = three_cards_laid()
    table.lift()
    table.step(10)
    # The next card is led where the 6 lay, well after the trick went (who leads is
    # unknown: the unseen card may have won).
    table.lay("schilten-7", 2, at=SPOTS[0], rest=8)
    events = run(table)
    assert [card for _, card in plays(events)] == [card for _, card in TRICK] + ["schilten-7"]
    assert [e.unseen for e in events if isinstance(e, TrickCollected)] == [(3,)]
