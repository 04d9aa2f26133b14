"""Reads that are not the card they name: the last trick's cards known by elimination, a
counted card misread for a moment while a hand hides part of it, and a hand carrying a blur
over a counted card. Each cost rendered near-centre games at the guide's mounting a trick,
or every trick after it (one card too many shifts every later trick by one)."""

from __future__ import annotations

import pytest

from scoring.cards import CARD_INDEX
from scoring.events import CardPlayed, Event, RoundStarted, TrickCollected
from scoring.rules import trick_winner, turn_order
from tests.tracker.table import SPOTS, Table, corrected, detection, laid, plays, run
from vision.tracker import TrickTracker
from vision.tracker.identity import Reading, among_the_last
from vision.tracker.reread import resolve_rereads
from vision.tracker.tracker import TrackerEvent

CONTRACT = "eicheln"


def eight_tricks(last: list[str]) -> tuple[list[Event], int]:
    """A round's first eight tricks of every card but ``last``, and who leads the ninth."""
    rest = [c for c in CARD_INDEX if c not in last]
    events: list[Event] = []
    leader = 0
    for k in range(8):
        cards = rest[4 * k : 4 * k + 4]
        seats = list(turn_order(leader))
        events += [CardPlayed(seat=s, card=c) for s, c in zip(seats, cards, strict=True)]
        leader = seats[trick_winner(cards, CONTRACT, trick=k)]
        events.append(TrickCollected(seat=leader))
    return events, leader


def run_last_trick(table: Table, history: list[Event]) -> list[Event]:
    tracker = TrickTracker()
    tracker.start_round(RoundStarted(forehand=0, contract=CONTRACT), history)
    events: list[TrackerEvent] = []
    for frame in table.frames:
        events += tracker.update(frame)
    return resolve_rereads(events + tracker.finish())


LAST = ["rosen-ass", "schellen-8", "schilten-koenig", "eicheln-6"]


def test_the_last_card_of_a_round_read_only_as_an_old_card_is_the_one_card_left() -> None:
    history, leader = eight_tricks(LAST)
    seats = list(turn_order(leader))
    old = next(e.card for e in history if isinstance(e, CardPlayed))
    table = Table()
    for seat, card in zip(seats[:3], LAST[:3], strict=True):
        table.lay(card, seat, rest=8)
    table.reads_as[LAST[3]] = (old, 0.9, ())  # tossed at an angle: read as an old card throughout
    table.lay(LAST[3], seats[3], rest=12)
    events = run_last_trick(table, history)
    assert [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)] == list(zip(seats, LAST, strict=True))


def test_among_the_last_cards_the_votes_choose_and_the_others_are_asked() -> None:
    played = set(CARD_INDEX) - {"rosen-ass", "schellen-8"}
    unsure = Reading("eicheln-7", 0.0, ())
    reading = among_the_last({"eicheln-7": 2.0, "schellen-8": 0.04}, played, unsure)
    assert (reading.card, reading.alternatives) == ("schellen-8", (("rosen-ass", 0.5),))
    assert reading.confidence == pytest.approx(0.5)


def test_earlier_in_the_round_a_read_of_old_cards_only_stays_unsure_for_the_rules_engine() -> None:
    played = set(list(CARD_INDEX)[:20])
    unsure = Reading("eicheln-7", 0.0, ())
    assert among_the_last({"eicheln-7": 2.0}, played, unsure) == unsure


def test_a_clear_read_is_never_narrowed_to_the_cards_left() -> None:
    played = set(CARD_INDEX) - {"rosen-ass"}
    sure = Reading("rosen-ass", 0.9, ())
    assert among_the_last({"rosen-ass": 1.0}, played, sure) is sure


# -- a full trick whose third card is misread while the fourth player's hand withdraws ----

TRICK = [(0, "eicheln-8"), (1, "eicheln-koenig"), (2, "eicheln-10"), (3, "eicheln-ober")]


