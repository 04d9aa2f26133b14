"""Rounds as the real recogniser read them (``tests.tracker.recorded``): habits of a real
table that scripted detection streams did not reproduce."""

from __future__ import annotations

from scoring.events import CardCorrected, CardPlayed, EventVoided, TrickCollected
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


def test_a_view_of_the_next_card_in_its_hand_passing_over_a_counted_one_is_no_card_laid_on_it() -> None:
    # Rendered round 5,000,763 as the real recogniser read it, to the end of its eighth
    # trick. In the second, seat 2's hand brings the Schellen 6 in from the top edge and
    # lays it over part of seat 0's Schellen 8, the lead. A view in that hand, read as the
    # Schellen 9, vanishes over the 8 as the 8's reads change (half covered, it reads as
    # the 9, the König, the Schilten 7 by turns): the mark of a card laid squarely on a
    # counted one. But the 6 came to rest beside the 8 after that view showed: the view
    # was of the 6 on its way. (Taken for a card laid on the 8, a Schellen 9 counted in
    # seat 3's turn, seat 3's Schilten 8 closed the trick as a fifth card, and every later
    # trick came one late.) In the eighth trick seat 1's hand brings the Rosen Ober, laid
    # by mistake and taken back later; a third of a card short of where it lies, under
    # that hand, it is read as the Rosen König for four frames at rest. Seen only in the
    # hand that laid the Ober, that König is the Ober itself, not a card laid before it and
    # hidden by it. (Counted first as seat 1's card, it made the Ober a fifth card that
    # closed the trick.) The first trick's two cards laid by mistake are withdrawn.
    assert replayed("recogniser-5000763.json.gz").tricks_ok == [True] * 8


def test_a_card_of_the_trick_left_lying_read_anew_where_it_lies_is_no_new_card() -> None:
    # Rendered round 5,000,765 as the real recogniser read it, to the end of its fifth
    # trick. In the first, seat 0's Eicheln König lies read unsurely when seat 1 lays the
    # Schilten 9 by mistake over most of it; the 9 counts in seat 0's turn, and once seat 1
    # takes it back the König counts in seat 1's. When seat 1 then lays the Eicheln 8 the
    # 9 is withdrawn, and the König, counted after it, takes seat 0's turn back (a
    # correction the table sees): the 8 is seat 1's card. In the fourth trick, led on the
    # third left lying, a hand covers part of the third trick's Eicheln 7: a track of its
    # own outlines it where it lies, read as the Eicheln 6, an old card, and is set aside;
    # then another, read as the 7 and the Eicheln 9. It lies where the 7 lay, which never
    # left: that is the 7, no new card. (Counted as seat 0's Eicheln 9, it put the fifth
    # trick's cards in the wrong seats too.) The fourth trick is lost to a second card of
    # that trick left lying, read as the Eicheln 9 under the hands.
    run = replayed("recogniser-5000765.json.gz")
    assert run.tricks_ok == [True, True, True, False, True]
    first = [(e.seat, e.card) for e in run.events if isinstance(e, CardCorrected)][0]
    assert first == (0, "eicheln-koenig")


def test_the_lead_laid_on_the_full_trick_left_lying_counts_though_read_unsurely() -> None:
    # Oracle detections of rendered round 5,000,468 with habits, to the end of its second
    # trick. The first is left lying; its winner, seat 1, lays the Eicheln Ober on its
    # Eicheln Under, which it hides, and the hand hid the Ober on its way in: it shows
    # where it lies, read at 0.6-0.67. A card no hand of a player still to lay brought,
    # read so unsurely, waits (it may be a shape between overlapping cards); with the
    # trick full every hand had laid, so the lead waited, seat 2's Eicheln 8 counted as
    # the lead, and the Ober went with the trick as a read of the Under. The next card
    # after a full trick leads a new one, and any hand but the one that laid the fourth
    # card may bring it.
    assert replayed("oracle-5000468.json.gz").tricks_ok == [True, True]


