"""Speck Jass rules that the screens show: ranking with shared places, the deal, the
cards a misplay ruling covers, undo. All in ``scoring``; web/ only shows them."""

from __future__ import annotations

import random

from scoring.events import CardPlayed, Event, EventVoided, GameConfigured, RoundStarted
from scoring.game import MISPLAY_CODES, Flag, fold, speck_standings, voided_positions
from scoring.ranking import rank
from scoring.simulate import random_game_events
from scoring.speck import dealer_of, misplay_cards, next_forehand, next_game


def test_002_2_9_2_equal_totals_and_equal_best_game_share_the_place_competition_style() -> None:
    """2.9.2: «Haben ein oder mehrere Spieler gleich viele Punkte, wird das Resultat des
    besten Spieles beigezogen.» Still equal: the same place, and the next one is skipped."""
    ranked = rank([300, 400, 300, 300], [120, 90, 120, 150])
    assert [(r.index, r.place) for r in ranked] == [(1, 1), (3, 2), (0, 3), (2, 3)]
    assert [r.place for r in rank([10, 10, 5, 5], [4, 4, 3, 3])] == [1, 1, 3, 3]


def test_002_2_9_1_game_over_carries_the_ranking_and_its_places() -> None:
    """2.9.1: «Die Rangliste wird anhand des Punktetotals für alle gespielten Spiele zusammen
    erstellt. Der Spieler mit den meisten Punkten ist der Sieger.»"""
    state = fold(random_game_events(random.Random(5), variant="speck"))
    over = state.game_over
    assert over is not None and len(over.places) == len(over.ranking) == 4
    totals = [state.player_totals[s] for s in over.ranking]
    assert totals == sorted(totals, reverse=True) and over.places[0] == 1
    for i in range(1, 4):
        shared = totals[i] == totals[i - 1] and over.places[i] == over.places[i - 1]
        assert shared or over.places[i] == i + 1


def test_002_2_9_1_prior_totals_from_paper_count_in_the_ranking() -> None:
    """2.9.1: «... anhand des Punktetotals für alle gespielten Spiele zusammen» (those on paper too)."""
    games = [(100, 57, 0, 0)]
    assert [r.index for r in speck_standings(games)][:2] == [0, 1]
    with_paper = speck_standings(games, prior=(0, 200, 0, 0))
    assert (with_paper[0].index, with_paper[0].total) == (1, 257)


def test_002_2_6_1_the_schreiber_deals_first_and_the_deal_moves_one_seat_on() -> None:
    """2.6.1: «Der Schreiber verteilt zum ersten Spiel aus.» Forehand sits after the dealer."""
    state = fold([GameConfigured(variant="speck", scorer=2)])
    assert next_forehand(state) == 3 and dealer_of(3) == 2
    events = random_game_events(random.Random(1), variant="speck", speck_games=2, scorer=2)
    played = fold(events[: next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and i > 1)])
    assert next_forehand(played) == (played.rounds[0].forehand + 1) % 4


def revoke() -> list[Event]:
    """Seat 1 does not follow trump (Rosen) although it holds the König, later the Puur and the 9."""
    plays = [
        (0, "rosen-ass"),
        (1, "schellen-6"),
        (2, "rosen-7"),
        (3, "rosen-8"),
        (0, "eicheln-6"),
        (1, "rosen-koenig"),
        (2, "eicheln-7"),
        (3, "eicheln-8"),
        (1, "rosen-under"),
        (2, "schilten-6"),
        (3, "schilten-7"),
        (0, "schilten-8"),
        (1, "rosen-9"),
        (2, "eicheln-9"),
        (3, "eicheln-10"),
        (0, "schellen-7"),
    ]
    return [
        GameConfigured(variant="speck"),
        RoundStarted(forehand=0, contract="rosen", bodentrumpf="rosen-6"),
        *(CardPlayed(seat=s, card=c) for s, c in plays),
    ]


def test_002_2_8_4_a_trump_revoke_covers_every_trump_of_the_player_but_the_puur() -> None:
    """2.8.4: «Wird irrtümlich bei einem Trumpf-Spiel kein Trumpf angegeben, verlieren alle
    Trümpfe vom fehlbaren Spieler ihre Stechwerte, ausser dem Trumpf-Puur.»"""
    state = fold(revoke())
    flag = next(f for f in state.flags if f.code == "not_following_trump")
    assert flag.code in MISPLAY_CODES and flag.rule == "2.8.4"
    cards = misplay_cards(state, flag)
    assert [(c.role, c.card) for c in cards] == [
        ("played", "schellen-6"),
        ("kept", "rosen-koenig"),
        ("trump", "rosen-9"),
    ]
    assert [c.ref for c in cards] == [3, 7, 14]


def test_002_2_8_4_not_following_suit_covers_the_played_and_the_kept_back_card() -> None:
    """2.8.4: «... verlieren die irrtümlich gespielte sowie die irrtümlich zurückbehaltene Karte ihren Stechwert.»"""
    events: list[Event] = [
        GameConfigured(variant="speck"),
        RoundStarted(forehand=0, contract="rosen", bodentrumpf="rosen-6"),
        *(
            CardPlayed(seat=s, card=c)
            for s, c in [
                (0, "eicheln-ass"),
                (1, "schellen-6"),
                (2, "eicheln-7"),
                (3, "eicheln-8"),
                (0, "schilten-6"),
                (1, "eicheln-6"),
            ]
        ),
    ]
    state = fold(events)
    flag = next(f for f in state.flags if f.code == "not_following_suit")
    assert [(c.role, c.card) for c in misplay_cards(state, flag)] == [("played", "schellen-6"), ("kept", "eicheln-6")]
    assert misplay_cards(state, Flag("speck_sum", "not a misplay", 1, 0)) == ()


def test_voiding_a_void_restores_its_target() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
    ]
    assert voided_positions([*events, EventVoided(ref=2)]) == {2}
    assert voided_positions([*events, EventVoided(ref=2), EventVoided(ref=3)]) == {3}


def test_002_2_2_1_the_next_game_takes_trump_from_the_bodentrumpf_and_forehand_after_the_dealer() -> None:
    """2.2.1: «Bodentrumpf» bedeutet, dass die unterste Karte nach dem Abheben die
    Trumpffarbe bestimmt. 2.6.1: «Der Schreiber verteilt zum ersten Spiel aus.»"""
    state = fold([GameConfigured(variant="speck", scorer=1)])
    start = next_game(state, "schilten-koenig")
    assert (start.contract, start.bodentrumpf, start.forehand) == ("schilten", "schilten-koenig", 2)
    assert fold([GameConfigured(variant="speck", scorer=1), start]).round is not None
