"""Two players laying their cards close together and close in time: the first card laid
counts first, for its own player.

Rendered games with players' habits lost tricks three ways: the first card, seen a moment,
was hidden under the second before it could count; the first card's track took over the
second card's reads once the second lay on it; and a first card still read unsurely waited
while the second, read clearly, counted in its seat.
"""

from __future__ import annotations

from scoring.events import CardPlayed
from tests.tracker.table import EDGE, SPOTS, Table, _Card, corrected, run
from tests.tracker.test_arm_evidence import AT, lay_by_hand
from tests.tracker.test_habits import EDGE_NAME, folded_trick_cards
from vision.tracker.reread import CardWithdrawn

LEAD = (0, "rosen-6")
CENTRE_SPOT = (330.0, 250.0)


def nine_laid_on_the_ass(table: Table, offset: tuple[float, float], arms: set[str]) -> None:
    """Seat 2's hand lays the 9 ``offset`` off the Ass at ``CENTRE_SPOT``, hiding it on the
    way in (``arms`` in view); the Ass stays hidden under it from then on."""
    table.arms = arms
    table.hidden = {"rosen-ass", "eicheln-9"}
    table.lay("eicheln-9", 2, at=(CENTRE_SPOT[0] + offset[0], CENTRE_SPOT[1] + offset[1]))
    table.hidden = {"rosen-ass"}
    table.step(3)
    table.arms = set()
    table.step(10)


def settled_tricks(table: Table) -> list[list[tuple[int, str]]]:
    """The hands withdraw and the table lies still a while; the tricks the tracker's
    events fold to (done and on the table), none of them flagged."""
    table.arms = set()
    table.step(12)
    tricks, flags = folded_trick_cards(run(table))
    assert flags == ()
    return tricks


def assert_counted_in_turn(table: Table) -> None:
    """The lead, seat 1's Ass and seat 2's 9 are the trick, in turn, and nothing is flagged."""
    tricks, flags = folded_trick_cards(run(table))
    assert tricks == [[LEAD, (1, "rosen-ass"), (2, "eicheln-9")]]
    assert flags == ()


def test_a_card_seen_a_moment_before_the_next_card_lands_on_it_counts_first() -> None:
    # Seat 1's Ass is seen whole for one frame, its player's arm in view; then seat 2 lays
    # the 9 right on it, a third of a card off, and the Ass is never seen again.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.step(3)
    table.cards["rosen-ass"] = _Card("rosen-ass", CENTRE_SPOT, 90.0)
    table.step()
    table.hidden = {"rosen-ass"}
    table.arms = {"right", "top"}
    table.step(2)
    table.arms = {"top"}
    table.lay("eicheln-9", 2, at=(CENTRE_SPOT[0] + 10.0, CENTRE_SPOT[1] - 18.0), rest=3)
    table.arms = set()
    table.step(10)
    assert_counted_in_turn(table)


def test_a_card_hidden_under_the_next_does_not_take_over_the_next_cards_reads() -> None:
    # Seat 1's Ass lies still two frames, read clearly, then seat 2's 9 lands on it (its
    # hand hid the 9 on the way in): the 9 is another card, not the Ass moved.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.hidden = {"rosen-ass"}
    table.lay("rosen-ass", 1, at=CENTRE_SPOT)
    table.hidden = set()
    table.step(2)
    nine_laid_on_the_ass(table, (10.0, -18.0), {"right", "top"})
    assert_counted_in_turn(table)


