"""A trick collected with a card the camera never saw: kept open, not filled by the next lead."""

from __future__ import annotations

import random

import pytest

from scoring.events import CardCorrected, CardPlayed, Event, StoeckCalled, TrickCollected, WeisDeclared
from scoring.game import GameState, RuleError, fold
from scoring.simulate import round_events
from tests.scoring.support import configured


def a_round(seed: int = 3, contract: str = "rosen", forehand: int = 1) -> list[Event]:
    return configured() + round_events(random.Random(seed), contract, forehand)


def without_cards(events: list[Event], trick: int, nths: tuple[int, ...]) -> tuple[list[Event], list[CardPlayed], int]:
    """The events with the ``nths`` cards (0-3) of ``trick`` never seen: those cards left
    out, the trick's collection naming their seats. Returns (events, the cards left out,
    collection position)."""
    per_trick: list[list[int]] = [[]]
    for i, e in enumerate(events):
        if isinstance(e, CardPlayed):
            per_trick[-1].append(i)
        elif isinstance(e, TrickCollected):
            per_trick.append([])
    drop = {per_trick[trick][n] for n in nths}
    gone = [e for i, e in enumerate(events) if i in drop and isinstance(e, CardPlayed)]
    out: list[Event] = []
    collects, at = 0, -1
    for i, e in enumerate(events):
        if i in drop:
            continue
        if isinstance(e, TrickCollected):
            if collects == trick:
                e = TrickCollected(seat=e.seat, unseen=tuple(c.seat for c in gone))
                at = len(out)
            collects += 1
        out.append(e)
    return out, gone, at


def without_card(events: list[Event], trick: int, nth: int) -> tuple[list[Event], int, int]:
    """The events with the ``nth`` card (0-3) of ``trick`` never seen: that card left out,
    the trick's collection naming its seat. Returns (events, unseen seat, collection position)."""
    out, gone, at = without_cards(events, trick, (nth,))
    return out, gone[0].seat, at


def tricks(state: GameState) -> list[tuple[tuple[tuple[int, str], ...], int, int]]:
    assert state.round is not None
    return [(tuple((c.seat, c.card) for c in t.cards), t.winner, t.points) for t in state.round.tricks]


def codes(state: GameState) -> list[str]:
    return [f.code for f in state.flags]


def test_a_trick_with_an_unseen_card_is_kept_open_and_the_next_trick_is_counted_by_itself() -> None:
    truth = a_round()
    events, seat, at = without_card(truth, trick=3, nth=1)
    middle = events[: at + 1 + 12]  # the gap trick's collection and the next few cards
    state = fold(middle)
    assert state.round is not None
    gap = state.round.tricks[3]
    assert gap.unseen == (seat,) and len(gap.cards) == 3
    assert codes(state) == ["card_unseen"]
    assert state.flags[0].ref == at and state.flags[0].seat == seat
    waiting = fold(events[: at + 1]).round
    assert waiting is not None and waiting.leader is None and waiting.to_play is None  # the winner is not known
    # Tricks after the gap are their own four cards, as in the truth (no cascade).
    assert tricks(state)[4:] == tricks(fold(truth[: len(middle) + 1]))[4:]


def test_the_one_card_nobody_else_played_fills_the_gap_at_its_seats_turn() -> None:
    truth = a_round()
    want = fold(truth)
    for nth in range(4):
        events, _seat, _at = without_card(truth, trick=5, nth=nth)
        got = fold(events)
        assert got.round is not None and got.round.complete
        assert tricks(got) == tricks(want), nth
        assert got.round.score == want.round.score  # type: ignore[union-attr]
        assert codes(got) == ["card_deduced"]


def test_an_unseen_lead_in_the_last_trick_is_deduced_with_the_last_trick_bonus() -> None:
    truth = a_round(seed=8, contract="obenabe", forehand=2)
    events, _seat, _at = without_card(truth, trick=8, nth=0)
    got, want = fold(events), fold(truth)
    assert tricks(got) == tricks(want)
    assert got.totals == want.totals


def test_the_table_enters_the_unseen_card_mid_round() -> None:
    truth = a_round(seed=5)
    events, seat, at = without_card(truth, trick=2, nth=2)
    events = events[: at + 5]
    gone = [e for e in truth if isinstance(e, CardPlayed)][4 * 2 + 2]
    fixed = fold([*events, CardCorrected(ref=at, card=gone.card)])
    assert tricks(fixed)[:3] == tricks(fold(truth))[:3]
    assert "card_unseen" not in codes(fixed)


