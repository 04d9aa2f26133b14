"""A card laid straight over the card before it, which never shows: the turn still says
whose each card is.

Rendered games with players' habits (two cards laid almost together) showed it: the lead's
player laid a card and withdrew, and the next player laid theirs right on it at once.
The lead was never seen. The next player's card, the first one seen, counted for the
lead's seat (that player's arm had reached in), and the card of the seat after came
under its own arm alone, so it was flagged out of turn and every seat of the trick was
one off. The last counted card showed under the next player's arm, and that arm never
came back: it is that player's card, corrected where the table sees it, and the card
never seen is the lead's.
"""

from __future__ import annotations

from scoring.events import TrickCollected
from tests.tracker.table import Table, _Card, corrected, run
from tests.tracker.test_arm_evidence import AT, lay_by_hand, out_of_turn


def lead_hidden_under_the_next(table: Table, *, late_card: bool = False) -> None:
    """Seat 0 lays the Rosen 6 and withdraws as seat 1 reaches in and lays the Ass right on
    it; the 6 is never seen. (``late_card``: seat 1 laid nothing, and the 6, which a hand
    hid, shows late under seat 1's arm: the Ass is a card laid later, elsewhere.)"""
    table.arms = {"bottom"}
    table.hidden = {"rosen-6"}
    table.cards["rosen-6"] = _Card("rosen-6", AT[0], 0.0)
    table.step(5)
    table.arms = {"bottom", "right"}
    table.step(3)
    table.arms = {"right"}
    if late_card:
        table.hidden = set()
        table.step(3)
    else:
        table.lay("rosen-ass", 1, at=(AT[0][0] + 6.0, AT[0][1] - 4.0), start=AT[0], slide=1, rest=2)
    table.arms = set()
    table.step(8)


def test_a_card_laid_straight_over_the_lead_is_the_next_players_and_the_lead_is_the_unseen_card() -> None:
    table = Table()
    lead_hidden_under_the_next(table)
    lay_by_hand(table, "eicheln-9", 2, {"top"})
    lay_by_hand(table, "rosen-koenig", 3, {"left"})
    table.sweep(2)
    table.step(6)
    lay_by_hand(table, "eicheln-ober", 2, {"top"})
    events = run(table)
    assert corrected(events)[:3] == [(1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-koenig")]
    assert [e.unseen for e in events if isinstance(e, TrickCollected)] == [(0,)]
    assert out_of_turn(table) == []


def test_the_turns_card_seen_late_under_the_next_arm_keeps_its_seat() -> None:
    # The same arms, but the card that shows is seat 0's own, seen once seat 0's hand is
    # gone; seat 1 then lays its card under its own arm, and seat 2 after it.
    table = Table()
    lead_hidden_under_the_next(table, late_card=True)
    lay_by_hand(table, "rosen-ass", 1, {"right"})
    lay_by_hand(table, "eicheln-9", 2, {"top"})
    events = run(table)
    assert corrected(events) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]
    assert out_of_turn(table) == []


def test_a_card_still_uncounted_on_the_table_keeps_the_last_cards_seat() -> None:
    # Seat 0's 6 shows late under seat 1's arm and counts; seat 1's Ass, laid with it, lies
    # there read too vaguely to count (its outline jitters) when seat 2's 9 comes under its
    # own arm. Nothing was hidden: the 6 stays the lead's, the Ass seat 1's.
    table = Table()
    table.hidden = {"rosen-6", "rosen-ass"}
    table.cards["rosen-6"] = _Card("rosen-6", AT[0], 0.0)
    x, y = AT[1]
    table.cards["rosen-ass"] = _Card("rosen-ass", AT[1], 90.0)
    table.arms = {"bottom"}
    table.step(5)
    table.arms = {"bottom", "right"}
    table.step(3)
    table.arms = {"right"}
    table.hidden = {"rosen-ass"}
    table.step(3)
    table.arms = set()
    table.hidden = set()
    table.unsure["rosen-ass"] = (0.5, (("rosen-koenig", 0.3),))

    def jitter(frames: int) -> None:
        for k in range(frames):
            table.cards["rosen-ass"].pos = (x + (10.0 if k % 4 < 2 else 0.0), y)
            table.step()

    jitter(4)
    table.arms = {"top"}
    jitter(5)
    table.cards["eicheln-9"] = _Card("eicheln-9", AT[2], 0.0)
    jitter(2)
    table.arms = set()
    jitter(8)
    del table.unsure["rosen-ass"]
    table.step(20)
    assert sorted(corrected(run(table))) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]


def test_a_lead_seen_whole_a_moment_before_the_next_card_lands_on_it_counts_for_the_lead() -> None:
    # Seat 0's 6 comes to rest and is read clearly for three frames, too few to count, the
    # last a little off as the hand lets go; seat 1's hand then hides it and lays the Ass a
    # quarter of a card off, right on it. The 6 never shows again, and the Ass does not
    # take over the 6's track. The Ass counts for the lead's seat; when seat 2's 9 comes,
    # that card is reread as the 6, and the Ass counts for seat 1, all in turn.
    table = Table()
    table.arms = {"bottom"}
    table.step(4)
    table.lay("rosen-6", 0, at=AT[0], start=AT[0], slide=1, rest=1)
    table.cards["rosen-6"].pos = (AT[0][0], AT[0][1] + 10.0)
    table.step()
    table.arms = {"bottom", "right"}
    table.hidden = {"rosen-6"}
    table.step(3)
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=(AT[0][0], AT[0][1] - 12.0), start=(AT[0][0], AT[0][1] - 12.0), slide=1, rest=2)
    table.arms = set()
    table.step(8)
    lay_by_hand(table, "eicheln-9", 2, {"top"})
    events = run(table)
    assert corrected(events) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]
    assert out_of_turn(table) == []


def test_a_card_never_still_two_frames_hidden_by_the_next_hand_counts_before_the_next_card() -> None:
    # Seat 1's Ass came to rest, but its outline jitters and it never lies still two frames
    # running; seat 2's hand hides it, and the 9 lands a third of a card off it. Kept in
    # mind while hidden (it may show again), the Ass is still the turn's card glimpsed
    # under the 9, and counts first.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.arms = {"right"}
    table.step(3)
    x, y = AT[1]
    table.lay("rosen-ass", 1, at=(x, y), start=(x, y), slide=1, rest=1)
    table.arms = set()
    for k in range(7):
        if k == 6:
            table.arms = {"top"}
        table.cards["rosen-ass"].pos = (x + (8.0 if k % 2 == 0 else 0.0), y)
        table.step()
    table.hidden = {"rosen-ass"}
    table.step(5)
    table.lay("eicheln-9", 2, at=(x - 12.0, y - 8.0), start=(x - 12.0, y - 8.0), slide=1, rest=2)
    table.arms = set()
    table.step(10)
    assert corrected(run(table)) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]
    assert out_of_turn(table) == []
