"""A card laid squarely on a counted card: the detector keeps one outline where both lie,
the counted card's own, and reads it as a third card. The card laid is new, its player's
whose turn it is, named from its reads on the way in; a counted card merely half covered
and misread at its own outline (the next card showing on its own beside it) is not.
(Rendered near-centre games lost a trick to the first, and four more to the wrong winner
it left behind.)"""

from __future__ import annotations

from scoring.events import TrickCollected
from tests.tracker.table import EDGE, SPOTS, Table, _Card, laid, plays, run
from vision.tracker.config import TrackerConfig
from vision.tracker.reread import CardWithdrawn

TRICK = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]


def three_cards_laid() -> Table:
    return laid(TRICK)


def lay_squarely_on(table: Table, card: str, seat: int, under: str, pile_read: str, *, rest: int = 20) -> None:
    """``seat`` slides ``card`` in, read clearly on its way, and lays it right on ``under``:
    the hand hides it for a frame, then one outline (``under``'s) reads ``pile_read``."""
    table.lay(card, seat, slide=3, at=table.cards[under].pos, angle=table.cards[under].angle, rest=0)
    table.hidden = {card}
    table.step()
    table.hidden = {under}
    table.reads_as[card] = (pile_read, 0.85, ((under, 0.0),))
    table.step(rest)


def test_a_card_laid_squarely_on_a_counted_card_is_the_next_card_named_from_its_way_in() -> None:
    table = three_cards_laid()
    lay_squarely_on(table, "rosen-10", 3, under="eicheln-9", pile_read="eicheln-6")
    events = run(table)
    assert plays(events) == [*TRICK, (3, "rosen-10")]
    assert [e for e in events if isinstance(e, TrickCollected)] == []


def test_the_trick_with_a_card_squarely_on_another_is_collected_once_with_four_cards() -> None:
    table = three_cards_laid()
    lay_squarely_on(table, "rosen-10", 3, under="eicheln-9", pile_read="eicheln-6")
    table.sweep(2)
    table.step(5)
    table.lay("schilten-7", 2, rest=8)  # the winner (seat 2, trumps) leads the next trick
    events = run(table)
    assert plays(events) == [*TRICK, (3, "rosen-10"), (2, "schilten-7")]
    assert [e.seat for e in events if isinstance(e, TrickCollected)] == [2]


def test_a_counted_card_read_as_the_card_coming_in_is_half_covered_and_that_card_shows_beside_it() -> None:
    table = three_cards_laid()
    x, y = SPOTS[2]
    # The fourth card vanishes under the hand and the detector first keeps one outline, the
    # covered card's, read as the card laid; then both outlines show.
    table.lay("rosen-10", 3, slide=3, at=(x - 20, y + 8), rest=0)
    table.hidden = {"rosen-10"}
    table.reads_as["eicheln-9"] = ("rosen-10", 0.8, ())
    table.step(8)
    table.hidden = set()
    del table.reads_as["eicheln-9"]
    table.step(12)
    assert plays(run(table)) == [*TRICK, (3, "rosen-10")]


def test_a_counted_card_misread_while_the_card_laid_over_it_shows_on_its_own_is_no_pile() -> None:
    table = three_cards_laid()
    x, y = SPOTS[2]
    # What still shows of the half-covered 9 reads as the 6 for as long as the trick lies;
    # the fourth card, hidden by the hand for a moment, shows at its own outline.
    table.lay("rosen-10", 3, slide=3, at=(x - 24, y + 10), rest=0)
    table.hidden = {"rosen-10"}
    table.reads_as["eicheln-9"] = ("eicheln-6", 0.8, ())
    table.step(4)
    table.hidden = set()
    table.step(20)
    assert plays(run(table)) == [*TRICK, (3, "rosen-10")]


def test_a_card_showing_beside_the_misread_counted_card_the_frame_a_pile_would_be_taken_is_no_pile() -> None:
    table = three_cards_laid()
    x, y = SPOTS[2]
    # Read wrongly on its way in, the fourth card is hidden by the hand while the counted 9,
    # half covered, reads as the 6; it shows on its own in the very frame that would make
    # the 6 a card laid squarely on the 9 (named from the wrong reads on the way in).
    table.reads_as["rosen-10"] = ("rosen-7", 0.4, ())
    table.lay("rosen-10", 3, slide=3, at=(x - 24, y + 10), rest=0)
    del table.reads_as["rosen-10"]
    table.hidden = {"rosen-10"}
    table.reads_as["eicheln-9"] = ("eicheln-6", 0.8, ())
    table.step(TrackerConfig().maximum_decision_frames - 1)
    table.hidden = set()
    table.step(20)
    assert plays(run(table)) == [*TRICK, (3, "rosen-10")]


def test_a_card_laid_squarely_on_a_counted_card_already_read_as_another_is_the_next_card() -> None:
    table = Table()
    for seat, card in TRICK[:2]:
        table.lay(card, seat, rest=8)
    # The 6 of acorns is counted on its first reads as the 9, then read as itself at its
    # own outline (not yet long enough to reread it) when the 10 comes in and is laid
    # right on it: the reads there change again, to a card of neither.
    table.reads_as["eicheln-6"] = ("eicheln-9", 0.9, ())
    table.lay("eicheln-6", 2, rest=4)
    del table.reads_as["eicheln-6"]
    table.step(1)
    lay_squarely_on(table, "rosen-10", 3, under="eicheln-6", pile_read="rosen-ass")
    events = run(table)
    # Which of its two names the covered card keeps is the recogniser's to settle.
    assert [p for p in plays(events) if p[0] != 2] == [*TRICK[:2], (3, "rosen-10")]
    assert [p[0] for p in plays(events)] == [0, 1, 2, 3]
    assert [e for e in events if isinstance(e, TrickCollected)] == []