def test_a_stoeck_call_after_the_unseen_card_still_counts() -> None:
    for seed in range(200):
        truth = configured() + round_events(random.Random(seed), "schellen", 0)
        calls = [i for i, e in enumerate(truth) if isinstance(e, StoeckCalled)]
        if calls and isinstance(truth[calls[0] - 1], CardPlayed):
            break
    else:
        pytest.skip("no seed with a Stöck call")
    cards = [i for i, e in enumerate(truth) if isinstance(e, CardPlayed)]
    k = cards.index(calls[0] - 1)
    events, _seat, _at = without_card(truth, trick=k // 4, nth=k % 4)
    got, want = fold(events), fold(truth)
    assert got.round is not None and want.round is not None
    assert got.round.stoeck.status == want.round.stoeck.status == "called"
    assert got.totals == want.totals


def two_unseen(truth: list[Event], a: tuple[int, int], b: tuple[int, int]) -> list[Event]:
    events, _s, _p = without_card(truth, *b)  # the later one first: trick indices stay put
    return without_card(events, *a)[0]


def swapped_is_legal(truth: list[Event], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Would the round raise no follow-rule flag with the two cards' owners swapped?"""
    cards = [i for i, e in enumerate(truth) if isinstance(e, CardPlayed)]
    i, j = cards[4 * a[0] + a[1]], cards[4 * b[0] + b[1]]
    ci, cj = truth[i], truth[j]
    assert isinstance(ci, CardPlayed) and isinstance(cj, CardPlayed)
    swapped = list(truth)
    swapped[i], swapped[j] = CardPlayed(seat=ci.seat, card=cj.card), CardPlayed(seat=cj.seat, card=ci.card)
    try:
        flags = fold(swapped).flags
    except RuleError:
        return False
    return not any(f.code in ("not_following_suit", "not_following_trump", "undertrump") for f in flags)


def pairs_of_unseen_cards(truth: list[Event]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    plays = [e for e in truth if isinstance(e, CardPlayed)]
    out = []
    for ta in range(9):
        for tb in range(ta + 1, 9):
            for na in range(4):
                for nb in range(4):
                    if plays[4 * ta + na].seat != plays[4 * tb + nb].seat:
                        out.append(((ta, na), (tb, nb)))
    return out


def test_two_unseen_cards_are_filled_in_when_only_one_way_follows_suit() -> None:
    truth = a_round()
    want = fold(truth)
    pairs = [p for p in pairs_of_unseen_cards(truth) if not swapped_is_legal(truth, *p)]
    assert len(pairs) > 10
    for a, b in pairs[:: len(pairs) // 8]:
        got = fold(two_unseen(truth, a, b))
        assert tricks(got) == tricks(want), (a, b)
        assert got.totals == want.totals
        assert codes(got) == ["card_deduced", "card_deduced"]


def test_two_unseen_cards_that_either_way_follow_suit_wait_for_the_table() -> None:
    truth = a_round()
    pairs = [p for p in pairs_of_unseen_cards(truth) if swapped_is_legal(truth, *p)]
    assert pairs
    state = fold(two_unseen(truth, *pairs[0]))
    assert state.round is not None and not state.round.complete
    assert codes(state) == ["card_unseen", "card_unseen"]
    # The table enters one of them; the other is then the one card left.
    first = next(i for i, e in enumerate(two_unseen(truth, *pairs[0])) if isinstance(e, TrickCollected) and e.unseen)
    gone = [e for e in truth if isinstance(e, CardPlayed)][4 * pairs[0][0][0] + pairs[0][0][1]]
    done = fold([*two_unseen(truth, *pairs[0]), CardCorrected(ref=first, card=gone.card)])
    assert tricks(done) == tricks(fold(truth))


def test_a_collection_of_three_cards_without_an_unseen_seat_is_still_refused() -> None:
    truth = a_round()
    events, _seat, at = without_card(truth, trick=0, nth=3)
    with pytest.raises(RuleError, match="only 3 cards"):
        fold([*events[:at], TrickCollected()])


def test_the_unseen_seat_must_be_missing_from_the_trick() -> None:
    truth = a_round()
    events, seat, at = without_card(truth, trick=0, nth=3)
    present = next(e.seat for e in events[at - 1 :: -1] if isinstance(e, CardPlayed))
    with pytest.raises(RuleError, match=f"seat {present}'s card of this trick was seen"):
        fold([*events[:at], TrickCollected(unseen=(present,))])


def test_entering_the_unseen_card_for_another_seat_is_refused() -> None:
    truth = a_round()
    events, seat, at = without_card(truth, trick=0, nth=3)
    with pytest.raises(RuleError, match=f"seat {seat}'s"):
        fold([*events[: at + 1], CardCorrected(ref=at, card="eicheln-6", seat=(seat + 1) % 4)])


def test_correcting_a_trick_collected_with_nothing_unseen_is_refused() -> None:
    truth = a_round()
    at = next(i for i, e in enumerate(truth) if isinstance(e, TrickCollected))
    with pytest.raises(RuleError, match="not a card_played or a trick_collected with an unseen card"):
        fold([*truth[: at + 1], CardCorrected(ref=at, card="eicheln-6")])


def test_weis_declared_before_an_unseen_lead_is_not_late() -> None:
    truth = configured() + round_events(random.Random(11), "eicheln", 0)
    first = next(i for i, e in enumerate(truth) if isinstance(e, WeisDeclared))
    declarer = truth[first]
    assert isinstance(declarer, WeisDeclared)
    cards = [i for i, e in enumerate(truth) if isinstance(e, CardPlayed)]
    k = next(n for n, i in enumerate(cards) if truth[i].seat == declarer.seat)  # type: ignore[union-attr]
    events, _seat, _at = without_card(truth, trick=k // 4, nth=k % 4)
    got, want = fold(events), fold(truth)
    assert got.totals == want.totals
    assert codes(got) == ["card_deduced"]


def test_any_single_unseen_card_of_a_round_is_deduced_exactly() -> None:
    rng = random.Random(20261129)
    for seed in range(12):
        contract = rng.choice(["eicheln", "schilten", "rosen", "schellen", "obenabe", "undenufe"])
        truth = configured() + round_events(random.Random(seed), contract, seed % 4)
        want = fold(truth)
        trick, nth = rng.randrange(9), rng.randrange(4)
        got = fold(without_card(truth, trick, nth)[0])
        assert tricks(got) == tricks(want), (seed, trick, nth)
        assert got.totals == want.totals
        assert codes(got) == [*codes(want), "card_deduced"]