def close_trick() -> Table:
    """The trick laid close together about the centre, each card over part of the one before."""
    table = Table()
    x, y = 320.0, 240.0
    at = {0: (x, y + 14), 1: (x + 16, y - 6), 2: (x - 20, y - 2), 3: (x + 2, y + 22)}
    for seat, card in TRICK[:3]:
        table.lay(card, seat, at=at[seat], angle=10.0 * seat, rest=10)
    table.arms = {"left"}
    table.lay(TRICK[3][1], 3, at=at[3], angle=35.0, rest=2)
    return table


def misread_in_turns(table: Table, card: str, read_as: str, shift: tuple[float, float]) -> None:
    """``card`` is outlined off its place and read clearly as ``read_as`` while the hand
    withdraws over it, then shows as itself again, twice over."""
    x, y = table.cards[card].pos
    for _ in range(2):
        table.hidden = {card}
        for _ in range(6):
            # The outline the detector draws of the card's part left in view, a little off.
            table.extra.append(detection(read_as, (x + shift[0], y + shift[1]), 10.0, 0.9))
            table.step()
        table.hidden = set()
        table.step(4)


def test_a_counted_card_misread_clearly_as_the_hand_withdraws_is_no_fifth_card() -> None:
    table = close_trick()
    misread_in_turns(table, "eicheln-koenig", "schilten-ass", shift=(8.0, 14.0))
    table.arms = set()
    table.step(10)
    events = run(table)
    assert plays(events) == TRICK
    assert [e for e in events if isinstance(e, TrickCollected)] == []


def test_the_next_trick_led_onto_the_lying_trick_still_counts_as_a_new_card() -> None:
    # The trick's winner leads the next card onto the trick left lying, their hand seen
    # reaching in: that card starts the next trick, however close it lies to a counted one.
    table = close_trick()
    table.arms = set()
    table.step(10)
    winner = TRICK[trick_winner([c for _, c in TRICK], CONTRACT, trick=0)][0]
    edge = {0: "bottom", 1: "right", 2: "top", 3: "left"}[winner]
    table.arms = {edge}
    table.lay("schellen-ass", winner, at=table.cards["eicheln-koenig"].pos, angle=20.0, rest=2)
    table.arms = set()
    table.step(10)
    events = run(table)
    assert plays(events) == [*TRICK, (winner, "schellen-ass")]


# -- a hand carrying a blur over a counted card ------------------------------------------


def test_a_hand_carrying_only_a_blur_read_as_an_old_card_lays_no_card_on_the_counted_one() -> None:
    trick = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]
    table = laid(trick)
    x, y = SPOTS[2]
    # Seat 3's hand comes in carrying its card; the one read on the way is of a card played
    # already (rosen-6), then the hand hides the card and lies over the counted Nell, which
    # reads as other cards at its own outline; the card then shows beside it.
    table.arms = {"left"}
    table.extra.append(detection("rosen-6", (60.0, 240.0), 90.0, 0.32))
    table.step()
    table.reads_as["eicheln-9"] = ("eicheln-koenig", 0.7, ())
    table.step(8)
    del table.reads_as["eicheln-9"]
    table.lay("rosen-koenig", 3, slide=1, start=(x - 30, y + 10), at=(x - 30, y + 10), rest=2)
    table.arms = set()
    table.step(10)
    assert plays(run(table)) == [*trick, (3, "rosen-koenig")]


# -- the next player's card laid over the last one counted -------------------------------


