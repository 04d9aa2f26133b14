"""The card whose turn it was, laid while hidden (on or under a counted card, a hand over
it), and the next player's card carried in under that player's arm before the first one
shows. The hand whose turn it was reached in first, and the next card was seen coming in
under another arm alone: that card is not the turn's card seen late, so the tracker waits
(within twice the latency budget) for the hidden one and counts it first. (A rendered
near-centre game swapped the third and fourth cards of a trick this way.)"""

from __future__ import annotations

from scoring.events import TrickCollected
from tests.tracker.table import Table, _Card, run
from tests.tracker.test_arm_evidence import AT, lay_by_hand, out_of_turn
from tests.tracker.test_turn_order import plays


def hidden_then_carried(table: Table, *, shows_after: int) -> None:
    """Seat 1 lays the ace unseen; seat 2 carries the 9 in from its edge; the ace shows
    ``shows_after`` frames after the 9 came to rest."""
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.arms = {"right"}
    table.hidden = {"rosen-ass"}
    table.cards["rosen-ass"] = _Card("rosen-ass", AT[1], 90.0)
    table.step(5)
    table.arms = set()
    table.step(8)
    table.arms = {"top"}
    table.lay("eicheln-9", 2, at=AT[2], slide=4, rest=shows_after)
    table.arms = set()
    table.hidden = set()
    table.step(12)


def test_the_turns_card_laid_hidden_counts_before_the_next_players_card_carried_in_first() -> None:
    table = Table()
    hidden_then_carried(table, shows_after=4)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]
    assert out_of_turn(table) == []


def test_a_turns_card_that_never_shows_in_time_delays_the_next_card_only_within_the_budget() -> None:
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.arms = {"right"}
    table.step(5)
    table.arms = set()
    table.step(8)
    table.arms = {"top"}
    table.lay("eicheln-9", 2, at=AT[2], slide=4, rest=0)
    table.arms = set()
    table.step(20)
    events = run(table)
    # Nothing showed. Seat 1's arm came and went before the 9 was first seen, carried in
    # under seat 2's arm alone: the 9 is seat 2's, counted once the wait is over, and the
    # table sees it flagged out of turn until the trick shows seat 1's card or is
    # collected with that card unseen.
    assert plays(events) == [(0, "rosen-6"), (2, "eicheln-9")]
    assert out_of_turn(table) == [2]


def test_the_next_card_carried_in_after_the_turns_hand_came_and_went_keeps_its_own_seat() -> None:
    # The last card of a trick: seat 2 reaches in and lays its card where it never shows;
    # seat 3 then carries the Rosen 10 in under its own arm, and the trick is swept. The 10
    # is seat 3's and seat 2's card the trick's unseen one, so the out-of-turn flag the 10
    # raised when it came is gone once the trick is collected. (Counted for whose turn it
    # was, the 10 took seat 2's place in a rendered round's last trick, and the card the
    # table was asked to name was seat 3's.)
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    lay_by_hand(table, "rosen-ass", 1, {"right"})
    table.arms = {"top"}
    table.step(5)
    table.arms = set()
    table.step(8)
    table.arms = {"left"}
    table.lay("rosen-10", 3, at=AT[3], slide=4, rest=0)
    table.arms = set()
    table.step(20)
    table.sweep(1)
    table.step(10)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass"), (3, "rosen-10")]
    assert [e.unseen for e in events if isinstance(e, TrickCollected)] == [(2,)]
    assert out_of_turn(table) == []


def laid_together(table: Table, *, turn_gone_frames: int) -> None:
    """Seat 1 reaches in beside seat 2, lays the ace where it stays hidden and withdraws
    ``turn_gone_frames`` frames before seat 2's 9 first shows, seat 2's arm still on it."""
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.hidden = {"rosen-ass"}
    table.cards["rosen-ass"] = _Card("rosen-ass", AT[1], 90.0)
    table.arms = {"right", "top"}
    table.step(4)
    table.arms = {"top"}
    table.step(turn_gone_frames)
    table.lay("eicheln-9", 2, at=AT[2], start=AT[2], slide=1, rest=2)
    table.arms = set()
    table.step(8)


def test_a_card_that_shows_under_the_next_arm_after_the_turns_arm_withdrew_is_the_next_players() -> None:
    # Two cards laid almost together: seat 1's hand lays the ace and goes while seat 2's
    # arm, in beside it, lays the 9 over it; the 9 first shows with seat 2's arm alone in
    # view. Both arms were in while the 9 came in, but the turn's had gone first: the 9 is
    # seat 2's, and the ace, showing once the 9 is straightened, counts for seat 1.
    # (Counted in turn, a rendered round gave the 9 to seat 1 and the ace to seat 2.)
    table = Table()
    laid_together(table, turn_gone_frames=3)
    table.hidden = set()
    table.step(12)
    assert plays(run(table)) == [(0, "rosen-6"), (2, "eicheln-9"), (1, "rosen-ass")]


def test_the_turns_arm_withdrawing_as_the_next_card_shows_is_no_evidence_against_the_turn() -> None:
    # Seat 1's arm was last seen in the frame before the card showed: the card is as
    # likely seat 1's, seen as its hand let go, and the turn keeps it.
    table = Table()
    laid_together(table, turn_gone_frames=0)
    assert plays(run(table))[:2] == [(0, "rosen-6"), (1, "eicheln-9")]


def test_the_next_card_seen_carried_in_over_the_turns_card_is_the_next_players_while_the_turns_arm_withdraws() -> None:
    # Seat 1 lays the Ass where it stays hidden; seat 2's 9 is seen sliding in from the
    # top edge and lands over it while seat 1's arm is still the only one in view. The 9
    # is seat 2's, and the Ass, showing once the 9 is straightened, counts for seat 1.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.hidden = {"rosen-ass"}
    table.cards["rosen-ass"] = _Card("rosen-ass", AT[1], 90.0)
    table.arms = {"right"}
    table.step(3)
    table.lay("eicheln-9", 2, at=AT[1], start=(AT[1][0], 10.0), slide=5, rest=2)
    table.arms = set()
    table.step(8)
    table.cards["eicheln-9"].pos = AT[2]
    table.hidden = set()
    table.step(12)
    assert plays(run(table)) == [(0, "rosen-6"), (2, "eicheln-9"), (1, "rosen-ass")]
