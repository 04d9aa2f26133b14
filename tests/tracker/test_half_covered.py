"""Cards of a trick laid close together half cover each other: what still shows of a
counted card is misread, and a card laid over it may at first be read with the covered
card as a runner-up. Neither may add or lose a card (rendered near-centre games lost
whole tricks to both)."""

from __future__ import annotations

import pytest

from scoring.events import CardPlayed, TrickCollected
from tests.tracker.table import SPOTS, Table, run
from vision.tracker.reread import CardReread, resolve_rereads
from vision.tracker.tracker import TrackerEvent


def plays(events: list[TrackerEvent]) -> list[tuple[int, str]]:
    return [(e.seat, e.card) for e in resolve_rereads(events) if isinstance(e, CardPlayed)]


def collects(events: list[TrackerEvent]) -> list[TrickCollected]:
    return [e for e in events if isinstance(e, TrickCollected)]


def test_a_card_laid_a_third_over_a_counted_card_is_new_though_its_first_read_names_that_card_at_nothing() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    x, y = SPOTS[0]
    # Seat 1's card comes into view only as the hand lets go of it, a third of a card off
    # the counted one, which it now covers. The first read lists the covered card among
    # the identifier's three runners-up, at a share of nothing.
    table.hidden = {"rosen-6"}
    table.misreads["rosen-ass"] = ("rosen-ass", 0.74, (("rosen-6", 0.0), ("schilten-7", 0.0)))
    table.lay("rosen-ass", 1, slide=1, at=(x + 22, y - 12), start=(x + 22, y - 12), angle=0.0, rest=20)
    assert plays(run(table)) == [(0, "rosen-6"), (1, "rosen-ass")]


def test_a_counted_card_the_fourth_half_covers_is_no_fifth_card_when_misread_at_its_own_outline() -> None:
    table = Table()
    for seat, card in [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]:
        table.lay(card, seat, rest=8)
    # The fourth card's hand lets go over the first: its outline jumps a few pixels, it
    # goes unread for a moment, then what still shows of it is read, weakly, as another
    # card of its suit, frame after frame (the picture does not change until the sweep).
    x, y = SPOTS[0]
    table.cards["rosen-6"].pos = (x + 3, y - 6)
    table.step()
    table.hidden = {"rosen-6"}
    table.step(3)
    table.hidden = set()
    table.reads_as["rosen-6"] = ("rosen-7", 0.41, (("eicheln-10", 0.08), ("rosen-6", 0.07)))
    table.step(25)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]
    assert collects(events) == []


def test_a_lead_card_hidden_by_the_hand_that_lays_the_next_half_over_it_is_not_that_next_card() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=10)
    x, y = SPOTS[0]
    # Seat 1's hand hides the lead while it lays its card half over it; once the hand is
    # gone, the part of the lead still in view is read as another card at its own outline.
    table.hidden = {"rosen-6"}
    table.step(4)
    table.reads_as["rosen-6"] = ("schellen-6", 0.51, (("schellen-7", 0.0),))
    table.cards["rosen-6"].pos = (x + 4, y + 2)
    table.hidden = set()
    table.lay("rosen-ass", 1, slide=1, at=(x + 26, y), start=(x + 26, y), angle=0.0, rest=20)
    assert plays(run(table)) == [(0, "rosen-6"), (1, "rosen-ass")]


def test_a_card_laid_turned_across_a_counted_one_is_new_after_a_weak_first_read_went_to_the_counted_card() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=10)
    x, y = SPOTS[0]
    # Seat 1 lays its card centred on the counted one but turned across it. The first read,
    # weak and of neither card for sure, is taken for the counted card; the clear reads
    # after it lie at the new card's own outline.
    table.hidden = {"rosen-6"}
    table.misreads["rosen-ass"] = ("rosen-ass", 0.41, (("schilten-8", 0.08), ("rosen-ober", 0.07)))
    table.lay("rosen-ass", 1, slide=1, at=(x + 2, y), start=(x + 2, y), angle=70.0, rest=20)
    assert plays(run(table)) == [(0, "rosen-6"), (1, "rosen-ass")]


