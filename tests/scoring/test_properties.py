"""Property tests (hypothesis) over random legal rounds and games of every contract."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.cards import ALL_CARD_IDS
from scoring.events import CONTRACTS, CardCorrected, CardPlayed, EventVoided
from scoring.game import fold
from scoring.rules import card_points, card_suit, legal_cards, next_seat, trick_winner, trump_suit
from scoring.simulate import random_game_events, random_round
from scoring.simulate import round_events as sim_round_events
from tests.scoring.support import configured

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
contracts = st.sampled_from(CONTRACTS)
seats = st.integers(min_value=0, max_value=3)


@FAST
@given(seed=seeds, contract=contracts, forehand=seats)
def test_random_round_is_a_legal_deal_and_play(seed: int, contract: str, forehand: int) -> None:
    hands, plays = random_round(random.Random(seed), contract, forehand)
    assert sorted(c for h in hands for c in h) == sorted(ALL_CARD_IDS)
    assert all(len(h) == 9 for h in hands)
    assert sorted(c for _, c in plays) == sorted(ALL_CARD_IDS)
    for seat in range(4):
        assert sorted(c for s, c in plays if s == seat) == sorted(hands[seat])
    assert plays[0][0] == forehand
    for i in range(0, 36, 4):
        trick = plays[i : i + 4]
        assert [s for s, _ in trick] == [trick[0][0], *(next_seat(trick[k][0]) for k in range(3))]


@FAST
@given(seed=seeds, contract=contracts, forehand=seats)
def test_round_points_sum_to_157_or_257_with_match(seed: int, contract: str, forehand: int) -> None:
    events = configured(target=100_000) + sim_round_events(
        random.Random(seed), contract, forehand, weis=False, stoeck=False
    )
    state = fold(events)
    score = state.rounds[0].score
    raw = score.raw
    assert sum(score.card_points) == 152
    assert sum(score.tricks_won) == 9
    total = raw[0].tricks + raw[1].tricks
    assert total == (257 if score.match_team is not None else 157)
    assert (score.match_team is not None) == (9 in score.tricks_won)
    assert sum(t.points for t in state.rounds[0].tricks) == 157
    assert not state.flags


@FAST
@given(seed=seeds, contract=contracts, forehand=seats)
def test_every_trick_is_won_by_the_winner_and_the_winner_leads_next(seed: int, contract: str, forehand: int) -> None:
    events = configured(target=100_000) + sim_round_events(random.Random(seed), contract, forehand)
    rnd = fold(events).rounds[0]
    assert rnd.tricks[0].leader == forehand
    for prev, cur in zip(rnd.tricks, rnd.tricks[1:], strict=False):
        assert cur.leader == prev.winner
    for t in rnd.tricks:
        cards = [c.card for c in t.cards]
        assert t.cards[trick_winner(cards, contract)].seat == t.winner
        assert t.points == sum(card_points(c, contract) for c in cards) + (5 if t.last else 0)


@FAST
@given(seed=seeds, contract=contracts, forehand=seats)
def test_weis_and_stoeck_invariants(seed: int, contract: str, forehand: int) -> None:
    events = configured(target=100_000) + sim_round_events(random.Random(seed), contract, forehand)
    state = fold(events)
    rnd = state.rounds[0]
    raw = rnd.score.raw
    assert raw[0].weis == 0 or raw[1].weis == 0  # only one team writes Weis
    if rnd.weis_team is not None:
        assert raw[rnd.weis_team].weis == sum(w.points for w in rnd.weis if w.status == "counts")
        assert all(w.team == rnd.weis_team for w in rnd.weis if w.status == "counts")
    trump = trump_suit(contract)
    if trump is None:
        assert raw[0].stoeck == raw[1].stoeck == 0
    else:
        by_seat = {s: {c.card for t in rnd.tricks for c in t.cards if c.seat == s} for s in range(4)}
        pair = {f"{trump}-koenig", f"{trump}-ober"}
        holder = next((s for s in range(4) if pair <= by_seat[s]), None)
        assert raw[0].stoeck + raw[1].stoeck in (0, 20)
        # the simulator calls in time, so Stöck are written exactly when one hand held both
        assert (rnd.stoeck.status == "called") == (holder is not None)
        if holder is not None:
            assert rnd.stoeck.holder == holder and raw[holder % 2].stoeck == 20
    for team in (0, 1):
        assert rnd.score.written[team].total == raw[team].total * rnd.multiplier


@FAST
@given(
    hand_seed=seeds,
    contract=contracts,
    trick_len=st.integers(min_value=0, max_value=3),
    hand_len=st.integers(min_value=1, max_value=9),
)
def test_legal_cards_never_empty_and_a_subset_of_the_hand(
    hand_seed: int, contract: str, trick_len: int, hand_len: int
) -> None:
    deck = list(ALL_CARD_IDS)
    random.Random(hand_seed).shuffle(deck)
    trick, hand = deck[:trick_len], deck[trick_len : trick_len + hand_len]
    legal = legal_cards(hand, trick, contract)
    assert legal and set(legal) <= set(hand)
    if trick:
        lead = card_suit(trick[0])
        if any(card_suit(c) == lead for c in hand) and lead != trump_suit(contract):
            # following suit is always allowed
            assert {c for c in hand if card_suit(c) == lead} <= set(legal)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, table=st.sampled_from(["default", "common", "ascending"]), target=st.sampled_from([1000, 2500]))
def test_whole_games_end_once_and_running_totals_add_up(seed: int, table: str, target: int) -> None:
    events = random_game_events(random.Random(seed), target=target, multipliers=table)
    state = fold(events)
    assert state.game_over is not None and not state.flags
    running = [0, 0]
    for row in state.sheet:
        for team in (0, 1):
            running[team] += row.written[team].total
            assert row.totals[team].total == running[team]
    assert max(running) >= target
    if len(state.sheet) > 1:
        assert max(t.total for t in state.sheet[-2].totals) < target
    assert state.game_over.round == state.sheet[-1].round


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_speck_games_sum_to_157_each(seed: int) -> None:
    state = fold(random_game_events(random.Random(seed), variant="speck", speck_games=8))
    assert all(sum(row.player_points) == 157 for row in state.sheet)
    assert sum(state.player_totals) == 8 * 157
    assert not state.flags


def _without_counts(data: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in ("events_total", "events_applied")}


@FAST
@given(seed=seeds, contract=contracts, cut=st.integers(min_value=3, max_value=60))
def test_voiding_the_last_event_is_the_same_as_never_having_it(seed: int, contract: str, cut: int) -> None:
    events = configured() + sim_round_events(random.Random(seed), contract, seed % 4)
    prefix = events[:cut]
    undone = fold([*prefix, EventVoided(ref=len(prefix) - 1)])
    assert _without_counts(undone.to_dict()) == _without_counts(fold(prefix[:-1]).to_dict())


@FAST
@given(seed=seeds, contract=contracts, pick=st.integers(min_value=0, max_value=35))
def test_correcting_a_card_equals_having_played_the_right_card(seed: int, contract: str, pick: int) -> None:
    events = configured() + sim_round_events(random.Random(seed), contract, 0, weis=False, stoeck=False)
    cards = [i for i, e in enumerate(events) if isinstance(e, CardPlayed)]
    pos = cards[pick]
    target = events[pos]
    assert isinstance(target, CardPlayed)
    wrong = [
        *events[:pos],
        replace(target, card="schellen-6" if target.card != "schellen-6" else "rosen-6"),
        *events[pos + 1 :],
    ]
    corrected = fold([*wrong, CardCorrected(ref=pos, card=target.card)])
    assert _without_counts(corrected.to_dict()) == _without_counts(fold(events).to_dict())