def test_the_winners_lead_laid_on_their_own_card_of_the_trick_left_lying_counts() -> None:
    # Oracle detections of rendered round 5,000,471 with habits, to the end of its second
    # trick. The first is left lying; its winner, seat 1, lays the Schellen König at their
    # own spot, on the Eicheln Ober they laid into it, outline for outline. The hand hid
    # the König on its way in, and it shows where the Ober lies, read as the König at
    # 0.7-0.96 with other cards now and then. Taken for the Ober misread at its own
    # outline, the König never counted: seat 2's Eicheln Under counted as the lead, and
    # the trick went wrong. With the winner's hand just over the table, a sure read of
    # another card on the winner's own card is that card's lead (``tracks.match_cost``,
    # ``lead_on``).
    assert replayed("oracle-5000471.json.gz").tricks_ok == [True, True]


def test_a_card_laid_on_its_players_own_old_card_misread_there_counts() -> None:
    # Rendered round 5,000,820 as the real recogniser read it, the whole round. In the
    # last trick, led on the eighth left lying, seat 2's Schilten 10 of the eighth is read
    # vaguely as the Schellen 10 once that trick is collected, and those reads start a
    # track of their own. Seat 2's hand then hides it and lays the Rosen 10 a tenth of a
    # card off its outline, read at 0.81-0.86. Taken by the vague track, the 10 was struck
    # as the old card misread (the track had shown up where the Schilten 10 lay as it
    # went): it never counted, the lead hidden meanwhile was withdrawn as taken back, and
    # the trick was lost. A track only ever read vaguely takes no sure read of another
    # card after it was hidden (``tracks.VAGUE_REST_READ``).
    assert replayed("recogniser-5000820.json.gz").tricks_ok == [True] * 9


def test_a_card_read_surely_twice_and_then_covered_is_no_misread_of_the_card_laid_over_it() -> None:
    # Rendered round 5,000,821 as the real recogniser read it, to the end of its fifth
    # trick. In the second, seat 0's Schellen 7 is read at 0.82 and 0.84 as it comes to
    # rest; seat 1 lays the Schellen Ass almost together, over most of it, and from then
    # on only the Ass shows, outlined a fifth of a card off the 7's outline. The 7 counted
    # on its mixed reads (0.39) and was never read again, so the clear reads of the Ass
    # were taken for the 7 read better: it was reread as the Ass, and the 7, seen again
    # as the trick was gathered and read as a Schellen 6, counted in seat 2's turn. The
    # fifth trick's real Schellen 6 then counted as a Schellen 9, the 6 taken for played.
    # A counted card read surely as itself more than once is no misread of a clear read
    # of another card off its outline (``tracks.match_cost``, ``Track.sure_reads``).
    assert replayed("recogniser-5000821.json.gz").tricks_ok == [True] * 5


def test_a_vague_read_a_third_of_a_card_off_a_hidden_resting_track_is_another_card() -> None:
    # Rendered round 5,000,839 as the real recogniser read it, to the end of its fifth
    # trick. In the third, led on the second left lying, that trick's Schellen 6 is read
    # vaguely as the Schellen 7 where it lies, and those reads start a track. A hand hides
    # it, and uncovers the second trick's Rosen 8 a third of a card away, read at 0.35-0.72
    # as the Rosen 9, 7 or 6. The track moved onto it and counted the two cards' reads as
    # a Schellen 7 in seat 0's turn; from then on every trick of the round came a card
    # off. A vague read of another card that far from where a hidden track lay still is
    # another card (``tracks.OFF_REST_READ``, ``OFF_REST_SHIFT``). The Rosen 8 seen anew
    # still counts, as a Rosen 9 in seat 0's turn, so the third and fourth tricks are lost;
    # the fifth is right again.
    assert replayed("recogniser-5000839.json.gz").tricks_ok == [True, True, False, False, True]


