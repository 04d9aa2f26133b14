"""Cards laid overlapping leave shapes between them that the detector outlines as a card
now and then. A rendered game had one between an Ober, an 8 and a König, read unsurely as
the Eicheln Ass while the König's hand withdrew; counted for the player whose turn it was,
it made that player's real card a fifth card, closed the trick early and put every later
card one seat off. A card needs a hand to lay it: a shape that shows up in place, with no
arm but those of players who have laid, waits; a real card whose arm the camera missed
still counts once the wait is over."""

from __future__ import annotations

from tests.tracker.table import Table, _Card, plays, run

FIRST = [(0, "eicheln-ober"), (1, "schilten-8"), (2, "eicheln-koenig")]


def three_laid_and_a_ghost(frames: int) -> Table:
    """Seats 0-2 laid; as seat 2's arm withdraws, a shape between the cards reads unsurely
    as the Eicheln Ass for ``frames`` frames, never brought in by a hand."""
    table = Table()
    for seat, card in FIRST:
        table.lay(card, seat, rest=8)
    table.arms = {"top"}
    table.cards["eicheln-ass"] = _Card("eicheln-ass", (330.0, 235.0), 20.0)
    table.unsure["eicheln-ass"] = (0.5, (("schellen-ass", 0.45),))
    table.step(2)
    table.arms = set()
    table.step(frames - 2)
    return table


def test_a_ghost_between_overlapping_cards_is_no_card_and_the_real_fourth_card_counts() -> None:
    table = three_laid_and_a_ghost(frames=9)
    del table.cards["eicheln-ass"]  # the real card comes over the place
    table.arms = {"left"}
    table.lay("rosen-6", 3, at=(300.0, 240.0), rest=2)
    table.arms = set()
    table.step(8)
    table.sweep(2)
    table.step(8)
    table.lay("schellen-9", 2, rest=10)
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [*FIRST, (3, "rosen-6"), (2, "schellen-9")]


def test_a_card_whose_hand_the_camera_missed_still_counts_after_the_wait() -> None:
    table = three_laid_and_a_ghost(frames=25)  # it stays: a real card, laid unseen
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [*FIRST, (3, "eicheln-ass")]


def test_a_real_card_whose_hand_was_missed_keeps_its_turn_before_the_next_card_laid_soon_after() -> None:
    table = Table()
    for seat, card in FIRST[:2]:
        table.lay(card, seat, rest=8)
    # Seat 2's card shows where it lies as seat 1's arm withdraws, read unsurely; seat 3
    # lays the next card well before the wait is over.
    table.arms = {"right"}
    table.cards["eicheln-koenig"] = _Card("eicheln-koenig", (320.0, 160.0), 0.0)
    table.unsure["eicheln-koenig"] = (0.55, (("eicheln-ober", 0.3),))
    table.step(2)
    table.arms = {"left"}
    table.lay("rosen-6", 3, rest=2)
    table.arms = set()
    table.step(20)
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [*FIRST[:2], (2, "eicheln-koenig"), (3, "rosen-6")]


def test_a_card_that_showed_while_a_ghost_took_the_fourth_place_is_no_lead_of_the_next_trick() -> None:
    # A clear ghost between the cards (the overlap of two cards read as a Schellen 8)
    # counts as the trick's fourth card; the real fourth card shows a moment later, before
    # the fourth could even have counted. It is no fifth card leading the next trick: that
    # would close the trick at once and put every later card one seat off.
    table = Table()
    for seat, card in FIRST:
        table.lay(card, seat, rest=8)
    table.arms = {"left"}
    table.cards["schellen-8"] = _Card("schellen-8", (330.0, 235.0), 20.0)
    table.step(2)
    table.lay("rosen-6", 3, at=(220.0, 240.0), start=(220.0, 240.0), slide=1, rest=1)
    del table.cards["schellen-8"]
    table.arms = set()
    table.step(10)
    table.sweep(2)
    table.step(8)
    table.lay("schellen-9", 2, rest=10)
    seen = plays(run(table, forehand=0, contract="eicheln"))
    assert seen[:3] == FIRST
    assert seen[-1] == (2, "schellen-9")
    assert len(seen) == 5


def test_the_lead_of_the_player_who_laid_the_fourth_card_and_took_the_trick_counts_read_unsurely() -> None:
    # Rendered round 5,000,887 (``test_recorded_rounds``): seat 3 lays the trick's fourth
    # card and takes it, and the trick is left lying. Seconds later seat 3's arm brings the
    # lead, first seen where it lies, read vaguely; before the wait for a card no new arm
    # brought is over, the next player lays a card over it. The lead never counted, and
    # the next card took its seat. The arm that laid the fourth card is the winner's:
    # come back, it brings a card, not a shape seen as it withdrew.
    trick = [(0, "schellen-6"), (1, "schellen-7"), (2, "schellen-8"), (3, "eicheln-ass")]
    table = Table()
    for seat, card in trick:
        table.lay(card, seat, rest=8)
    table.step(20)
    table.arms = {"left"}
    table.unsure["rosen-koenig"] = (0.35, ())
    lead_at = (300.0, 280.0)
    table.lay("rosen-koenig", 3, at=lead_at, start=lead_at, slide=1, rest=2)  # hidden on its way
    table.arms = set()
    table.step(9)
    table.arms = {"bottom"}
    table.hidden = {"rosen-koenig"}
    table.lay("rosen-6", 0, at=(310.0, 300.0), rest=2)
    table.arms = set()
    table.step(10)
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [*trick, (3, "rosen-koenig"), (0, "rosen-6")]