def test_a_card_read_unsurely_that_came_to_rest_well_before_the_next_counts_first() -> None:
    # Seat 1's Ass is read unsurely and its outline jitters, so it keeps coming to rest
    # anew; seat 2's 9, laid beside it most of a second later, is read clearly at once.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    x, y = SPOTS[1]
    table.unsure["rosen-ass"] = (0.6, (("rosen-koenig", 0.3),))
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=(x - 40.0, y), rest=2)

    def jitter(frames: int) -> None:
        for k in range(frames):
            table.cards["rosen-ass"].pos = (x - 40.0 + (10.0 if k % 4 < 2 else 0.0), y)
            table.step()

    jitter(4)
    table.arms = {"top"}
    jitter(4)
    table.cards["eicheln-9"] = _Card("eicheln-9", (x - 60.0, y - 60.0), 0.0)
    jitter(2)
    table.arms = set()
    jitter(4)
    del table.unsure["rosen-ass"]
    table.step(12)
    assert_counted_in_turn(table)


def test_the_next_card_laid_on_a_card_just_counted_is_a_new_card_not_that_one_misread() -> None:
    # Seat 1's Ass counts and is read as itself twice more; then seat 2's 9 lands on it, a
    # fifth of a card off its outline, read clearly, and the Ass is hidden from then on.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=CENTRE_SPOT, rest=5)
    nine_laid_on_the_ass(table, (8.0, -10.0), {"top"})
    assert_counted_in_turn(table)


def test_a_card_counted_from_a_partial_view_keeps_its_seat_when_the_next_hand_covers_it() -> None:
    # Seat 2 leads at the centre; its hand stays over part of the card as it counts. Seat 3
    # lays beside it; then seat 0's hand covers the lead while laying its own card, and the
    # lead shows again a little off, outlined whole. The arm in view then is seat 0's: no
    # evidence that the lead was seat 0's card (the card is weighed again, as one counted
    # from a partial view that now shows larger).
    table = Table()
    table.arms = {"top"}
    table.cards["rosen-under"] = _Card("rosen-under", CENTRE_SPOT, 0.0, scale=0.8, confidence=0.9)
    table.rest_times["rosen-under"] = round(table.t, 6)
    table.step(6)
    table.arms = set()
    table.cards["rosen-under"] = _Card("rosen-under", CENTRE_SPOT, 0.0)
    table.step(6)
    table.arms = {"left"}
    table.lay("rosen-ober", 3, at=(CENTRE_SPOT[0] - 70.0, CENTRE_SPOT[1] + 10.0), rest=3)
    table.arms = set()
    table.step(6)
    table.arms = {"bottom"}
    table.hidden = {"rosen-under"}
    table.step(3)
    # Outlined around what shows and some of the card over it: larger, and off its place.
    table.cards["rosen-under"] = _Card("rosen-under", (CENTRE_SPOT[0] + 2.0, CENTRE_SPOT[1] + 9.0), 0.0, scale=1.2)
    table.hidden = set()
    table.lay("rosen-ass", 0, at=(CENTRE_SPOT[0] + 10.0, CENTRE_SPOT[1] + 80.0), rest=3)
    table.arms = set()
    table.step(10)
    events = run(table, forehand=2)
    assert corrected(events) == [(2, "rosen-under"), (3, "rosen-ober"), (0, "rosen-ass")]


def test_a_card_beside_a_counted_one_counts_at_once_though_it_flickers() -> None:
    # Seat 2's 9 comes to rest overlapping seat 1's counted Ass, read unsurely, and drops
    # out of every third frame (part of it under the Ass's edge), while the Ass is read in
    # every frame. Both are detected in one frame: the 9 is a card of its own, not the Ass
    # misread for a moment, and counts within a second, not only once the next card comes.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=CENTRE_SPOT, rest=3)
    table.arms = {"top"}
    table.unsure["eicheln-9"] = (0.65, (("eicheln-6", 0.2),))
    table.lay("eicheln-9", 2, at=(CENTRE_SPOT[0] - 22.0, CENTRE_SPOT[1] + 12.0), rest=2)
    table.arms = set()
    for k in range(12):
        table.hidden = {"eicheln-9"} if k % 3 == 2 else set()
        table.step()
    table.hidden = set()
    table.arms = {"left"}
    table.lay("eicheln-koenig", 3, at=(CENTRE_SPOT[0] - 60.0, CENTRE_SPOT[1] - 10.0), rest=3)
    table.arms = set()
    table.step(12)
    events = run(table)
    nine = next(e for e in events if isinstance(e, CardPlayed) and e.card == "eicheln-9")
    assert nine.t is not None and nine.t - table.rest_times["eicheln-9"] <= 1.0
    tricks, flags = folded_trick_cards(events)
    assert tricks[0] == [LEAD, (1, "rosen-ass"), (2, "eicheln-9"), (3, "eicheln-koenig")]
    assert flags == ()