def test_a_counted_card_misread_while_its_neighbours_player_takes_their_card_back_is_no_lead_laid_on_it() -> None:
    # Rendered round 5,000,845 as the real recogniser read it, to the start of its seventh
    # trick. In the sixth, seat 1 lays the Schilten 9 by mistake, the trick's fourth card
    # and its winner as counted, and takes it back, seen carried off towards its edge.
    # As its hand goes, seat 2's Rosen 8 beside it reads as the Rosen 7 at its own
    # outline, at 0.74-0.80 for two seconds. The winner's hand had been over the table as
    # the reads changed, so the 7 was taken for its lead laid squarely on the 8: the
    # trick closed with the mistaken card, the 7 led the next, and seat 1's Rosen 9
    # counted in seat 2's turn.
    # A hand taking a counted card away lays none meanwhile (``piles.Piles._carrying``):
    # the 9 is withdrawn and the Rosen 9 is the sixth trick's fourth card. (The fifth
    # trick is lost to its lead, laid on the fourth trick left lying and seen at rest in
    # two frames only.)
    assert replayed("recogniser-5000845.json.gz").tricks_ok == [True, True, True, True, False, True]


def test_what_shows_of_a_lead_under_a_card_not_yet_counted_is_the_lead_not_the_next_card() -> None:
    # Rendered round 5,000,847 as the real recogniser read it, to the end of its sixth
    # trick. Seat 0 leads the Eicheln Ass; seat 1 lays the Eicheln Ober over most of it,
    # read unsurely (0.52-0.62), so it waits to count. As seat 1's hand goes, what still
    # shows of the Ass is outlined anew, a quarter of a card off where it came to rest, and
    # read vaguely (0.37) as the Schellen 6. The Ass seen again under a card laid over it
    # is known only once that card has counted; so the 6 counted in seat 1's turn, the
    # Ober in seat 2's, and the trick and the next came a card off. A card come to rest
    # over the counted one, not yet counted, covers it as a counted one does, and the
    # turn's hand that brought it reached in for it (``partial.PartialViews.seen_again``).
    assert replayed("recogniser-5000847.json.gz").tricks_ok == [True] * 6


def test_a_card_at_rest_on_the_hidden_lead_counts_before_the_card_laid_over_it() -> None:
    # Rendered round 5,000,872 as the real recogniser read it, to the end of its third
    # trick. The second trick is left lying and the third is led on it; seat 0's Schilten
    # Ass then hides the lead. Seat 1's Schellen 8 slides in from the right and comes to
    # rest a fifth of a card off the hidden lead, read at 0.5-0.8, so it waits to be sure
    # it is no view of the lead. Before it has waited enough, seat 2's hand brings the
    # Schilten Ober from the top, first seen where it lands, over the 8, in the very frame
    # the 8 is last seen. The 8 never counted, the Ober counted in seat 1's turn, and the
    # trick was one card short. Brought by another hand than the Ober's, and at rest
    # before the Ober showed, the 8 is no view of the Ober in its hand
    # (``partial.PartialViews.overlooked``): it counts first, in its turn.
    assert replayed("recogniser-5000872.json.gz").tricks_ok == [True, True, True]


def test_the_lead_of_the_player_who_laid_the_fourth_card_and_took_the_trick_counts_though_vague() -> None:
    # Rendered round 5,000,887 as the real recogniser read it, to the end of its fourth
    # trick. Seat 3 lays the third trick's fourth card and takes the trick, which is left
    # lying. Five seconds later seat 3's arm brings the Schilten Ass, first seen where it
    # lands on the trick and read at 0.2-0.33. A card read so vaguely that no arm but the
    # one that laid the fourth card brought waits (a shape between overlapping cards, seen
    # as that hand withdraws); before the wait was over, seat 1's Schilten 7 landed over
    # it. The Ass never counted, and the 7 counted in seat 3's turn. The player who laid
    # the fourth card and took the trick leads next: their arm, come back two seconds or
    # more later, bringing a card not yet played, brings the lead (``seats.Seats.no_hand_laid``).
    assert replayed("recogniser-5000887.json.gz").tricks_ok == [True] * 4


def test_a_card_of_the_trick_left_lying_misread_by_turns_as_the_next_is_laid_is_no_new_card() -> None:
    # Rendered round 5,000,800 as the real recogniser read it, to the end of its second
    # trick. The first trick is left lying; seat 2, who took it, lays the Schilten 8 by
    # mistake (it counts as the lead, and the first trick as collected) and takes it
    # back, then brings the Rosen Under from the top. As that hand hovers, the first
    # trick's Rosen 8 is read by turns as itself and as the Schellen 9 (0.47-0.59), at its
    # own outline. The 9's reads started a track that showed up just as the 8 went from
    # view; but the 8 showed again as itself before that track was decided, and only its
    # last sighting was kept in mind, so the 9 counted in seat 3's turn and every later
    # card of the trick came a seat late. Any of the last times the 8 went from view
    # will do (``TrickTracker._laid_gone``): the 9 is the 8 misread.
    assert replayed("recogniser-5000800.json.gz").tricks_ok == [True, True]


