"""Rounds as the real recogniser read them (``tests.tracker.recorded``): habits of a real
table that scripted detection streams did not reproduce."""

from __future__ import annotations

from scoring.events import CardCorrected, CardPlayed
from tests.tracker.recorded import replayed
from vision.tracker.evaluate import fold_accepting, merge


def test_the_lead_laid_on_the_full_trick_left_lying_starts_the_next_trick() -> None:
    # Rendered round 5,000,621: the first trick is left lying, and the second is laid on
    # it. Its lead, the Rosen Ober, is never detected (hidden in its player's hand until it
    # lies under the next card). The Schilten Ass that follows lands on the first trick's
    # Eicheln Ober, which the next player's arm then hides; for a few frames the Ober's
    # track took the Ass's outline. Taken for the Ober misread, the Ass never counted, the
    # first trick stayed open until the third, and every later trick came one late.
    run = replayed("recogniser-5000621.json.gz")
    assert run.tricks_ok == [True, False, True]
    played = [e.card for e in run.events if isinstance(e, CardPlayed)]
    assert {"schilten-ass", "rosen-8", "schellen-ober"} <= set(played[4:8])


def test_the_next_card_laid_squarely_on_the_card_before_by_the_turns_hand_counts_in_turn() -> None:
    # Oracle detections of rendered round 5,000,429 (the renderer's truth, jittered): in
    # the fifth trick seat 1's Schilten 9 lands squarely on seat 0's Schilten Ober, under
    # seat 1's own arm. The Ober shows no more, and its track takes the 9's outline. Read
    # clearly as a card not yet played, and not one what shows of the Ober could be read
    # as, the 9 is the next card, not the Ober misread; before, it waited, seat 2's Under
    # counted in its place, and the two swapped seats.
    assert replayed("oracle-5000429.json.gz").tricks_ok == [True] * 5


def test_the_last_card_laid_over_the_one_before_by_the_turns_hand_counts_though_read_less_surely() -> None:
    # Rendered round 5,000,665 as the real recogniser read it. In the fourth trick seat 3
    # first lays the Schellen 8 by mistake and takes it back; then its arm brings the
    # Eicheln König, which lands over a third of the Eicheln 10 before it. The detector
    # outlines the König and the 10 by turns, never both in one frame, and reads the
    # König at 0.68. Brought by the turn's arm, read as nothing else, well off the 10's
    # outline and as no card a view of the 10 reads as, it is the fourth card; before, it
    # was taken for the 10 misread, and the trick was collected with a card unseen.
    assert replayed("recogniser-5000665.json.gz").tricks_ok == [True] * 4


def test_a_card_seen_at_rest_while_the_next_was_on_its_way_in_counts_in_its_seat_and_the_winner_leads() -> None:
    # Rendered round 5,000,666 as the real recogniser read it. In the second trick seat 2's
    # Schilten 10 lies still, read as itself, while seat 3's Schilten 7 is detected in the
    # hand bringing it, a card's length and more away. The 7 then lands over the 10, which
    # is read vaguely as the Rosen 10 and Eicheln 9 from then on, and a Rosen Ass that was
    # never laid is read where the cards overlap. Seen apart from the 7, the 10 was a card
    # of its own, laid first: it counts before the 7, in seat 2's turn. Seat 0's Schilten Ass
    # keeps seat 0 and wins (seat 0's arm alone was in view as the Rosen Ass showed, on seat
    # 2's side of the centre: no evidence that seat 0 laid it), and seat 0 leads the third
    # trick in turn, with no flag for the table to dismiss. (Before, the 10 was never
    # counted and that trick was wrong.)
    run = replayed("recogniser-5000666.json.gz")
    assert run.tricks_ok == [True, True, True]
    lead = next(e for e in run.events if isinstance(e, CardPlayed) and e.card == "schilten-6")
    assert (lead.seat, lead.seat_seen) == (0, False)
    flags = fold_accepting(merge(run.recorded.truth, run.events))[0].flags
    assert "out_of_turn" not in [f.code for f in flags]


def test_the_next_card_seen_beside_the_lead_as_it_lands_on_it_is_a_card_of_its_own() -> None:
    # Rendered round 5,000,734 as the real recogniser read it. Seat 3 leads the Schilten
    # Under in the fourth trick; its arm still withdraws as seat 0's Schilten 9 comes in
    # from the bottom edge, and the 9 lands almost on the Under, which shows no more. The
    # 9 was detected beside the Under, well apart, in the frame it first showed. Taken for
    # the Under pushed into place by the hand that laid it, the lead was reread as the 9;
    # the Under, showing again later, then counted for seat 0, and the two swapped seats.
    run = replayed("recogniser-5000734.json.gz")
    assert run.tricks_ok == [True] * 4
    assert not [e for e in run.events if isinstance(e, CardCorrected) and e.card == "schilten-9"]


def test_a_lead_beside_the_trick_left_lying_counts_though_a_card_of_that_trick_showed_anew_since() -> None:
    # Rendered round 5,000,739 as the real recogniser read it, to the end of its eighth
    # trick. Seat 0 won the seventh trick and leads the Schilten König beside it while it
    # lies; seat 1's hand then passes over that trick's Eicheln Ass, which shows again as a track
    # of its own a moment after the König. The König showed seconds after the seventh
    # trick's last card, so it is no view of that trick: it leads the eighth. (Taking the
    # time the Ass showed anew for when its card showed, the König was set aside as a card
    # seen before the trick was full, and seat 1's Ass led in its place.)
    assert replayed("recogniser-5000739.json.gz").tricks_ok == [True] * 8


def test_a_lead_hidden_by_the_next_hand_and_back_where_it_lay_still_keeps_its_turn() -> None:
    # Game 5,000,735 with habits, read by the recogniser, its first four tricks. In the
    # fourth, seat 1 leads the Eicheln 6 and it lies still, read clearly; seat 2's hand
    # passes over it as it lays the Schilten 9 beside it: the outline drawn around what
    # shows of the 6 moves a tenth of a card and is misread, then the 6 is hidden, and it
    # shows again at its first outline. It never moved: it keeps its hand and its arrival,
    # and counts before the 9. (Taken for a card laid anew by a hand not seen, it waited
    # while the 9 counted in seat 1's turn, and the two swapped seats.) The second trick
    # is lost to a card taken back and the right one laid where it never shows.
    assert replayed("recogniser-5000735.json.gz").tricks_ok == [True, False, True, True]


def test_a_track_that_took_the_next_cards_reads_and_came_back_there_is_that_card_laid_anew() -> None:
    # Oracle detections of rendered round 5,000,405 with habits, to the end of its fifth
    # trick. In it seat 3's Eicheln Ober comes to rest; as seat 0's Rosen 10 comes in beside
    # it, one frame's outline of the 10 is taken by the Ober's track, which then lies still
    # where the 10 lies, is hidden a moment and shows there again. A track back at the
    # outline where it came to rest never moved; this one came back where the 10 lies, so
    # it is a card laid anew, not the Ober that came first. (Taken for the Ober, it kept the
    # Ober's arrival, and the 10 counted in seat 3's turn, the Ober in seat 0's.)
    assert replayed("oracle-5000405.json.gz").tricks_ok == [True] * 5