def test_a_card_the_next_player_lays_over_the_last_one_counted_is_theirs_not_that_card_pushed() -> None:
    table = Table()
    x, y = 320.0, 250.0
    table.lay("schellen-9", 0, at=(x, y))
    table.cards["schellen-9"].scale = 0.9  # outlined a little short of its edge, as some decks are
    table.step(14)
    # Seat 1's hand reaches in and brushes the Nine (its outline jumps), then lays the Six
    # over it, turned across, hiding the Nine; the hand withdraws and the Nine shows again.
    table.arms = {"right"}
    table.step(3)
    table.move("schellen-9", (x + 2, y - 12), frames=1)
    table.step(3)
    table.hidden = {"schellen-9"}
    table.lay("schellen-6", 1, slide=1, start=(x + 12, y - 16), at=(x + 12, y - 16), angle=80.0, rest=4)
    table.arms = set()
    table.step(8)
    table.hidden = set()
    table.step(10)
    events = run(table)
    assert plays(events) == [(0, "schellen-9"), (1, "schellen-6")]


# -- the card the last trick went without ------------------------------------------------


def test_the_card_a_round_never_saw_lying_there_as_the_next_round_starts_is_not_its_lead() -> None:
    history, leader = eight_tricks(LAST)
    seats = list(turn_order(leader))
    history += [CardPlayed(seat=s, card=c) for s, c in zip(seats[:3], LAST[:3], strict=True)]
    history.append(TrickCollected(seat=None, unseen=(seats[3],)))  # swept before its fourth card was read
    tracker = TrickTracker()
    tracker.start_round(RoundStarted(forehand=0, contract=CONTRACT), history)
    assert tracker.round_over
    table = Table()
    # The fourth card, laid late, lies alone; a hand covers it at once, as the next round is
    # entered.
    table.lay(LAST[3], seats[3], rest=1)
    table.hidden = {LAST[3]}
    table.step(3)
    start = len(table.frames)
    table.hidden = set()
    table.step(10)
    table.lay("rosen-7", 1, rest=10)  # the new round's forehand leads
    events: list[TrackerEvent] = []
    for i, frame in enumerate(table.frames):
        if i == start:
            tracker.start_round(RoundStarted(forehand=1, contract="rosen"))
        events += tracker.update(frame)
    events += tracker.finish()
    assert plays(events) == [(1, "rosen-7")]


def test_two_cards_of_the_last_trick_read_as_one_are_the_cards_left() -> None:
    """«Jede Karte ist nur einmal im Spiel»: the last trick's four cards are the four not yet
    played. A card tossed in at an angle read as a card laid after it (a Schellen 6 read as
    the Rosen Ass its neighbour then laid) is the one card of the four nobody read."""
    history, leader = eight_tricks(LAST)
    seats = list(turn_order(leader))
    table = Table()
    table.lay(LAST[0], seats[0], rest=8)
    table.reads_as[LAST[1]] = (LAST[3], 0.75, (("schellen-9", 0.2),))  # less sure than the Ass itself
    table.lay(LAST[1], seats[1], rest=12)
    table.lay(LAST[2], seats[2], rest=8)
    table.lay(LAST[3], seats[3], rest=12)
    events = run_last_trick(table, history)
    assert corrected(events) == list(zip(seats, LAST, strict=True))
    assert not any(isinstance(e, CardPlayed) and e.card == LAST[1] and e.seat == seats[3] for e in events)


# -- the winner's hand gathering the trick over a counted card ---------------------------

GATHERED = [(0, "eicheln-8"), (1, "eicheln-10"), (2, "eicheln-7"), (3, "rosen-under")]


def gathered_with_a_misread(read_as: str) -> Table:
    """Rosen trump: seat 3 trumps the Eicheln trick with the Rosen Under laid over the led
    Eicheln 8, which is now and then read as the Eicheln 9. Seat 3's hand stays to gather
    the trick: it hides the 8, picks up the Under, and the 8, nudged, shows again read as
    ``read_as``. Then the trick is swept to seat 3, who leads the Schellen Ass."""
    table = Table()
    x, y = 320.0, 240.0
    at = {0: (x, y + 14), 1: (x + 16, y - 6), 2: (x - 20, y - 2), 3: (x - 2, y - 16)}
    table.unsure["eicheln-8"] = (0.85, (("eicheln-9", 0.1),))
    for seat, card in GATHERED[:3]:
        table.lay(card, seat, at=at[seat], angle=10.0 * seat, rest=10)
    table.arms = {"left"}
    table.lay("rosen-under", 3, at=at[3], angle=35.0, rest=2)
    table.hidden = {"eicheln-8"}
    table.step(5)
    del table.cards["rosen-under"]
    table.hidden = set()
    table.reads_as["eicheln-8"] = (read_as, 0.85, ())
    table.move("eicheln-8", (x + 3, y + 5), frames=1)
    table.hidden = {"eicheln-8"}
    table.step()
    table.hidden = set()
    table.step(14)
    table.sweep(3)
    table.arms = set()
    table.step(10)
    table.lay("schellen-ass", 3, rest=10)
    return table