def lay_unseen_on_the_lead(
    table: Table, card: str, seat: int, edge: str, *, read: float, lead_hidden: bool = False
) -> None:
    """``seat``'s hand (``edge`` in view) brings ``card``, seen one frame at the table's edge
    and then hidden in the hand long enough to be forgotten, and lays it squarely on the
    lead: one outline, the lead's, read as ``card`` at ``read``. The hand then goes.
    ``lead_hidden``: the lead lies hidden until then."""
    lead_name = TRICK[0][1]
    table.arms = {edge}
    table.cards[card] = _Card(card, EDGE[seat], 0.0)
    table.step()
    table.hidden = {card, lead_name} if lead_hidden else {card}
    table.step(5)
    lead = table.cards[TRICK[0][1]]
    table.cards[card] = _Card(card, lead.pos, lead.angle)
    table.hidden = {TRICK[0][1]}
    table.reads_as[card] = (card, read, ())
    table.step(2)
    table.arms = set()


def test_a_card_laid_unseen_on_a_counted_card_by_the_turns_hand_is_the_next_card() -> None:
    # Seat 2's Rosen 7 is seen coming in once, near its player's edge, then carried in the
    # hand, and lands squarely on the lead; the one outline there reads as the 7, clearly,
    # long after the hand has gone. No card came to rest anywhere else: seat 2 laid it.
    assert seven_laid_unseen_then_eight(laid(TRICK[:2])) == [*TRICK[:2], (2, "rosen-7"), (3, "rosen-8")]


def seven_laid_unseen_then_eight(table: Table, *, lead_hidden: bool = False) -> list[tuple[int, str]]:
    """Seat 2 lays the Rosen 7 unseen on the lead (``lay_unseen_on_the_lead``), then seat 3
    lays the Rosen 8 in its place; the cards counted."""
    lay_unseen_on_the_lead(table, "rosen-7", 2, "top", read=0.9, lead_hidden=lead_hidden)
    table.step(15)
    table.arms = {"left"}
    table.lay("rosen-8", 3, rest=8)
    table.arms = set()
    table.step(5)
    return plays(run(table))


def test_a_counted_card_misread_under_the_turns_hand_is_no_pile_once_it_reads_as_itself() -> None:
    # The lead, half under seat 2's hand, reads as the Rosen 7 while the hand is there and
    # for two frames after; then as itself again. Seat 2's card shows on its own later.
    table = laid(TRICK[:2])
    table.misread_under_hand("rosen-6", "rosen-7", "top")
    table.arms = {"top"}
    table.lay("eicheln-9", 2, rest=8)
    table.arms = set()
    table.step(5)
    assert plays(run(table)) == TRICK


def test_a_misread_of_the_lead_long_before_does_not_date_the_card_laid_on_it_by_the_turns_hand() -> None:
    # The lead is read once as the Rosen König at its own outline, then lies hidden three
    # seconds (under the cards of a trick left lying, a hand reaching across) until seat 2
    # lays the Rosen 7 squarely on it, unseen on the way. The reads there changed when the
    # 7 landed, under seat 2's hand, not at that one misread long before.
    table = laid(TRICK[:2])
    table.misreads["rosen-6"] = ("rosen-koenig", 0.7, ())
    table.step()
    table.hidden = {"rosen-6"}
    table.step(24)
    assert seven_laid_unseen_then_eight(table, lead_hidden=True) == [*TRICK[:2], (2, "rosen-7"), (3, "rosen-8")]


def test_a_counted_card_misread_while_the_turns_hand_takes_the_fourth_card_back_is_no_card_laid_on_it() -> None:
    # Seat 3 lays the Eicheln Under, the trick's fourth card and its winner, then takes it
    # back, seen carried off towards its edge. As that hand goes, seat 2's Eicheln 9 reads
    # as the Eicheln 8 at its own outline, clearly and on after the hand has gone. The
    # winner's hand was over the table as the reads changed, but it was taking a card away,
    # not laying one on the 9: the 8 is the 9 misread, and seat 3's next card, the Rosen
    # 10, is the trick's fourth.
    table = laid(TRICK)
    table.lay("eicheln-under", 3, rest=12)
    table.arms = {"left"}
    table.reads_as["eicheln-9"] = ("eicheln-8", 0.85, ())
    table.move("eicheln-under", EDGE[3], frames=4)
    del table.cards["eicheln-under"]
    table.step()
    table.arms = set()
    table.step(18)
    del table.reads_as["eicheln-9"]
    table.step(10)
    table.arms = {"left"}
    table.lay("rosen-10", 3, rest=2)
    table.arms = set()
    table.step(10)
    events = run(table)
    assert plays(events) == [*TRICK, (3, "eicheln-under"), (3, "rosen-10")]
    assert [e.card for e in events if isinstance(e, CardWithdrawn)] == ["eicheln-under"]
    assert [e for e in events if isinstance(e, TrickCollected)] == []
