"""Two cards of one trick never seen: the trick costs itself, not the round.

Two neighbours sometimes lay their cards at once, each almost on the card before, and
the lower card never shows (rendered round 5,000,427, oracle detections: 2 of 9 tricks).
The trick was swept with two cards counted, and with room for one unseen card a trick it
was never collected: the next trick's first two cards filled it, and every later trick
came two cards late. Now it is collected with both seats unseen once the table is seen
clear, and the next trick's cards are a trick of their own.
"""

from __future__ import annotations

import random

import pytest

from scoring.events import CardPlayed, Event, GameConfigured, RoundStarted, TrickCollected
from scoring.game import fold
from scoring.simulate import random_round
from tests.tracker.table import Table
from tests.tracker.test_tracker import _play_round, plays, run
from vision.tracker.reread import resolve_rereads


@pytest.mark.parametrize("trick,nths", [(2, (1, 2)), (4, (2, 3)), (6, (0, 1))])
def test_two_cards_never_seen_cost_their_trick_not_the_round(trick: int, nths: tuple[int, int]) -> None:
    rng = random.Random(23)
    _, plays_ = random_round(rng, "schellen", 2)
    hidden = [plays_[4 * trick + n] for n in nths]
    table = Table()
    table.hidden = {card for _, card in hidden}
    _play_round(table, plays_, "schellen", rng)
    events = run(table, "schellen", 2)
    seen = [p for p in plays_ if p not in hidden]
    # Every card after the short trick counts in its own trick, for its own seat.
    assert plays(events)[4 * trick + 2 :] == seen[4 * trick + 2 :]
    collected = [e for e in events if isinstance(e, TrickCollected)]
    assert len(collected) == 9
    assert [len(e.unseen) for e in collected] == [2 if k == trick else 0 for k in range(9)]
    # The rules engine keeps the trick open for both cards; every other trick is the truth's.
    start: list[Event] = [GameConfigured(), RoundStarted(forehand=2, contract="schellen")]
    got = fold([*start, *resolve_rereads(events, start)])
    want = fold([*start, *(CardPlayed(seat=s, card=c) for s, c in plays_)])
    assert got.round is not None and want.round is not None
    assert len(got.round.tricks) == 9
    same = [
        [(c.seat, c.card) for c in a.cards] == [(c.seat, c.card) for c in b.cards]
        for a, b in zip(got.round.tricks, want.round.tricks, strict=True)
    ]
    assert same[:trick] == [True] * trick and same[trick + 1 :] == [True] * (8 - trick)