def test_a_lead_that_lay_for_seconds_is_no_view_of_the_last_card_landing_on_it() -> None:
    # Rendered round 5,000,802 as the real recogniser read it, its first trick. Seat 1's
    # Schellen König leads and lies six seconds, read as itself. Seat 0's Schellen 6,
    # the fourth card, lands on it a fifth of a card off; its first reads are vague (0.35)
    # and the König's track takes them, moving to the 6's outline, so the König has lain
    # still only three frames where it is last seen when the 6's clear reads start a
    # track of their own. Taken for a view of the 6 pushed into place, the König was
    # reread as the 6, and the trick was a card short. It lay still for seconds all the
    # same, longer than any such view (``partial.PartialViews._lay_as_itself``).
    assert replayed("recogniser-5000802.json.gz").tricks_ok == [True]


def test_a_wrong_lead_taken_back_from_the_trick_left_lying_is_withdrawn_and_the_card_under_it_is_no_new_card() -> None:
    # Rendered round 5,000,892 as the real recogniser read it, to the end of its sixth
    # trick. The fifth trick is left lying; seat 0, who took it, lays the Schellen Ass by
    # mistake on its own Schilten 6, outline for outline, where it lies three seconds read
    # as itself, and takes it back. The 6 shows again, read vaguely (0.3-0.6) by turns as
    # itself, the Schellen 7 and the Schellen 9, and the Ass's track took those reads: it
    # never looked gone, so the right lead, the Rosen Under, counted in seat 1's turn. Read
    # only as the card it was laid on for as long as it was read as itself, the Ass was
    # taken back (``collection.Collection._read_as_another``); the 6, shown again where it
    # lay, is no new card.
    run = replayed("recogniser-5000892.json.gz")
    assert run.tricks_ok == [True] * 6
    voided = {e.ref for e in run.events if isinstance(e, EventVoided)}
    sixth = [e for i, e in enumerate(run.events) if isinstance(e, CardPlayed) and i in voided and (e.t or 0.0) > 80.0]
    assert [e.card for e in sixth] == ["schellen-ass"]


def test_a_wrong_lead_taken_back_from_across_a_card_of_the_trick_left_lying_is_withdrawn() -> None:
    # Rendered round 5,000,930 as the real recogniser read it, to the end of its second
    # trick. The first trick is left lying and seat 3 leads on it; seat 0 lays the Schellen
    # König by mistake a third of a card off its own Rosen Under of the first trick, over
    # most of it, and takes it back two seconds later (seen carried off). The Under shows
    # again where it lay, read surely, and the König's track took those reads, so it never
    # looked gone; seat 0's right card, the Schilten 8, counted in seat 1's turn and every
    # later trick of the round was a card off (1 of 9). The card a counted card was laid
    # on is the one whose place it covers most (``TrickTracker._laid_on``), not only one it
    # lies on outline for outline.
    run = replayed("recogniser-5000930.json.gz")
    assert run.tricks_ok == [True, True]
    voided = {e.ref for e in run.events if isinstance(e, EventVoided)}
    withdrawn = [e.card for i, e in enumerate(run.events) if isinstance(e, CardPlayed) and i in voided]
    assert withdrawn == ["schellen-koenig"]