def test_a_card_laid_over_a_counted_one_and_hidden_before_it_counted_still_counts_before_the_next() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    table.lay("rosen-ass", 1, rest=8)
    x, y = SPOTS[1]
    # Seat 2's card lies a third over seat 1's. The detector keeps one outline of the two
    # in turn, so seat 2's card, read clearly, shows for two frames at a time only; then
    # seat 3's hand hides it while seat 3 lays its card.
    table.lay("eicheln-9", 2, slide=1, at=(x - 20, y + 18), start=(x - 20, y + 18), angle=80.0)
    table.hidden = {"rosen-ass"}
    table.step()
    table.hidden = {"eicheln-9"}
    table.step(3)
    table.hidden = {"rosen-ass"}
    table.step(2)
    table.hidden = {"eicheln-9"}
    table.lay("rosen-10", 3, rest=10)
    assert plays(run(table)) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]


def test_a_counted_card_misread_at_its_own_outline_keeps_the_read_against_a_card_coming_in_towards_it() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    # Seat 1's card slides in, read too weakly to be named yet, on a course that points at
    # the counted card, and vanishes under the hand for a frame just as the counted card,
    # half covered, is misread.
    table.unsure["rosen-ass"] = (0.3, ())
    table.lay("rosen-ass", 1, slide=2, start=(540.0, 320.0), at=SPOTS[0], rest=0)
    del table.unsure["rosen-ass"]
    table.hidden = {"rosen-ass"}
    table.reads_as["rosen-6"] = ("rosen-7", 0.93, (("rosen-6", 0.001),))
    table.step()
    table.hidden = set()
    table.cards["rosen-ass"].pos = (385.0, 300.0)
    table.step(14)  # what shows of the counted card is misread for as long as it lies covered
    assert plays(run(table)) == [(0, "rosen-6"), (1, "rosen-ass")]


def test_a_counted_card_that_the_next_card_half_covers_is_not_reread_as_what_still_shows_of_it() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    x, y = SPOTS[0]
    # Seat 1's card lies half over it; what still shows of the 6 reads, clearly, as the 7,
    # for as long as the trick lies there.
    table.lay("rosen-ass", 1, slide=1, at=(x + 30, y - 10), start=(x + 30, y - 10), angle=0.0, rest=2)
    table.reads_as["rosen-6"] = ("rosen-7", 0.9, (("rosen-6", 0.06),))
    table.step(60)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass")]
    assert not [e for e in events if isinstance(e, CardReread)]


def lay_the_next_by_hand(table: Table, card: str, seat: int, edge: str) -> None:
    """``seat``'s hand, seen at ``edge``, lays ``card`` at its spot; a second passes."""
    table.arms = {edge}
    table.lay(card, seat, rest=2)
    table.arms = set()
    table.step(10)


def cover_the_lead(table: Table) -> None:
    """Seats 0 and 1 lay; seat 2's hand hides the lead while it lays its card over part of it."""
    x, y = SPOTS[0]
    table.lay("schilten-ass", 0, rest=8)
    table.lay("schilten-ober", 1, rest=8)
    table.hidden = {"schilten-ass"}
    table.arms = {"top"}
    table.step(3)
    table.lay("schilten-koenig", 2, slide=2, start=(x + 10, 120.0), at=(x + 10, y - 30), rest=1)