def lead_read_vaguely_under_the_next_hand(table: Table) -> None:
    """Seat 0 leads the Schellen 10 at ``CENTRE_SPOT``; seat 1's hand comes in over it at
    once, so that it is read as itself only unsurely, and then as the Under and König."""
    table.arms = {"bottom"}
    table.unsure["schellen-10"] = (0.6, (("schellen-under", 0.25),))
    table.lay("schellen-10", 0, at=CENTRE_SPOT, rest=1)
    table.arms = {"bottom", "right"}
    table.step()
    table.arms = {"right"}
    for read, confidence in (("schellen-under", 0.5), ("schellen-koenig", 0.6), ("schellen-under", 0.4)):
        table.misreads["schellen-10"] = (read, confidence, (("schellen-10", 0.2),))
        table.step()


def test_a_lead_read_vaguely_and_covered_at_once_by_the_next_card_counts_first_in_its_seat() -> None:
    # Seat 1's hand lays the Rosen 10 straight on the lead, a third of a card off, and the
    # lead is never seen again. The lead's hand brought it, and only seat 1's hand was in
    # view when the 10 showed: two hands, two cards. The lead counts first, for seat 0,
    # from its vague reads (the table is asked to confirm it); the 10 is seat 1's.
    table = Table()
    lead_read_vaguely_under_the_next_hand(table)
    table.cards["rosen-10"] = _Card("rosen-10", (CENTRE_SPOT[0] + 18.0, CENTRE_SPOT[1] - 24.0), 90.0)
    table.hidden = {"schellen-10"}
    table.step(3)
    tricks = settled_tricks(table)
    assert tricks == [[(0, "schellen-10"), (1, "rosen-10")]]


def test_a_vague_view_under_its_own_players_hand_is_not_a_card_of_its_own() -> None:
    # Seat 1's hand lays its König and lingers over it: the card is read vaguely, as the
    # Ober, a moment; then the hand pushes it into place, most of a card further in, and
    # the whole card shows, read surely, with the same hand still in view. One hand, one
    # card: the vague view does not count as a card of its own before the König.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    x, y = CENTRE_SPOT
    table.reads_as["eicheln-koenig"] = ("eicheln-ober", 0.5, (("eicheln-koenig", 0.2),))
    table.cards["eicheln-koenig"] = _Card("eicheln-koenig", (x + 45.0, y), 90.0)
    table.step(4)
    table.hidden = {"eicheln-koenig"}
    table.step()
    table.hidden = set()
    del table.reads_as["eicheln-koenig"]
    table.cards["eicheln-koenig"] = _Card("eicheln-koenig", (x, y), 90.0)
    table.step(3)
    tricks = settled_tricks(table)
    assert tricks == [[LEAD, (1, "eicheln-koenig")]]


def test_a_card_hidden_under_the_next_players_hand_for_seconds_is_not_taken_back() -> None:
    # Seat 2's 9 counts; seat 3's hand then reaches in over it and stays there more than
    # a second and a half while its player thinks, and lays the König over it as it
    # withdraws. The 9 was never seen again, but only its own player takes a card back, and
    # that player's hand never came: it is still the trick's card, and the König seat 3's.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.lay("rosen-ass", 1, rest=3)
    table.arms = {"top"}
    table.lay("eicheln-9", 2, at=CENTRE_SPOT, rest=3)
    table.arms = set()
    table.step(3)
    table.arms = {"left"}
    table.hidden = {"eicheln-9"}
    table.step(16)
    table.cards["eicheln-koenig"] = _Card("eicheln-koenig", (CENTRE_SPOT[0] - 10.0, CENTRE_SPOT[1] + 8.0), 90.0)
    table.step(2)
    tricks = settled_tricks(table)
    assert tricks[0] == [LEAD, (1, "rosen-ass"), (2, "eicheln-9"), (3, "eicheln-koenig")]


