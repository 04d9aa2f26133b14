"""The Punkteblatt: per-game points per player, 157 checks, totals, ranking (2.5, 2.9)."""

from __future__ import annotations

import pytest

from scoring.events import CardPlayed, Event, GameConfigured, MisplayRuled, RoundStarted
from scoring.game import fold
from scoring.rules import LAST_TRICK_BONUS, card_points, trick_winner
from scoring.speck import NotSpeckError, dealer_of, next_forehand, punkteblatt, ranking
from tests.speck.conftest import PLAYERS, speck_events


def points_by_hand(events: list[Event]) -> list[list[int]]:
    """Each game's points per seat, counted from the card_played events alone (an
    independent count: four cards a trick, trick winner, card values, +5 last trick)."""
    games: list[list[int]] = []
    contract = ""
    plays: list[tuple[int, str]] = []

    def close() -> None:
        if len(plays) == 36:
            pts = [0, 0, 0, 0]
            for t in range(9):
                trick = plays[t * 4 : t * 4 + 4]
                win = trick[trick_winner([c for _, c in trick], contract)][0]
                pts[win] += sum(card_points(c, contract) for _, c in trick) + (LAST_TRICK_BONUS if t == 8 else 0)
            games.append(pts)

    for ev in events:
        if isinstance(ev, RoundStarted):
            close()
            contract, plays = ev.contract, []
        elif isinstance(ev, CardPlayed):
            plays.append((ev.seat, ev.card))
    close()
    return games


def test_twelve_simulated_games_give_the_punkteblatt_counted_by_hand() -> None:
    events = speck_events(seed=5)
    blatt = punkteblatt(fold(events))
    by_hand = points_by_hand(events)
    assert len(by_hand) == 12
    assert [g["points"] for g in blatt["games"]] == by_hand
    assert all(g["sum"] == 157 and g["ok"] for g in blatt["games"])
    totals = [sum(g[s] for g in by_hand) for s in range(4)]
    best = [max(g[s] for g in by_hand) for s in range(4)]
    assert blatt["totals"] == totals
    assert blatt["best"] == best
    assert blatt["check"] == {"games": 12, "expected": 1884, "actual": 1884, "ok": True, "full": 1884}
    assert blatt["complete"] is True and blatt["running"] is None
    order = sorted(range(4), key=lambda s: (-totals[s], -best[s]))
    assert [r["name"] for r in blatt["ranking"]] == [PLAYERS[s] for s in order]
    assert blatt["ranking"][0]["place"] == 1


def test_dealer_rotates_one_seat_per_game_and_forehand_follows_the_dealer() -> None:
    events = speck_events(seed=2)
    blatt = punkteblatt(fold(events))
    dealers = [g["dealer"] for g in blatt["games"]]
    assert dealers == [(dealers[0] + i) % 4 for i in range(12)]
    assert all(g["forehand"] == (g["dealer"] + 1) % 4 for g in blatt["games"])


def test_eight_games_check_against_1256() -> None:
    blatt = punkteblatt(fold(speck_events(seed=3, speck_games=8)))
    assert blatt["games_played"] == 8 and blatt["complete"]
    assert blatt["check"]["expected"] == 1256 and blatt["check"]["ok"]


def test_equal_totals_are_ranked_by_the_best_single_game_and_full_ties_share_the_place() -> None:
    rows = ranking(["A", "B", "C", "D"], [400, 500, 400, 400], [90, 80, 120, 90])
    assert [(r["place"], r["name"]) for r in rows] == [(1, "B"), (2, "C"), (3, "A"), (3, "D")]


def test_ranking_refuses_mismatched_columns() -> None:
    with pytest.raises(ValueError, match="same length"):
        ranking(["A"], [1, 2], [1])


def test_first_game_is_dealt_by_the_chosen_dealer_else_by_the_schreiber() -> None:
    state = fold([GameConfigured(players=PLAYERS, variant="speck", scorer=1, dealer=3)])
    assert next_forehand(state) == 0 and dealer_of(0) == 3
    state = fold([GameConfigured(players=PLAYERS, variant="speck", scorer=1)])
    assert next_forehand(state) == 2


def test_running_game_shows_provisional_points_and_no_sheet_row() -> None:
    events = speck_events(seed=4)
    first = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and i > 1)
    # the first game plus four tricks (16 cards and their collections) of the second
    part = events[: first + 1]
    cards = 0
    for ev in events[first + 1 :]:
        if cards == 16:
            break
        part.append(ev)
        cards += isinstance(ev, CardPlayed)
    blatt = punkteblatt(fold(part))
    assert blatt["games_played"] == 1
    running = blatt["running"]
    assert running is not None and running["game"] == 2 and running["cards"] == 16 and running["tricks"] == 4
    assert 0 < running["sum"] < 157


def test_a_revoke_is_flagged_when_the_kept_back_suit_appears_from_the_same_hand() -> None:
    # Rosen trump, forehand seat 0. Seat 1 discards schellen-6 on an eicheln lead while it
    # still holds eicheln-ass, which it shows in trick 2: 2.8.4, proved by that card.
    base: list[Event] = [
        GameConfigured(players=PLAYERS, variant="speck"),
        RoundStarted(forehand=0, contract="rosen", bodentrumpf="rosen-6"),
        CardPlayed(seat=0, card="eicheln-6"),
        CardPlayed(seat=1, card="schellen-6"),
        CardPlayed(seat=2, card="eicheln-7"),
        CardPlayed(seat=3, card="eicheln-8"),
    ]
    assert not [f for f in fold(base).flags if f.code == "not_following_suit"]
    state = fold(
        [
            *base,
            CardPlayed(seat=3, card="schilten-6"),
            CardPlayed(seat=0, card="schilten-7"),
            CardPlayed(seat=1, card="eicheln-ass"),
        ]
    )
    flag = next(f for f in state.flags if f.code == "not_following_suit")
    assert (flag.ref, flag.evidence_ref, flag.rule, flag.seat) == (3, 8, "2.8.4", 1)


def test_a_penalty_on_a_wrong_lead_takes_the_trick_from_that_card() -> None:
    # Forehand is seat 0, but seat 1 leads the trump Puur (2.8.3); the table rules penalty.
    base: list[Event] = [
        GameConfigured(players=PLAYERS, variant="speck"),
        RoundStarted(forehand=0, contract="rosen", bodentrumpf="rosen-6"),
        CardPlayed(seat=1, card="rosen-under"),
        CardPlayed(seat=2, card="rosen-7"),
        CardPlayed(seat=3, card="rosen-8"),
        CardPlayed(seat=0, card="rosen-9"),
    ]
    state = fold(base)
    assert [(f.code, f.ref, f.rule) for f in state.flags] == [("out_of_turn", 2, "2.8.3")]
    assert state.rounds[0].tricks[0].winner == 1
    ruled = fold([*base, MisplayRuled(ref=2, ruling="penalty")])
    trick = ruled.rounds[0].tricks[0]
    assert trick.winner == 0 and trick.points == 20 + 14
    assert punkteblatt(ruled)["running"]["points"] == [34, 0, 0, 0]


def test_a_schieber_game_has_no_punkteblatt() -> None:
    with pytest.raises(NotSpeckError, match="Speck"):
        punkteblatt(fold([GameConfigured(players=PLAYERS)]))
