"""A trick swept with one card never read: who leads the next one.

The rules say the winner of a trick leads the next. When the camera never read one card
of a trick, the tracker cannot always know who won, and then only where the next cards lie
says whose they are. But often the unseen card cannot matter: the trump Under (the Puur)
beats every card, and so does the highest card left of the led suit when no trump is left.
Then the next trick's seats follow the turn as after any other trick. (A rendered
near-centre game lost two tricks because the lead after such a trick, laid near the centre,
was given to the neighbour.)"""

from __future__ import annotations

from scoring.events import RoundStarted, TrickCollected
from tests.tracker.table import CENTRE, SPOTS, Table, plays, run
from vision.tracker.ledger import RoundLedger

#: Eicheln is trump: seat 0 leads the Puur, so seat 0 takes the trick whatever seat 2 laid.
TRICK = [(0, "eicheln-under"), (1, "rosen-ass"), (2, "rosen-6"), (3, "rosen-10")]


def test_the_lead_after_a_trick_whose_unseen_card_cannot_win_is_the_winners_wherever_it_lies() -> None:
    table = Table()
    table.hidden = {"rosen-6"}  # seat 2's card is never read
    for seat, card in TRICK:
        table.lay(card, seat, rest=8)
    table.lift()
    table.step(12)
    # Seat 0 leads the next trick near the centre, a little toward seat 1, the hand seen
    # only where it let go of the card: nothing but the turn says whose card it is.
    toward_1 = (CENTRE[0] + 0.55 * (SPOTS[1][0] - CENTRE[0]), CENTRE[1] + 12.0)
    table.lay("schilten-7", 0, slide=1, at=toward_1, start=toward_1, rest=8)
    table.lay("schilten-8", 1, rest=8)
    events = run(table, forehand=0, contract="eicheln")
    assert plays(events) == [
        (0, "eicheln-under"),
        (1, "rosen-ass"),
        (3, "rosen-10"),
        (0, "schilten-7"),
        (1, "schilten-8"),
    ]
    assert [e.unseen for e in events if isinstance(e, TrickCollected)] == [(2,)]


def ledger(contract: str, done: list[list[tuple[int, str]]]) -> RoundLedger:
    book = RoundLedger()
    book.start(RoundStarted(forehand=0, contract=contract), {})
    book.done = done
    book.played = {card for trick in done for _, card in trick}
    book.tricks_done = len(done)
    book.recompute_constraints()
    return book


def test_a_trick_whose_unseen_card_could_win_leaves_the_next_lead_unknown() -> None:
    # Rosen led, no trump Under seen: the unseen card of seat 2 might be a trump.
    book = ledger("eicheln", [[(0, "rosen-10"), (1, "rosen-ass"), (3, "rosen-6")]])
    assert not book.leader_known
    assert book.expected_seat() is None


def test_the_highest_card_of_the_led_suit_wins_a_trick_with_its_unseen_card_when_no_trump_can_come() -> None:
    # Obenabe has no trumps: the ace of the led suit takes the trick whatever seat 3 laid.
    book = ledger("obenabe", [[(0, "schellen-ass"), (1, "schellen-6"), (2, "rosen-9")]])
    assert book.leader_known
    assert book.expected_seat() == 0
    # Undenufe: the lowest card of the led suit wins. The 6 is the lowest there is; the 7
    # loses to the 6 if seat 3 held it.
    book = ledger("undenufe", [[(0, "schellen-ass"), (1, "schellen-6"), (2, "rosen-9")]])
    assert book.expected_seat() == 1
    book = ledger("undenufe", [[(0, "schellen-ass"), (1, "schellen-7"), (2, "rosen-9")]])
    assert book.expected_seat() is None


def test_an_unseen_lead_takes_no_void_from_the_cards_that_followed_it() -> None:
    # Seat 0's lead was never read; seat 1's rosen is no lead that seat 2's schellen failed to follow.
    book = ledger("eicheln", [[(1, "rosen-ass"), (2, "schellen-6"), (3, "rosen-10")]])
    assert book.not_held[2] == set()