def test_a_card_seen_beside_the_lead_before_it_counts_is_not_taken_for_a_view_of_it() -> None:
    # Seat 0's lead is read unsurely, so it counts only after a wait. Meanwhile seat 1's
    # Ober shows beside it, read clearly in two frames together with it, and then seat 2's
    # 6 is laid over the Ober, which is never seen again. The Ober is no view of the lead
    # (it shares neither its suit nor its rank, and both were seen at once): it counts in
    # seat 1, before the 6.
    x, y = CENTRE_SPOT
    table = Table()
    table.arms = {"bottom"}
    table.unsure["schellen-under"] = (0.6, (("schellen-ober", 0.2),))
    table.lay("schellen-under", 0, at=CENTRE_SPOT, rest=1)
    table.arms = {"bottom", "right"}
    table.cards["eicheln-ober"] = _Card("eicheln-ober", (x + 22.0, y - 14.0), 90.0)
    table.step(2)
    table.arms = {"right", "top"}
    table.hidden = {"eicheln-ober"}
    table.step(2)
    table.cards["schellen-6"] = _Card("schellen-6", (x + 30.0, y - 22.0), 0.0)
    table.step(2)
    tricks = settled_tricks(table)
    assert tricks == [[(0, "schellen-under"), (1, "eicheln-ober"), (2, "schellen-6")]]


def ass_lying_three_seconds(scale: float) -> Table:
    """Seat 0's lead, the Rosen Ass, brought by its hand and lying three seconds at
    ``CENTRE_SPOT``, read as itself in every frame, outlined ``scale`` of a card long
    (part of it under the edge of a glass)."""
    table = Table()
    table.arms = {"bottom"}
    table.cards["rosen-ass"] = _Card("rosen-ass", CENTRE_SPOT, 0.0, scale=scale)
    table.step(3)
    table.arms = set()
    table.step(30)
    return table


def test_a_card_that_lay_for_seconds_is_not_taken_for_a_view_of_the_next_card() -> None:
    # Seat 0's lead lies three seconds, read as itself in every frame, outlined a little
    # small (part of it under the edge of a glass). Then seat 1's hand covers it and lays
    # the Under beside it, a third of a card off. The lead was the whole card, not a view
    # of the Under under the hand that laid it: both count, the lead unchanged.
    x, y = CENTRE_SPOT
    table = ass_lying_three_seconds(scale=0.8)
    table.arms = {"right"}
    table.hidden = {"rosen-ass"}
    table.step(3)
    table.cards["rosen-under"] = _Card("rosen-under", (x + 15.0, y + 20.0), 90.0)
    table.step(4)
    tricks = settled_tricks(table)
    assert tricks == [[(0, "rosen-ass"), (1, "rosen-under")]]


def test_a_card_laid_first_and_missed_one_frame_as_the_next_is_ready_still_counts_first() -> None:
    # Seat 0's 6, read unsurely, lies still two frames when seat 1's 9 is laid beside it
    # almost together; the detector misses the 6 in the very frame the 9 is ready to count.
    # One missed frame is no card gone: the 6 is still the 9's partner and counts first.
    table = Table()
    table.unsure["rosen-6"] = (0.55, (("rosen-9", 0.3),))
    table.arms = {"bottom"}
    table.step(4)
    table.lay("rosen-6", 0, at=AT[0], start=AT[0], slide=1, rest=1)
    table.arms = {"bottom", "right"}
    table.step(1)
    table.arms = {"right"}
    table.lay("eicheln-9", 1, at=AT[1], start=AT[1], slide=1, rest=2)
    table.hidden = {"rosen-6"}
    table.step()
    table.hidden = set()
    table.step(5)
    table.arms = set()
    del table.unsure["rosen-6"]
    table.step(10)
    assert corrected(run(table)) == [(0, "rosen-6"), (1, "eicheln-9")]


