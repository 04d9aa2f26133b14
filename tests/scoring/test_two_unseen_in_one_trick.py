"""A trick swept with two cards the camera never saw: kept open for both, not filled by the
next trick's cards.

Two neighbours sometimes lay their cards at once, each almost on the card before, and the
lower card never shows. With room for one unseen card a trick, a trick that lost two was
never collected: the next trick's first two cards filled it and every later trick came
two cards late (rendered round 5,000,427: 2 of 9 tricks right).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from scoring.events import CardCorrected, EventError, TrickCollected, dumps, loads, parse_event
from scoring.game import RuleError, fold
from tests.scoring.test_unseen_card import a_round, codes, swapped_is_legal, tricks, without_cards


def test_a_trick_with_two_unseen_cards_is_kept_open_and_the_next_trick_is_counted_by_itself() -> None:
    truth = a_round()
    events, gone, at = without_cards(truth, trick=3, nths=(1, 2))
    middle = events[: at + 1 + 12]
    state = fold(middle)
    assert state.round is not None
    gap = state.round.tricks[3]
    assert gap.unseen == tuple(c.seat for c in gone) and len(gap.cards) == 2
    assert codes(state) == ["card_unseen", "card_unseen"]
    assert {(f.ref, f.seat) for f in state.flags} == {(at, c.seat) for c in gone}
    waiting = fold(events[: at + 1]).round
    assert waiting is not None and waiting.leader is None  # the winner is not known
    # The tricks after it are their own four cards, as in the truth (no cascade).
    assert tricks(state)[4:] == tricks(fold(truth[: len(middle) + 2]))[4:]


@pytest.mark.parametrize("nths", list(itertools.combinations(range(4), 2)))
def test_the_table_enters_both_unseen_cards_in_either_order(nths: tuple[int, int]) -> None:
    truth = a_round(seed=5)
    want = tricks(fold(truth))[:3]
    events, gone, at = without_cards(truth, trick=2, nths=nths)
    events = events[: at + 5]
    for order in (gone, gone[::-1]):
        first = fold([*events, CardCorrected(ref=at, card=order[0].card, seat=order[0].seat)])
        assert [f.seat for f in first.flags if f.code == "card_unseen"] == [order[1].seat]
        assert first.round is not None and len(first.round.tricks[2].cards) == 3
        done = fold(
            [
                *events,
                CardCorrected(ref=at, card=order[0].card, seat=order[0].seat),
                CardCorrected(ref=at, card=order[1].card, seat=order[1].seat),
            ]
        )
        assert tricks(done)[:3] == want, (nths, order)
        assert "card_unseen" not in codes(done)


def test_two_unseen_cards_of_one_trick_are_deduced_at_the_round_end_when_one_way_follows_suit() -> None:
    checked = 0
    for seed in range(6):
        truth = a_round(seed=seed, contract="schilten", forehand=seed % 4)
        want = fold(truth)
        for trick, (na, nb) in itertools.product(range(9), itertools.combinations(range(4), 2)):
            if swapped_is_legal(truth, (trick, na), (trick, nb)):
                continue
            got = fold(without_cards(truth, trick, (na, nb))[0])
            assert tricks(got) == tricks(want), (seed, trick, na, nb)
            assert got.totals == want.totals
            assert codes(got) == [*codes(want), "card_deduced", "card_deduced"]
            checked += 1
    assert checked > 20


def test_two_unseen_cards_that_either_way_follow_suit_wait_for_the_table() -> None:
    rng = random.Random(7)
    for seed in range(50):
        truth = a_round(seed=seed)
        trick, (na, nb) = rng.randrange(9), rng.choice(list(itertools.combinations(range(4), 2)))
        if swapped_is_legal(truth, (trick, na), (trick, nb)):
            break
    else:
        pytest.fail("no round where either way follows suit")
    events, gone, at = without_cards(truth, trick, (na, nb))
    state = fold(events)
    assert state.round is not None and not state.round.complete
    assert codes(state) == [*codes(fold(truth)), "card_unseen", "card_unseen"]
    # The table enters one; the other is then the one card left.
    done = fold([*events, CardCorrected(ref=at, card=gone[0].card, seat=gone[0].seat)])
    assert tricks(done) == tricks(fold(truth))


def test_a_card_entered_for_a_trick_that_lost_two_must_say_whose_it_is() -> None:
    truth = a_round()
    events, gone, at = without_cards(truth, trick=0, nths=(0, 3))
    with pytest.raises(RuleError, match="say whose card"):
        fold([*events[: at + 1], CardCorrected(ref=at, card=gone[0].card)])
    seen = next(s for s in range(4) if s not in {c.seat for c in gone})
    with pytest.raises(RuleError, match=f"not seat {seen}'s"):
        fold([*events[: at + 1], CardCorrected(ref=at, card=gone[0].card, seat=seen)])


def test_two_unseen_seats_must_be_the_two_missing_from_the_trick() -> None:
    truth = a_round()
    events, gone, at = without_cards(truth, trick=0, nths=(1, 2))
    seen = [s for s in range(4) if s not in {c.seat for c in gone}]
    with pytest.raises(RuleError, match="only 2 cards"):
        fold([*events[:at], TrickCollected(unseen=(gone[0].seat,))])
    with pytest.raises(RuleError, match=f"seat {seen[0]}'s card of this trick was seen"):
        fold([*events[:at], TrickCollected(unseen=(gone[0].seat, seen[0]))])
    # Three cards seen and one missing: a seen card's seat named unseen too is refused,
    # though the count of cards would add up.
    three, one, at3 = without_cards(truth, trick=0, nths=(2,))
    shown = next(s for s in range(4) if s != one[0].seat)
    with pytest.raises(RuleError, match=f"seat {shown}'s card of this trick was seen"):
        fold([*three[:at3], TrickCollected(unseen=(one[0].seat, shown))])


def test_one_unseen_seat_is_stored_as_a_number_and_two_as_a_list() -> None:
    # Builds that know one unseen card read the number; a list they refuse, not misread.
    assert json.loads(dumps(TrickCollected(unseen=(2,))))["unseen"] == 2
    assert json.loads(dumps(TrickCollected(unseen=(1, 3))))["unseen"] == [1, 3]
    assert loads(dumps(TrickCollected(seat=0, unseen=(1, 3)))) == TrickCollected(seat=0, unseen=(1, 3))
    assert parse_event({"type": "trick_collected", "unseen": 2}) == TrickCollected(unseen=(2,))
    assert "unseen" not in dumps(TrickCollected(seat=1))


@pytest.mark.parametrize("unseen", [[1, 1], [0, 1, 2, 3], [], [4], ["1"], [True]])
def test_a_bad_unseen_list_is_refused(unseen: list[object]) -> None:
    with pytest.raises(EventError, match="unseen"):
        parse_event({"type": "trick_collected", "unseen": unseen})