def test_a_fourth_card_taken_back_from_a_card_of_the_trick_left_lying_is_withdrawn() -> None:
    # Oracle detections of rendered round 5,000,508 with habits, to the end of its third
    # trick. The second is left lying; seat 1 leads the third with a card it takes back
    # (the Rosen 6) and then the right one. Seat 0 lays the trick's fourth card, the
    # Schellen Ober, by mistake on the Schellen 6 of the second, and takes it back under
    # its hand a second and a half later. The 6 shows again where it lay, now and then,
    # and the Ober's track takes those reads (too few to tell a take-back by them alone),
    # so the Ober looked last seen a moment before the right card, the Schellen 9, landed
    # at the same spot: the 9 counted as the lead of the next trick, and the third trick
    # kept the Ober. A card's reads of the card it was laid on are that card showing: the
    # Ober went when it was last read as itself (``Collection._gone_before``).
    run = replayed("oracle-5000508.json.gz")
    assert run.tricks_ok == [True] * 3
    voided = {e.ref for e in run.events if isinstance(e, EventVoided)}
    withdrawn = [e.card for i, e in enumerate(run.events) if isinstance(e, CardPlayed) and i in voided]
    assert withdrawn == ["rosen-6", "schellen-ober"]


def test_a_lead_that_lay_still_for_seconds_is_not_taken_for_a_view_of_the_card_laid_on_it() -> None:
    # Oracle detections of rendered round 5,000,505 with habits, to the end of its sixth
    # trick. Seat 2 leads the Eicheln 6, which lies four seconds read as itself; seat 1's
    # hand then lays the Rosen 10, the trick's fourth card, squarely on it. While the hand
    # hid both, the 6's track took the 10's first read a little off, and so lay still
    # there only a moment: the 10, counting, was taken for the 6 pushed into place by the
    # hand that laid it, the 6 was reread as the 10, and the 6 counted again in seat 1's
    # turn. How long a counted card lay still is kept (``Track.longest_rest``), however
    # often it shows a little off since.
    run = replayed("oracle-5000505.json.gz")
    assert run.tricks_ok == [True] * 6
    assert not [e for e in run.events if isinstance(e, CardCorrected)]


def test_an_old_card_read_once_as_a_card_still_to_come_where_it_lay_counts_for_no_one() -> None:
    # Oracle detections of rendered round 5,000,415 with habits, to the end of its fifth
    # trick. The fourth is left lying and seat 3 leads on it. Its Rosen 8, outlined anew a
    # fifth of a card off where it lay after a hand passed over it, is read as itself in
    # most frames and once as the Eicheln König; after the longest wait the König counted
    # on that one read (0.06 of the vote), in seat 0's turn, and every later card of the
    # trick went a seat late. A track read mostly as an old card where that card lay, and
    # only faintly as any card still to come, is that old card (``TrickTracker._decide``).
    run = replayed("oracle-5000415.json.gz")
    assert run.tricks_ok == [True] * 5
    assert "eicheln-koenig" not in [e.card for e in run.events if isinstance(e, CardPlayed)]


def test_an_old_card_counted_surely_and_read_faintly_as_another_where_it_lay_is_no_new_card() -> None:
    # Oracle detections of rendered round 5,000,587 with habits, to the end of its second
    # trick. The first is left lying; as the second is laid on it, its Rosen Ober shows
    # again an eighth of a card off where it lay, over nine tenths of its place, read as
    # itself and now and then, faintly, as other cards. The Ober had counted surely (its
    # reads thirty times any other card's, though the oracle's runners-up leave it 0.89 of
    # the vote), and the faint reads held a tenth of its new track's vote: it counted as
    # the Eicheln 10 in seat 3's turn, and seat 3's Schellen Ass was lost. A count read so
    # much more often as itself than as any other card is sure
    # (``TrickTracker._left_lying_seen_again``).
    run = replayed("oracle-5000587.json.gz")
    assert run.tricks_ok == [True, True]
    assert "eicheln-10" not in [e.card for e in run.events if isinstance(e, CardPlayed)]


def test_the_turns_card_glimpsed_a_moment_before_the_next_player_laid_over_it_counts_first() -> None:
    # Oracle detections of rendered round 5,000,459 with habits, to the end of its third
    # trick. Seat 0 leads the Eicheln Ass, brought in from the bottom edge; it is seen four
    # frames, read as itself only half the time (its first reads, under the hand, name
    # other cards) and never still two frames at once, before seat 1's hand, from the right
    # edge, lays the Schellen 10 over it. The Ass was taken for a view of the 10 in the hand
    # that laid it: the 10 counted as the lead, and every card of the trick a seat early.
    # Brought by the turn's hand alone, not the one that laid the 10, it was laid first
    # (``PartialViews.overlooked``).
    run = replayed("oracle-5000459.json.gz")
    assert run.tricks_ok == [True] * 3
    lead = next(e for e in run.events if isinstance(e, CardPlayed) and e.card == "eicheln-ass")
    assert lead.seat == 0


