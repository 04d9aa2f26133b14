"""Differenzler: a secret forecast per player, the penalty |forecast − points|, the
lowest total penalty wins after the set number of rounds."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.differenzler import NotDifferenzlerError, hidden_positions, open_forecasts, sheet
from scoring.events import (
    CONTRACTS,
    CardPlayed,
    Event,
    EventVoided,
    ForecastMade,
    GameConfigured,
    RoundEntered,
    RoundStarted,
)
from scoring.game import RuleError, fold
from scoring.simulate import random_game_events
from scoring.simulate import round_events as sim_round
from scoring.variants.differenzler import penalties
from tests.scoring.support import fill_hands, play_in_order, round_events


def differenzler(**config: object) -> list[Event]:
    return [GameConfigured(variant="differenzler", **config)]  # type: ignore[arg-type]


def forecasts(*points: int) -> list[ForecastMade]:
    return [ForecastMade(seat=s, points=p) for s, p in enumerate(points)]


def test_worked_example_penalty_is_the_distance_from_the_forecast() -> None:
    hands = fill_hands({}, seed=7)
    plays = play_in_order(hands, "rosen", 0)
    events = differenzler() + [RoundStarted(forehand=0, contract="rosen"), *forecasts(40, 0, 100, 17)]
    events += round_events(plays, "rosen", 0)[1:]
    state = fold(events)
    r = state.round
    assert r is not None and r.complete
    pts = r.score.player_points
    assert sum(pts) == 157
    assert r.forecasts == (40, 0, 100, 17)
    assert r.penalties == (abs(40 - pts[0]), pts[1], abs(100 - pts[2]), abs(17 - pts[3]))
    line = sheet(state).rounds[0]
    assert line.penalties == r.penalties and line.points == pts


def test_penalties_of_a_worked_example() -> None:
    assert penalties((50, 30, None, 0), (45, 60, 20, 32)) == (5, 30, 20, 32)


def test_forecasts_stay_secret_until_the_round_is_over() -> None:
    events = differenzler() + [RoundStarted(forehand=0, contract="eicheln"), *forecasts(10, 20, 30, 40)]
    state = fold(events)
    assert state.round is not None
    assert state.round.forecasts == (None, None, None, None)
    assert state.round.forecast_given == (True, True, True, True)
    text = str(state.to_dict())
    assert "'points': 10" not in text and "'forecasts': [None, None, None, None]" in text
    assert hidden_positions(events) == {2, 3, 4, 5}
    assert open_forecasts(events) == {0: 10, 1: 20, 2: 30, 3: 40}


def test_a_forecast_before_the_round_starts_is_for_the_next_round() -> None:
    events = differenzler() + [ForecastMade(seat=2, points=55)]
    state = fold(events)
    assert state.pending_forecasts == (False, False, True, False)
    assert sheet(state).forecast_given == (False, False, True, False)
    events += [RoundStarted(forehand=0, contract="schellen")]
    assert fold(events).round.forecast_given == (False, False, True, False)  # type: ignore[union-attr]


def test_forecasts_close_with_the_first_card_and_a_missing_one_counts_zero() -> None:
    events = differenzler() + [RoundStarted(forehand=0, contract="eicheln"), *forecasts(10, 20, 30)]
    events.append(CardPlayed(seat=0, card="eicheln-6"))
    state = fold(events)
    missing = [f for f in state.flags if f.code == "forecast_missing"]
    assert [f.seat for f in missing] == [3]
    with pytest.raises(RuleError, match="closed with its first card"):
        fold(events + [ForecastMade(seat=3, points=5)])


def test_a_later_forecast_before_the_first_card_replaces_the_earlier() -> None:
    events = differenzler() + [RoundStarted(forehand=0, contract="eicheln"), *forecasts(10, 20, 30, 40)]
    events += [ForecastMade(seat=1, points=25)]
    assert open_forecasts(events) == {0: 10, 1: 25, 2: 30, 3: 40}


def test_an_undone_forecast_stays_hidden_while_its_round_runs() -> None:
    events = differenzler() + [RoundStarted(forehand=0, contract="eicheln"), ForecastMade(seat=0, points=99)]
    events.append(EventVoided(ref=2))
    assert 2 in hidden_positions(events) and open_forecasts(events) == {}


def test_a_forecast_outside_differenzler_or_too_high_is_refused() -> None:
    with pytest.raises(RuleError, match="belongs to Differenzler"):
        fold([GameConfigured(), ForecastMade(seat=0, points=3)])
    with pytest.raises(RuleError, match="at most 157"):
        fold(differenzler() + [ForecastMade(seat=0, points=158)])
    fold(differenzler(count_weis=True) + [ForecastMade(seat=0, points=158)])


def test_weis_and_stoeck_follow_the_table_setting() -> None:
    hands = fill_hands({0: ["rosen-6", "rosen-7", "rosen-8", "eicheln-koenig", "eicheln-ober"]}, seed=3)
    plays = play_in_order(hands, "eicheln", 0)
    body = round_events(plays, "eicheln", 0, weis=[(0, ["rosen-6", "rosen-7", "rosen-8"])], stoeck=True)[1:]
    start: list[Event] = [RoundStarted(forehand=0, contract="eicheln"), *forecasts(0, 0, 0, 0)]
    off = fold(differenzler() + start + body)
    assert {f.code for f in off.flags} >= {"weis_not_in_variant"}
    assert sum(off.round.score.player_points) == 157  # type: ignore[union-attr]
    on = fold(differenzler(count_weis=True) + start + body)
    r = on.round
    assert r is not None
    assert r.score.player_points[0] == off.round.score.player_points[0] + 20 + 20  # type: ignore[union-attr]
    assert r.penalties == r.score.player_points  # every forecast was 0


def test_the_lowest_total_penalty_wins_after_the_set_rounds() -> None:
    events = random_game_events(
        random.Random(5), variant="differenzler", differenzler_rounds=4, weis=False, stoeck=False
    )
    state = fold(events)
    table = sheet(state)
    assert state.game_over is not None and len(table.rounds) == 4
    totals = table.penalty_totals
    assert list(state.game_over.ranking) == sorted(range(4), key=lambda s: (totals[s], s))
    assert state.game_over.places[0] == 1
    with pytest.raises(RuleError, match="game is over"):
        fold(events + [RoundStarted(forehand=0, contract="rosen")])


def test_equal_penalties_share_the_place() -> None:
    entry = RoundEntered(contract="rosen", forehand=0, player_points=(40, 40, 40, 37))
    state = fold(differenzler(differenzler_rounds=1) + [*forecasts(40, 40, 40, 37), entry])
    assert state.game_over is not None and state.game_over.places == (1, 1, 1, 1)


def test_a_differenzler_round_entered_by_hand_counts_like_a_played_one() -> None:
    entry = RoundEntered(contract="obenabe", forehand=1, player_points=(60, 50, 30, 17))
    state = fold(differenzler() + [*forecasts(50, 50, 50, 50), entry])
    assert state.sheet[0].by_hand and state.sheet[0].penalties == (10, 0, 20, 33)
    with pytest.raises(RuleError, match="player_points"):
        fold(differenzler() + [RoundEntered(contract="obenabe", forehand=1, team=0, points=60)])


def test_the_sheet_is_for_differenzler_games_only() -> None:
    with pytest.raises(NotDifferenzlerError):
        sheet(fold([GameConfigured()]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    contract=st.sampled_from(CONTRACTS),
    guess=st.tuples(*(st.integers(0, 157) for _ in range(4))),
)
def test_penalties_are_never_negative_and_the_points_sum_to_157(
    seed: int, contract: str, guess: tuple[int, int, int, int]
) -> None:
    events = differenzler() + sim_round(
        random.Random(seed), contract, seed % 4, weis=False, stoeck=False, forecasts=guess
    )
    r = fold(events).round
    assert r is not None and r.complete and r.penalties is not None
    assert sum(r.score.player_points) == 157
    assert all(p >= 0 for p in r.penalties)
    assert r.penalties == tuple(abs(g - p) for g, p in zip(guess, r.score.player_points, strict=True))
