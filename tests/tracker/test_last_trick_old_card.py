"""In the round's last trick, a card of the trick left lying outlined anew is no card still to come.

Read as cards already played and none still to come, a card counts as the old card it is
read as (for the rules engine to flag), except in the round's last trick: there the cards
nobody has laid yet are all that is left in the hands, and such a read is taken for one
of them (``identity.among_the_last``). A card of the eighth trick, left lying while the
winner led the last one, that a hand hid longer than a hidden card's track is kept
(``TrackerConfig.lost_track_buffer``) starts a track of its own when it shows again
where it lies. Its reads name it and other played cards (a hand near it, the lead beside
it), none more than a replay's share, so one of the cards still in the hands was guessed
for it and counted for the turn's seat; the real card came a seat late (a rendered game
with the players' habits lost its last trick so). Lying where that card lay when its
trick was collected, it is that old card (``TrickTracker._may_be_old_card``).
"""

from __future__ import annotations

from scoring.cards import ALL_CARD_IDS
from scoring.rules import trick_winner
from tests.tracker.table import SPOTS, Table, plays, run
from vision.tracker import TableLayout
from vision.tracker.config import TrackerConfig

CONTRACT = "eicheln"


def deal() -> list[list[tuple[int, str]]]:
    """Nine tricks of the deck in its order, four cards each, each led by the winner of the one before."""
    tricks, leader = [], 0
    for k in range(9):
        cards = list(ALL_CARD_IDS[4 * k : 4 * k + 4])
        tricks.append([((leader + i) % 4, card) for i, card in enumerate(cards)])
        leader = (leader + trick_winner(cards, CONTRACT, trick=k)) % 4
    return tricks


#: The last trick's cards go off the spots of the eighth, which lies on beside them.
LAST_PLACES = {seat: (x + 60.0, y + 40.0) for seat, (x, y) in SPOTS.items()}


def hidden_old_card(tricks: list[list[tuple[int, str]]]) -> str:
    """The card of the eighth trick the last trick's second player's hand lies over (not their own)."""
    return next(card for seat, card in tricks[7] if seat != tricks[8][1][0])


def last_trick_beside_the_lying_one(confidence: float, others: tuple[tuple[str, float], ...]) -> Table:
    """Eight tricks played, the eighth left lying; its winner leads the last beside it.
    A card of the eighth then lies under the next player's hand longer than a track is
    kept, and shows again where it lies, read as itself with ``confidence`` and as
    ``others`` the rest of the time."""
    tricks = deal()
    table = Table()
    for trick in tricks[:7]:
        for seat, card in trick:
            table.lay(card, seat, rest=8)
        winner = trick[trick_winner([c for _, c in trick], CONTRACT)][0]
        table.sweep(winner)
        table.step(6)
    for seat, card in tricks[7]:
        table.lay(card, seat, rest=8)
    table.step(6)
    last = tricks[8]
    edges = TableLayout().edges
    lead_seat, lead_card = last[0]
    table.arms = {edges[lead_seat]}
    table.lay(lead_card, lead_seat, at=LAST_PLACES[lead_seat], slide=3)
    table.arms = set()
    table.step(8)
    old = hidden_old_card(tricks)
    table.arms = {edges[last[1][0]]}
    table.hidden = {old}
    table.step(int(TrackerConfig().lost_track_buffer * table.fps) + 10)
    table.hidden = set()
    table.reads_as[old] = (old, confidence, others)
    table.arms = set()
    table.step(TrackerConfig().maximum_decision_frames + 6)
    for seat, card in last[1:]:
        table.arms = {edges[seat]}
        table.lay(card, seat, at=LAST_PLACES[seat], slide=3)
        table.arms = set()
        table.step(10)
    return table


def test_a_card_of_the_trick_left_lying_shown_again_in_the_last_trick_counts_for_no_seat() -> None:
    tricks = deal()
    # Read as itself half the time (under a replay's share), the rest as two cards of earlier tricks.
    played = [card for trick in tricks[:7] for _, card in trick]
    table = last_trick_beside_the_lying_one(0.5, ((played[0], 0.25), (played[5], 0.2)))
    events = run(table, forehand=0, contract=CONTRACT)
    assert plays(events) == [card for trick in tricks for card in trick]
