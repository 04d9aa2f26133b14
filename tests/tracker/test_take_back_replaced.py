"""A wrong card taken back, and the right one laid by the same hand soon after or long after.

Rendered games with players' habits lost tricks to these: the right card, laid a little off
where the wrong one lay, was taken for the wrong one come back (so neither the take-back
nor the right card counted), and a trick's fourth card taken back was forgotten by the
time its player chose again (so the right card led a trick of its own); and a wrong card
laid by the next player over the turn's card before it counted, so that the two counted
in each other's seats.
"""

from __future__ import annotations

from scoring.events import CardPlayed, TrickCollected
from tests.tracker.table import SPOTS, Table, corrected, detection, run
from tests.tracker.test_habits import EDGE_NAME, TRICK, folded_trick_cards, take_back_under_the_hand, trick_left_lying
from vision.tracker.reread import CardWithdrawn
from vision.tracker.tracker import TrackerEvent


def lay_by_hand(
    table: Table, card: str, seat: int, at: tuple[float, float] | None = None, first_read: str | None = None
) -> None:
    """``seat``'s hand lays ``card``, hiding it until it lies (``first_read``: the first read
    there names that card as the runner-up, as a vague first read may)."""
    table.arms = {EDGE_NAME[seat]}
    table.hidden = {card}
    table.lay(card, seat, at=at)
    table.hidden = set()
    if first_read is not None:
        table.misreads[card] = (card, 0.68, ((first_read, 0.16),))
    table.step(3)
    table.arms = set()
    table.step(8)


def replaced_where_it_lay(
    *, armless: int, first_read: tuple[str, float, tuple[tuple[str, float], ...]]
) -> list[TrackerEvent]:
    """Seat 1 lays the Schellen Ober by mistake and takes it back under its hand, no hand
    over the table for ``armless`` frames; then lays the Rosen Ass outline for outline where
    the Ober lay, first read there (still under the hand) as ``first_read``; seat 2 lays the
    Eicheln 9. The tracker's events."""
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    take_back_under_the_hand(table, "schellen-ober", 1, seen_going=False, armless=armless)
    table.arms = {EDGE_NAME[1]}
    table.hidden = {"rosen-ass"}
    table.lay("rosen-ass", 1)
    table.hidden = set()
    table.misreads["rosen-ass"] = first_read
    table.step(3)
    table.arms = set()
    table.step(8)
    lay_by_hand(table, "eicheln-9", 2)
    return run(table)


def test_the_right_card_laid_near_the_wrong_ones_place_soon_after_it_was_taken_back_counts_instead() -> None:
    # The hand is away less than a second, and lays the right card a third of a card off
    # where the wrong one lay: the wrong one, hidden since, was taken back.
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    take_back_under_the_hand(table, "schellen-ober", 1, seen_going=False, armless=7)
    x, y = SPOTS[1]
    lay_by_hand(table, "rosen-ass", 1, at=(x + 18.0, y + 6.0), first_read="schellen-ober")
    lay_by_hand(table, "eicheln-9", 2)
    events = run(table)
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["schellen-ober"]
    assert folded_trick_cards(events) == ([TRICK[:3]], ())


def test_a_fourth_card_taken_back_and_forgotten_before_its_player_chose_again_is_withdrawn() -> None:
    # The trick's fourth card is seen once on its way back to the hand; its player thinks
    # for five seconds, longer than the tracker keeps a lost card in mind, then lays the
    # right card. The trick stays the trick, and the right card is its fourth.
    table = Table()
    for seat, card in TRICK[:3]:
        table.lay(card, seat, rest=8)
    take_back_under_the_hand(table, "schilten-7", 3, seen_going=True, armless=50)
    lay_by_hand(table, "rosen-10", 3)
    events = run(table)
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["schilten-7"]
    assert [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)][-1] == (3, "rosen-10")
    tricks, flags = folded_trick_cards(events)
    assert tricks[0] == TRICK
    assert flags == ()