def assert_the_six_lands_on_the_lead_and_counts_after_it(table: Table, start: tuple[float, float] | None) -> None:
    """Seat 1's Eicheln 6 (from ``start``, or seat 1's edge) lands on seat 0's lead a fifth of
    a card off, hiding it from then on, and seat 2 lays its Rosen Ass: the trick is the lead,
    the 6, the Ass, in that order."""
    table.hidden = {"rosen-6"}
    table.lay("eicheln-6", 1, at=(CENTRE_SPOT[0] + 10.0, CENTRE_SPOT[1] - 8.0), slide=1, start=start, rest=3)
    table.arms = {"top"}
    table.lay("rosen-ass", 2, at=(CENTRE_SPOT[0] + 20.0, CENTRE_SPOT[1] - 90.0), rest=3)
    table.arms = set()
    assert settled_tricks(table) == [[LEAD, (1, "eicheln-6"), (2, "rosen-ass")]]


def test_a_lead_seen_at_rest_while_the_next_card_was_still_in_the_hand_counts_first() -> None:
    # A fast trick: seat 0's lead comes to rest, read at 0.6 and, under seat 1's hand, twice
    # as the Schilten Ober; all the while seat 1's Eicheln 6 is detected in the hand a card's
    # length and more away. The 6 then lands on the lead, a fifth of a card off, and the
    # lead is hidden from then on. Its name was never clear, and the 6 shares its rank, but
    # the two were seen apart: two cards, and the lead was laid first.
    table = Table()
    table.unsure["rosen-6"] = (0.6, (("rosen-7", 0.2),))
    table.lay("rosen-6", 0, at=CENTRE_SPOT, rest=2)
    table.arms = {"right"}
    start = (CENTRE_SPOT[0] + 160.0, CENTRE_SPOT[1] + 10.0)
    for k, read in enumerate((None, "schilten-ober", "schilten-ober", None)):
        if read is not None:
            table.misreads["rosen-6"] = (read, 0.65, (("rosen-6", 0.2),))
        table.cards["eicheln-6"] = _Card("eicheln-6", (start[0] - 30.0 * k, start[1]), 90.0)
        table.step()
    assert_the_six_lands_on_the_lead_and_counts_after_it(table, start)


def test_a_lead_seen_at_rest_while_the_next_card_was_in_the_hand_counts_first_though_it_was_lost_between() -> None:
    # The same fast trick, but the 6 is lost from view in the hand for a few frames before
    # it lands on the lead: where it lies it is a track of its own, known to be the card
    # seen in the hand only by its name. The lead came in its own player's hand: still two
    # cards seen apart, the lead first.
    table = Table()
    table.unsure["rosen-6"] = (0.6, (("rosen-7", 0.2),))
    table.arms = {"bottom"}
    table.lay("rosen-6", 0, at=CENTRE_SPOT, rest=2)
    table.arms = {"bottom", "right"}
    start = (CENTRE_SPOT[0] + 160.0, CENTRE_SPOT[1] + 10.0)
    for k in range(2):
        table.cards["eicheln-6"] = _Card("eicheln-6", (start[0] - 30.0 * k, start[1]), 90.0)
        table.step()
    table.hidden = {"eicheln-6"}
    table.step(2)
    assert_the_six_lands_on_the_lead_and_counts_after_it(table, None)