def test_a_card_landing_short_of_its_flight_on_the_turns_card_keeps_its_own_track() -> None:
    # Oracle detections of rendered round 5,000,496 with habits, to the end of its second
    # trick. Seat 3 leads the Schellen 6, read surely; seat 0's Schellen 9 is seen in
    # flight from the bottom edge at the same time, a card's length a frame, and lands
    # squarely on the 6, short of where its speed would have carried it. Its first read
    # there went to the 6's track (an eighth of a card off, against the 9's own track
    # well short of its next place), and the 6's track, read since as the 9, counted as
    # the 9 in seat 3's turn; the 6 was never counted. A card read as itself in flight
    # may stop anywhere on its way (``tracks.match_cost``).
    run = replayed("oracle-5000496.json.gz")
    assert run.tricks_ok == [True, True]
    assert [(e.seat, e.card) for e in run.events if isinstance(e, CardPlayed)][4:6] == [
        (3, "schellen-6"),
        (0, "schellen-9"),
    ]


def test_a_card_showing_under_the_next_arm_after_the_turns_arm_withdrew_is_the_next_players() -> None:
    # Oracle detections of rendered round 5,000,475 with habits, to the end of its sixth
    # trick. Seat 1 lays the Rosen Ober and withdraws its arm; seat 2's arm, in beside it,
    # lays the Rosen 9 over the Ober, which never shows. The 9 first shows three frames
    # after seat 1's arm went, seat 2's arm alone in view: it is seat 2's card, and the
    # trick is collected with seat 1's card unseen, for the table to name. Counted in
    # turn, the 9 took seat 1's place and the Ober was asked for as seat 2's.
    run = replayed("oracle-5000475.json.gz")
    assert run.tricks_ok[:5] == [True] * 5
    assert [(e.seat, e.card) for e in run.events if isinstance(e, CardPlayed)][20:23] == [
        (3, "eicheln-9"),
        (0, "schellen-ober"),
        (2, "rosen-9"),
    ]
    assert [e.unseen for e in run.events if isinstance(e, TrickCollected)][5] == (1,)


def test_the_turns_card_seen_before_it_was_hidden_keeps_the_turn_though_its_arm_withdrew_first() -> None:
    # Oracle detections of rendered round 5,000,447 with habits, to the end of its fifth
    # trick. Seat 3's Schilten 8 shows three frames under seat 3's arm and is then hidden
    # by seat 0's hand, which lays the Rosen Under after seat 3's arm has gone. The 8 is
    # on the table, though not counted yet, not a card laid unseen: the Under, showing
    # under seat 0's arm alone, follows it in turn, and seat 1's Eicheln Ass after.
    run = replayed("oracle-5000447.json.gz")
    assert run.tricks_ok == [True] * 5


def test_a_card_hidden_under_the_next_card_flown_in_from_another_edge_was_not_taken_back() -> None:
    # Oracle detections of rendered round 5,000,546 with habits, its first trick. Seat 1
    # lays the Rosen Ober by mistake and takes it back (withdrawn: the one voided event),
    # then lays the Eicheln 8; seat 2's Eicheln 7, seen in flight from the top edge, lands on
    # it while seat 1's arm is still withdrawing, and the 8 never shows again. The 7's
    # arms were seat 1's alone when it first showed, so the 8, gone under its own
    # player's arm, was taken for a card taken back when the trick was swept, and the 7
    # was moved to seat 1. Carried in from seat 2's edge, the 7 was laid over it.
    run = replayed("oracle-5000546.json.gz")
    assert run.tricks_ok == [True]
    assert [e.ref for e in run.events if isinstance(e, EventVoided)] == [2]
    assert [(e.seat, e.card) for e in run.events if isinstance(e, CardPlayed)][3:5] == [
        (1, "eicheln-8"),
        (2, "eicheln-7"),
    ]