def test_the_card_a_wrong_card_was_laid_over_before_it_counted_takes_its_turn_once_the_wrong_one_is_withdrawn() -> None:
    # Seat 1 lays the Rosen Ass, read unsurely; before it has lain still long enough to
    # count, seat 2 lays the Schellen Ober by mistake over most of it. The Ober counts in
    # seat 1's turn. Three seconds later seat 2 takes it back (seen once on its way out),
    # the Ass shows again and counts in the next turn, seat 2's; then seat 2 lays the
    # Eicheln 9. With the Ober withdrawn, the Ass was the card of seat 1's turn: it is
    # reseated there, a correction the table sees, and the 9 counts for seat 2. (Before,
    # the Ass kept seat 2, the 9 took seat 1, and the rules engine flagged it out of turn.)
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    table.arms = {EDGE_NAME[1]}
    table.unsure["rosen-ass"] = (0.55, (("rosen-koenig", 0.2),))
    table.lay("rosen-ass", 1, rest=2)
    x, y = SPOTS[1]
    table.arms = {EDGE_NAME[2]}
    table.hidden = {"rosen-ass"}
    table.lay("schellen-ober", 2, at=(x - 28.0, y + 10.0))
    table.arms = set()
    table.step(45)
    table.arms = {EDGE_NAME[2]}
    table.step(2)
    del table.cards["schellen-ober"]
    table.extra.append(detection("schellen-ober", (x - 20.0, 60.0), 0.0, 0.8))
    table.hidden = set()
    del table.unsure["rosen-ass"]
    table.step(12)
    table.arms = set()
    table.step(8)
    lay_by_hand(table, "eicheln-9", 2)
    lay_by_hand(table, "rosen-10", 3)
    events = run(table)
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["schellen-ober"]
    assert [(seat, card) for seat, card in corrected(events) if card != "schellen-ober"] == TRICK
    tricks, flags = folded_trick_cards(events)
    assert tricks[0] == TRICK
    assert flags == ()


def test_a_fourth_card_taken_back_whose_replacement_is_never_seen_leaves_that_seat_unseen_when_the_trick_goes() -> None:
    # The fourth card is taken back (seen once on its way out) and forgotten while its
    # player chooses; the right card goes down where no frame reads it, and the winner
    # sweeps the trick. The card taken back is withdrawn and the trick goes with seat 3's
    # card unseen, for the table (or the round's last cards) to fill in. (Before, the trick
    # went with the card taken back in it, which its player still held.)
    table = Table()
    for seat, card in TRICK[:3]:
        table.lay(card, seat, rest=8)
    take_back_under_the_hand(table, "schilten-7", 3, seen_going=True, armless=50)
    table.arms = {EDGE_NAME[3]}
    table.step(6)
    table.arms = set()
    table.step(10)
    table.sweep(2)
    table.step(10)
    table.lay("schilten-ober", 2, rest=10)
    events = run(table)
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["schilten-7"]
    assert [(e.seat, e.unseen) for e in events if isinstance(e, TrickCollected)] == [(2, (3,))]
    assert [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)][-1] == (2, "schilten-ober")


def test_the_right_card_laid_where_the_wrong_one_lay_and_first_read_as_it_counts_instead() -> None:
    # The wrong card is gone three seconds; the right one lands outline for outline where
    # it lay, and its first read there, still under the hand, names the wrong card vaguely,
    # the right one as runner-up. That read is the right card's, not the wrong one back.
    events = replaced_where_it_lay(armless=30, first_read=("schellen-ober", 0.59, (("rosen-ass", 0.21),)))
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["schellen-ober"]
    assert folded_trick_cards(events) == ([TRICK[:3]], ())