def test_a_card_read_vaguely_mostly_as_a_card_played_before_and_covered_at_once_counts_first_in_its_seat() -> None:
    # A trick of Schellen is won by seat 0's 9 and swept. Seat 0 leads the Schellen 10, and
    # seat 1's hand lays its Ass straight on it at once: the 10, half hidden, is read now as
    # the 9 of its suit and now as itself, the 9 leading the vote a little. A card played
    # before seen again is read as it far more surely; this is the 10 (an unplayed card
    # the vote names), and it counts first, in seat 0's turn, before the Ass.
    table = Table()
    first = [(0, "schellen-9"), (1, "schellen-6"), (2, "schellen-7"), (3, "schellen-8")]
    for seat, card in first:
        lay_by_hand(table, card, seat, {("bottom", "right", "top", "left")[seat]})
    table.sweep(0)
    table.step(6)
    table.arms = {"bottom"}
    table.misreads["schellen-10"] = ("schellen-9", 0.75, (("schellen-10", 0.35),))
    table.lay("schellen-10", 0, at=CENTRE_SPOT, start=CENTRE_SPOT, slide=1)
    table.arms = {"bottom", "right"}
    table.misreads["schellen-10"] = ("schellen-10", 0.5, (("schellen-9", 0.35),))
    table.step()
    table.arms = {"right"}
    table.misreads["schellen-10"] = ("schellen-9", 0.75, (("schellen-10", 0.35),))
    table.step()
    table.misreads["schellen-10"] = ("schellen-10", 0.5, (("schellen-9", 0.35),))
    table.step()
    table.cards["schellen-ass"] = _Card("schellen-ass", (CENTRE_SPOT[0] + 18.0, CENTRE_SPOT[1] - 24.0), 90.0)
    table.hidden = {"schellen-10"}
    table.step(3)
    tricks = settled_tricks(table)
    assert tricks == [first, [(0, "schellen-10"), (1, "schellen-ass")]]


def test_the_next_card_laid_turned_over_a_card_that_just_counted_is_a_new_card_not_that_one_misread() -> None:
    # Seat 1's Ass counts from its first clear reads as the hand lets go; seat 2's hand
    # then comes over it at once (the Ass read as the Rosen 7 from what shows) and lays the
    # 9 on it, turned and a little off, the whole card read clearly; the Ass is hidden from
    # then on. It was never read as itself again, but what lay still there was a whole
    # card, and the 9's whole outline lies nearly half a card off it: another card.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=CENTRE_SPOT, rest=3)
    table.arms = {"right", "top"}
    table.reads_as["rosen-ass"] = ("rosen-7", 0.4, (("rosen-ass", 0.2),))
    table.step(3)
    del table.reads_as["rosen-ass"]
    table.arms = {"top"}
    table.hidden = {"rosen-ass"}
    table.cards["eicheln-9"] = _Card("eicheln-9", (CENTRE_SPOT[0] + 7.0, CENTRE_SPOT[1] + 12.0), 125.0)
    table.step(3)
    table.arms = set()
    table.step(10)
    assert_counted_in_turn(table)


def test_a_card_seen_a_moment_in_the_hand_as_a_card_like_it_is_no_card_of_its_own() -> None:
    # Seat 1's hand brings the Eicheln 9: one frame shows it in the hand, a fifth of a card
    # short of where it lands, read as the Eicheln 8 (a row of pips less); then the hand
    # hides it until it lies, read clearly as the 9. The 8 never lay still and looks like
    # the 9: a view of the 9 in the hand, not a card laid first and hidden under it.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.step(2)
    x, y = CENTRE_SPOT
    table.misreads["eicheln-9"] = ("eicheln-8", 0.9, ())
    table.cards["eicheln-9"] = _Card("eicheln-9", (x + 24.0, y + 4.0), 100.0)
    table.step()
    table.hidden = {"eicheln-9"}
    table.step(4)
    table.hidden = set()
    table.cards["eicheln-9"] = _Card("eicheln-9", CENTRE_SPOT, 90.0)
    table.step(3)
    tricks = settled_tricks(table)
    assert tricks == [[LEAD, (1, "eicheln-9")]]