def test_what_still_shows_of_a_half_covered_lead_outlined_anew_is_the_lead_not_the_next_card() -> None:
    table = Table()
    cover_the_lead(table)
    # The part of the lead still in view is outlined anew, a little off, and read unsurely
    # as another card of its suit, while seat 2's arm withdraws.
    x, y = SPOTS[0]
    table.cards["schilten-ass"].pos = (x - 2, y + 12)
    table.reads_as["schilten-ass"] = ("schilten-9", 0.6, (("eicheln-ass", 0.01),))
    table.hidden = set()
    table.step(3)
    table.arms = set()
    table.step(10)
    lay_the_next_by_hand(table, "schilten-under", 3, "left")
    events = run(table, contract="schilten")
    assert plays(events) == [(0, "schilten-ass"), (1, "schilten-ober"), (2, "schilten-koenig"), (3, "schilten-under")]
    assert collects(events) == []


def test_a_card_the_next_players_hand_lays_where_the_half_covered_lead_lay_is_new() -> None:
    table = Table()
    cover_the_lead(table)
    table.arms = set()
    table.step(4)
    # Seat 3's hand reaches in and lays its card where the hidden lead lies: first seen at
    # rest there, read unsurely.
    x, y = SPOTS[0]
    table.arms = {"left"}
    table.step(3)
    table.unsure["rosen-10"] = (0.6, ())
    table.lay("rosen-10", 3, slide=1, start=(x - 2, y + 12), at=(x - 2, y + 12), rest=2)
    table.arms = set()
    table.step(10)
    events = run(table, contract="schilten")
    assert plays(events) == [(0, "schilten-ass"), (1, "schilten-ober"), (2, "schilten-koenig"), (3, "rosen-10")]


def test_a_misread_counted_card_outlined_smaller_as_the_fourth_card_covers_more_of_it_is_no_fifth_card() -> None:
    table = Table()
    for seat, card in [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]:
        table.lay(card, seat, rest=8)
    # What shows of the half-covered 6 reads, clearly, as the 7 of its suit; the fourth
    # card laid over more of it then shrinks its outline a fifth about the same place.
    table.reads_as["rosen-6"] = ("rosen-7", 0.7, ())
    table.step(5)
    table.lay("rosen-10", 3, rest=0)
    table.cards["rosen-6"].scale = 0.8
    table.step(25)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]
    assert collects(events) == []


def lay_a_fifth_off_the_lead(table: Table, *, ass_read: float) -> None:
    """Seat 0 leads the Rosen 6; seat 1's hand lays the Rosen Ass a fifth of a card off it,
    hiding it, first seen where it lands, read unsurely at ``ass_read``. Once the hand has
    gone, what shows of the 6 is outlined anew a fifth of a card the other way and read
    vaguely as the Schellen 6; seat 2 lays the next card."""
    table.lay("rosen-6", 0, rest=6)
    x, y = SPOTS[0]
    table.arms = {"right"}
    table.unsure["rosen-ass"] = (ass_read, ())
    table.hidden = {"rosen-6"}
    table.lay("rosen-ass", 1, slide=1, start=(x + 1, y - 13), at=(x + 1, y - 13), rest=0)
    table.step(5)
    table.arms = set()
    table.cards["rosen-6"].pos = (x + 14, y + 11)
    table.reads_as["rosen-6"] = ("schellen-6", 0.37, (("schellen-under", 0.01),))
    table.hidden = set()
    table.step(20)
    lay_the_next_by_hand(table, "rosen-10", 2, "top")


@pytest.mark.parametrize("ass_read", [0.5, 0.55])
def test_a_card_landing_a_fifth_off_the_lead_unseen_on_its_way_counts_and_what_shows_of_the_lead_does_not(
    ass_read: float,
) -> None:
    # The Ass's first outline lies a fifth of a card off the lead, which it hides. Taken by
    # the lead's track (read surely as the 6 until then), it dragged that track onto the
    # Ass: the Ass never counted, and what showed of the 6 once the hand had gone counted
    # in seat 1's turn as the Schellen 6.
    table = Table()
    lay_a_fifth_off_the_lead(table, ass_read=ass_read)
    assert plays(run(table)) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "rosen-10")]