def test_a_wrong_lead_laid_on_the_winners_card_and_taken_back_is_withdrawn_though_that_card_shows_again() -> None:
    # The trick is left lying; seat 2, who took it, lays the Schellen Ass by mistake
    # squarely on its own Eicheln 9, so it counts as the lead, lies two seconds read as
    # itself, and is taken back. The 9 shows again at its outline, read vaguely by turns
    # as itself and as the Schellen 8, and the Ass's track takes those reads: something
    # still lies where the Ass lay, so it looked never taken back, and the right lead
    # counted in seat 3's turn. Read as the card it was laid on, never as itself, as often
    # as it was read as itself before, the Ass is gone
    # (``collection.Collection._read_as_another``); the 9, still read there, is that old
    # card, no new one (``TrickTracker._old_card_misread``).
    table = trick_left_lying()
    nine = SPOTS[2]
    table.arms = {EDGE_NAME[2]}
    table.hidden = {"eicheln-9"}
    table.lay("schellen-ass", 2, at=nine, rest=12)
    table.arms = set()
    table.step(10)
    table.arms = {EDGE_NAME[2]}
    del table.cards["schellen-ass"]
    table.hidden = set()
    # What shows of the 9 under the first trick's other cards is read vaguely from now on.
    table.reads_as["eicheln-9"] = ("eicheln-9", 0.42, (("schellen-8", 0.3),))
    for i in range(16):
        table.arms = {EDGE_NAME[2]} if i < 3 else set()
        if i % 3 == 2:
            table.misreads["eicheln-9"] = ("schellen-8", 0.38, (("eicheln-9", 0.3),))
        table.step()
    lay_by_hand(table, "schellen-10", 2, at=(390.0, 130.0))
    lay_by_hand(table, "schellen-6", 3, at=(240.0, 140.0))
    events = run(table)
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["schellen-ass"]
    tricks, flags = folded_trick_cards(events)
    assert tricks == [TRICK, [(2, "schellen-10"), (3, "schellen-6")]]
    assert flags == ()


def test_the_right_card_laid_where_the_wrong_one_lay_and_read_clearly_at_once_counts_instead() -> None:
    # The wrong card vanishes under its player's hand, which soon comes back with the
    # right one, 1.4 s after the wrong one was last seen; the right one lands outline for
    # outline where it lay (players lay each card at their own spot), and its first read
    # there, still under the hand, is a clear read of a card still to come that does not
    # name the wrong card at all. It is the right card, not the wrong one back and
    # misread. (Taken for the wrong card, neither the take-back nor the right card
    # counted: a rendered round lost two tricks so, the wrong card counted in one and the
    # right one, named as the wrong one, in a later one.)
    events = replaced_where_it_lay(armless=6, first_read=("rosen-ass", 0.72, (("eicheln-10", 0.14),)))
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["schellen-ober"]
    assert folded_trick_cards(events) == ([TRICK[:3]], ())


def test_the_winners_lead_laid_outline_for_outline_on_their_own_card_of_the_full_trick_is_no_replacement() -> None:
    # Seat 3 wins the first trick with its fourth card and leaves the trick lying; its
    # hand lingers over that card a second, then lays the next lead outline for outline on
    # it, first read clearly as itself. The full trick's card was not taken back and
    # replaced: the lead leads the next trick, and the trick keeps its fourth card. (Taken
    # for a replacement, the fourth card was withdrawn and the lead counted in its place,
    # in a real-recogniser game and here.)
    first = [(0, "schellen-6"), (1, "schellen-7"), (2, "schellen-8"), (3, "eicheln-under")]
    table = Table()
    for seat, card in first:
        table.lay(card, seat, rest=8)
    table.step(6)
    table.arms = {EDGE_NAME[3]}
    table.hidden = {"eicheln-under"}
    table.step(10)
    table.hidden = {"eicheln-under", "rosen-ober"}
    table.lay("rosen-ober", 3, at=SPOTS[3], slide=3)
    table.hidden = {"eicheln-under"}
    table.misreads["rosen-ober"] = ("rosen-ober", 0.72, (("rosen-koenig", 0.12),))
    table.step(3)
    table.arms = set()
    table.step(10)
    for seat, card in [(0, "rosen-6"), (1, "rosen-7"), (2, "rosen-8")]:
        lay_by_hand(table, card, seat)
    events = run(table)
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == []
    tricks, flags = folded_trick_cards(events)
    assert tricks[0] == first
    assert tricks[1] == [(3, "rosen-ober"), (0, "rosen-6"), (1, "rosen-7"), (2, "rosen-8")]
    assert flags == ()