def test_a_card_hidden_under_the_next_players_card_since_its_own_hand_left_is_not_taken_back() -> None:
    # Seat 0's 6 counts; its hand is still over it as seat 1 reaches in, and the 6 vanishes
    # under the two hands. Seat 1 lays the Ass on it, and the 6 is never seen again while
    # no hand is over the table. It went under its own player's arm and stayed unseen, as
    # a card taken back would, but the next player's card, brought while that player's
    # hand was over the table, lies on it: it is hidden there, and still the trick's lead.
    table = Table()
    x, y = CENTRE_SPOT
    table.arms = {"bottom"}
    table.lay("rosen-6", 0, at=CENTRE_SPOT, rest=5)
    table.arms = {"bottom", "right"}
    table.hidden = {"rosen-6"}
    table.step(2)
    table.lay("rosen-ass", 1, at=(x + 10.0, y - 10.0), start=(x + 10.0, y - 10.0), slide=1, rest=3)
    table.arms = set()
    table.step(14)
    table.arms = {"top"}
    table.lay("eicheln-9", 2, at=(x - 20.0, y - 80.0), rest=4)
    events = run(table)
    assert not [e for e in events if isinstance(e, CardWithdrawn)]
    assert settled_tricks(table) == [[LEAD, (1, "rosen-ass"), (2, "eicheln-9")]]


def test_the_next_card_laid_half_off_a_counted_card_is_a_new_card_though_its_reads_name_that_one() -> None:
    # Seat 1's Ass counts; seat 2's hand hides it and lays the 9 on it, half a card off
    # its outline. The 9 is read clearly, but with the Ass as a runner-up (the recogniser
    # sees a corner of the Ass under it). A whole card's outline that far off is another
    # card, whatever its runner-ups say: taken for the Ass misread, the 9 would be
    # counted as a correction of the Ass and never in its own turn.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=CENTRE_SPOT, rest=5)
    table.unsure["eicheln-9"] = (0.8, (("rosen-ass", 0.1),))
    nine_laid_on_the_ass(table, (14.0, -24.0), {"right", "top"})
    assert_counted_in_turn(table)


def test_a_lead_seen_at_the_rim_before_its_hand_counts_first_when_the_next_card_covers_it() -> None:
    # Seat 0's Schellen 6 shows at the frame's rim a frame before the arm holding it does
    # (the card is ahead of the hand). It lies still four frames under that hand, read
    # only unsurely, and seat 1's hand lays the 9 on it a third of a card off; the 6 is
    # never seen again. It came in seat 0's hand and the 9 in seat 1's: two hands, two
    # cards, and the 6 counts first, in its own seat.
    table = Table()
    table.unsure["schellen-6"] = (0.65, (("schellen-9", 0.1),))
    table.cards["schellen-6"] = _Card("schellen-6", EDGE[0], 0.0)
    table.step()
    table.arms = {"bottom"}
    table.lay("schellen-6", 0, at=CENTRE_SPOT, slide=5, rest=4, start=(EDGE[0][0], EDGE[0][1] - 30.0))
    table.arms = {"bottom", "right"}
    table.hidden = {"schellen-6", "rosen-9"}
    table.lay("rosen-9", 1, at=(CENTRE_SPOT[0] + 6.0, CENTRE_SPOT[1] + 10.0))
    table.arms = {"right"}
    table.hidden = {"schellen-6"}
    table.step(3)
    table.arms = set()
    table.step(10)
    tricks, flags = folded_trick_cards(run(table))
    assert tricks == [[(0, "schellen-6"), (1, "rosen-9")]]
    assert flags == ()