def test_a_counted_card_misread_as_its_runner_up_while_the_winner_gathers_is_no_lead() -> None:
    events = run(gathered_with_a_misread("eicheln-9"), contract="rosen")
    assert plays(events) == [*GATHERED, (3, "schellen-ass")]
    assert len([e for e in events if isinstance(e, TrickCollected)]) == 1


def test_a_card_unlike_the_counted_one_showing_in_its_place_still_leads() -> None:
    # The Schellen 9 shares neither suit nor rank with the Eicheln 8, nor was the 8 ever
    # read as it: what showed there is a new card, the next trick's lead, as before.
    events = run(gathered_with_a_misread("schellen-9"), contract="rosen")
    assert plays(events)[:5] == [*GATHERED, (3, "schellen-9")]


def test_a_card_counted_on_a_split_vote_is_reread_from_its_clear_reads_before_the_next_covers_it() -> None:
    # Seat 1's hand rests on its Ass for a second: what shows reads as the König, unsurely,
    # until the card counts on that split vote. The hand goes, the Ass reads clearly for
    # eight frames, then seat 2's card is laid half over it and what shows of it is no
    # clearer look. Those eight clear frames outweigh the split vote it counted on.
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    table.reads_as["rosen-ass"] = ("rosen-koenig", 0.5, (("rosen-ass", 0.45),))
    table.lay("rosen-ass", 1, rest=8)
    del table.reads_as["rosen-ass"]
    table.step(8)
    x, y = SPOTS[1]
    table.lay("eicheln-9", 2, at=(x - 20.0, y - 30.0), rest=10)
    events = run(table)
    assert corrected(events) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]


# -- a counted card read as another card by turns, swept with its trick -------------------


def read_by_turns_then_swept() -> Table:
    """Eicheln trump: the trick of ``TRICK_IN_TURN`` lies full. Now and then the Rosen 10 is
    outlined a little off and read, unsurely, as the Rosen 7 (two rows of its pips under
    the Ass), and in those frames it is not read as itself. The winner, seat 2, reaches
    in, sweeps the trick and leads the Schellen Ass."""
    table = Table()
    for seat, card in TRICK_IN_TURN:
        table.lay(card, seat, rest=10)
    x, y = table.cards["rosen-10"].pos
    for cycle in range(3):
        # Seat 3's arm still withdrawing as the off outline first shows; then the winner's
        # reaching in to gather the trick.
        table.arms = {0: {"left"}, 1: set(), 2: {"top"}}[cycle]
        for _ in range(3):
            table.hidden = {"rosen-10"}
            table.extra.append(detection("rosen-7", (x + 14.0, y - 14.0), 90.0, 0.45, (("rosen-8", 0.3),)))
            table.step()
        table.hidden = set()
        table.step(2)
    table.sweep(2)
    table.arms = set()
    table.step(10)
    table.lay("schellen-ass", 2, rest=10)
    return table


TRICK_IN_TURN = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]


def test_a_counted_card_read_as_a_card_like_it_by_turns_goes_with_its_trick_and_leads_nothing() -> None:
    events = run(read_by_turns_then_swept())
    assert [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)] == [*TRICK_IN_TURN, (2, "schellen-ass")]
    assert len([e for e in events if isinstance(e, TrickCollected)]) == 1