def test_a_card_laid_across_the_one_just_counted_and_read_with_it_as_runner_up_is_the_next_card() -> None:
    # Seat 1's hand lays the Ass lengthwise toward its own edge, read unsurely three frames,
    # and it counts. Seat 2's hand then hides it and lays the 9 squarely on it, turned
    # across it; the 9's first read is the Ass beneath, and later reads keep the Ass as a
    # runner-up (its edge still shows). The 9 is another card, not the Ass turned.
    table = Table()
    table.lay(*LEAD[::-1], rest=8)
    table.arms = {"right"}
    table.unsure["rosen-ass"] = (0.74, (("rosen-10", 0.13),))
    table.lay("rosen-ass", 1, at=CENTRE_SPOT, angle=90.0, rest=3)
    table.arms = {"top"}
    table.hidden = {"rosen-ass"}
    table.step(4)
    nine = (CENTRE_SPOT[0] - 8.0, CENTRE_SPOT[1])
    table.misreads["eicheln-9"] = ("rosen-ass", 0.52, (("eicheln-9", 0.44),))
    table.unsure["eicheln-9"] = (0.8, (("rosen-ass", 0.14),))
    table.lay("eicheln-9", 2, at=nine, start=nine, angle=0.0, slide=1)
    table.arms = set()
    table.step(12)
    assert_counted_in_turn(table)


def test_a_card_come_to_rest_on_the_hidden_lead_counts_first_when_the_next_card_covers_it() -> None:
    # Rendered round 5,000,872 (``test_recorded_rounds``): seat 1's hand lays its card on
    # the lead, hidden under another card since, a fifth of a card off. Lying on a counted
    # card that no longer shows, it waits to be sure it is no view of that card. Seat 2's
    # hand, passing over it, brings the next card, seen only where it lands, over it, in
    # the very frame the card under it is last seen. Brought by another hand than the one
    # that laid the next card, and at rest before that card showed, it is no view of that
    # card in its hand: it counts first.
    table = Table()
    table.lay(*LEAD[::-1], at=CENTRE_SPOT, rest=8)
    table.hidden = {LEAD[1]}
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=(CENTRE_SPOT[0] + 14.0, CENTRE_SPOT[1] + 4.0), rest=1)
    table.arms = {"right", "top"}
    table.step()
    table.arms = {"top"}
    table.hidden = {LEAD[1], "rosen-ass"}
    table.step(2)
    table.hidden = {LEAD[1]}
    table.step(2)
    nine = (CENTRE_SPOT[0] + 4.0, CENTRE_SPOT[1] - 28.0)
    table.lay("eicheln-9", 2, at=nine, start=nine, slide=1)
    table.hidden = {LEAD[1], "rosen-ass"}
    table.step(3)
    assert settled_tricks(table) == [[LEAD, (1, "rosen-ass"), (2, "eicheln-9")]]


def test_a_card_that_lay_for_seconds_then_nudged_is_not_taken_for_a_view_of_the_card_laid_on_it() -> None:
    # Rendered round 5,000,802 (``test_recorded_rounds``): seat 0's lead lies three
    # seconds, read as itself in every frame, outlined a little small; seats 1 and 2 lay
    # theirs beside it. As seat 3's hand comes in, the lead moves a little (nudged, or its
    # track taking the first vague reads of the card coming over it), so it has lain still
    # only a moment where it is last seen; the hand lays the Under on it a fifth of a card
    # off, and the lead shows no more. The lead lay still for seconds all the same: it is
    # no view of the Under pushed into place by the hand that laid it. Every card counts,
    # the lead unchanged (before, it was reread as the Under, and the trick was a card
    # short).
    x, y = CENTRE_SPOT
    table = ass_lying_three_seconds(scale=0.9)
    for seat, card in ((1, "rosen-9"), (2, "rosen-10")):
        table.arms = {EDGE_NAME[seat]}
        table.lay(card, seat, rest=2)
        table.arms = set()
        table.step(8)
    table.arms = {"left"}
    table.move("rosen-ass", (x - 12.0, y + 4.0), frames=2)
    table.hidden = {"rosen-ass"}
    table.cards["rosen-under"] = _Card("rosen-under", (x - 20.0, y + 16.0), 0.0)
    table.step(7)
    assert settled_tricks(table)[-1] == [(0, "rosen-ass"), (1, "rosen-9"), (2, "rosen-10"), (3, "rosen-under")]
