"""Speck Jass (rule text 002): individual players, 157 per game, misplays of section 2.8."""

from __future__ import annotations

import random

import pytest

from scoring.events import CardPlayed, Event, GameConfigured, MisplayRuled, RoundStarted, StoeckCalled, WeisDeclared
from scoring.game import RuleError, check_append, fold, speck_ranking
from scoring.rules import card_points
from scoring.simulate import random_game_events
from tests.scoring.support import configured, fill_hands, play_in_order, round_events

ALL_EICHELN = [f"eicheln-{r}" for r in ("under", "9", "ass", "koenig", "ober", "10", "8", "7", "6")]


def speck_round(fixed: dict[int, list[str]], trump: str, forehand: int = 0, seed: int = 0) -> list[Event]:
    hands = fill_hands(fixed, seed)
    bottom = next((c for c in hands[(forehand + 3) % 4] if c.startswith(trump)), f"{trump}-6")
    return round_events(play_in_order(hands, trump, forehand), trump, forehand, bodentrumpf=bottom)


def test_002_match_game_is_157_not_257() -> None:
    """2.3.1 «Jedes Spiel zählt 157 Punkte, auch ein Matchspiel»."""
    state = fold(configured(variant="speck") + speck_round({0: ALL_EICHELN}, "eicheln"))
    assert state.sheet[0].player_points == (157, 0, 0, 0)
    assert state.sheet[0].match_team is None


def test_002_trump_bauer_20_and_nell_14() -> None:
    """2.3.2 «der Trumpf-Bauer 20 Punkte, das Trumpf-Nell 14 Punkte»."""
    assert card_points("schilten-under", "schilten") == 20 and card_points("schilten-9", "schilten") == 14


def test_002_last_trick_five_and_each_game_157() -> None:
    """2.3.3 «Somit ergibt sich ein Total von 157 Punkte (152 + 5)»."""
    state = fold(random_game_events(random.Random(3), variant="speck"))
    for row in state.sheet:
        assert sum(row.player_points) == 157
    last = state.rounds[0].tricks[-1]
    assert last.last and last.points == sum(card_points(c.card, state.rounds[0].contract) for c in last.cards) + 5


@pytest.mark.parametrize(("games", "total"), [(8, 1256), (12, 1884)])
def test_002_sheet_total_is_games_times_157(games: int, total: int) -> None:
    """2.5.3 «bei 8 Spielen 1256 Punkte, bei 12 Spielen 1884 Punkte»."""
    state = fold(random_game_events(random.Random(games), variant="speck", speck_games=games))
    assert len(state.sheet) == games and sum(state.player_totals) == total
    assert state.game_over is not None and len(state.game_over.ranking) == 4


def test_002_no_more_games_after_the_last() -> None:
    events = random_game_events(random.Random(1), variant="speck", speck_games=8)
    with pytest.raises(RuleError, match="game is over"):
        check_append(events, RoundStarted(forehand=0, contract="rosen", bodentrumpf="rosen-6"))


def test_002_no_weis_and_no_stoeck() -> None:
    """2.3.1 «Es gibt keine Weis- und Stöckpunkte»."""
    events = configured(variant="speck") + speck_round({0: ALL_EICHELN}, "eicheln")
    events.insert(3, WeisDeclared(seat=0, cards=("eicheln-6", "eicheln-7", "eicheln-8")))
    events.append(StoeckCalled(seat=0))
    state = fold(events)
    assert {f.code for f in state.flags} == {"weis_not_in_variant", "stoeck_no_trump"}
    assert state.sheet[0].written[0].weis == 0 and state.sheet[0].written[0].stoeck == 0
    assert state.rounds[0].stoeck.status == "unavailable"


def test_002_bodentrumpf_decides_trump() -> None:
    """2.2.1 «die nun unterste Karte ... bestimmt die Trumpffarbe»."""
    with pytest.raises(RuleError, match="Bodentrumpf"):
        fold([GameConfigured(variant="speck"), RoundStarted(forehand=0, contract="rosen", bodentrumpf="eicheln-7")])
    with pytest.raises(RuleError, match="must be a suit"):
        fold([GameConfigured(variant="speck"), RoundStarted(forehand=0, contract="obenabe")])
    state = fold(
        [GameConfigured(variant="speck"), RoundStarted(forehand=1, contract="eicheln", bodentrumpf="eicheln-7")]
    )
    assert state.round is not None and state.round.trump == "eicheln" and state.round.multiplier == 1


def test_002_ranking_by_total_then_best_single_game() -> None:
    """2.9.2 «Wer mehr Punkte in dem besten Spiel hat, ist besser rangiert bei Punktgleichheit»."""
    games = [(100, 57, 0, 0), (0, 43, 100, 14), (57, 57, 57, 143)]
    # totals: 157, 157, 157, 157; best games 100, 57, 100, 143 -> seat 3, then 0 and 2 (tie: seat order), then 1
    assert speck_ranking(games) == (3, 0, 2, 1)


def test_002_ranking_uses_totals_first() -> None:
    state = fold(random_game_events(random.Random(5), variant="speck"))
    assert state.game_over is not None
    ranking = state.game_over.ranking
    totals = state.player_totals
    assert [totals[s] for s in ranking] == sorted(totals, reverse=True)


def speck_events(*cards: tuple[int, str], trump: str = "rosen") -> list[Event]:
    return [
        GameConfigured(variant="speck"),
        RoundStarted(forehand=0, contract=trump, bodentrumpf=f"{trump}-6"),
        *(CardPlayed(seat=s, card=c) for s, c in cards),
    ]


def test_002_2_8_3_wrong_player_leads_flagged_and_penalty_removes_trick_value() -> None:
    """2.8.3 «Spielt irrtümlich der falsche Spieler aus ... Die irrtümlich gespielte Karte verliert ihren Stichwert»."""
    events = speck_events((1, "eicheln-ass"), (2, "eicheln-6"), (3, "eicheln-7"), (0, "eicheln-8"))
    state = fold(events)
    flag = state.flags[0]
    assert (flag.code, flag.rule, flag.ref, flag.seat) == ("out_of_turn", "2.8.3", 2, 1)
    assert state.rounds[0].tricks[0].winner == 1
    ruled = fold([*events, MisplayRuled(ref=2, ruling="penalty")])
    trick = ruled.rounds[0].tricks[0]
    # the rightful leader leads; the wrongly led card lies in the trick without its trick value
    assert [c.seat for c in trick.cards] == [0, 1, 2, 3]
    assert [c.void for c in trick.cards if c.ref == 2] == [
        True
    ] and trick.winner == 0  # Eicheln 8 is the best card that still counts
    assert trick.points == 11  # the card keeps its counting value
    assert fold([*events, MisplayRuled(ref=2, ruling="ignore")]).rounds[0].tricks[0].winner == 1


def test_002_2_8_4_not_following_suit_flagged_and_misplayed_card_cannot_win() -> None:
    """2.8.4 «Bekennt ein Spieler irrtümlich nicht Farbe ... Der fehlbare Jasser kann den Stich auf
    keinen Fall stechen»."""
    events = speck_events(
        (0, "eicheln-7"),
        (1, "schellen-ass"),
        (2, "eicheln-6"),
        (3, "eicheln-8"),  # seat 1 does not follow ...
        (3, "eicheln-koenig"),
        (0, "eicheln-9"),
        (1, "eicheln-ass"),
        (2, "eicheln-10"),  # ... but kept the Ass
    )
    state = fold(events)
    flag = state.flags[0]
    assert (flag.code, flag.rule, flag.ref, flag.evidence_ref) == ("not_following_suit", "2.8.4", 3, 8)
    assert state.rounds[0].tricks[1].winner == 1
    # «verlieren die irrtümlich gespielte sowie die irrtümlich zurückbehaltene Karte ihren Stechwert»
    ruled = fold([*events, MisplayRuled(ref=3, ruling="penalty"), MisplayRuled(ref=8, ruling="penalty")])
    assert [t.winner for t in ruled.rounds[0].tricks] == [3, 3]
    assert ruled.rounds[0].tricks[1].points == state.rounds[0].tricks[1].points


def test_002_2_8_5_undertrumping_flagged_unless_only_trumps() -> None:
    """2.8.5 «Untertrumpfen ist nicht gestattet ... Ausnahme: man hat nur noch Trumpfkarten»."""
    under = speck_events(
        (0, "eicheln-7"),
        (1, "rosen-ober"),
        (2, "rosen-6"),
        (3, "eicheln-8"),
        (1, "schellen-6"),
        (2, "schellen-7"),
    )
    flags = fold(under).flags
    assert [(f.code, f.rule, f.ref) for f in flags] == [("undertrump", "2.8.5", 4)]
    # Same trick, but seat 2 shows only trumps afterwards: the exception, no flag.
    only_trumps = speck_events(
        (0, "eicheln-7"),
        (1, "rosen-ober"),
        (2, "rosen-6"),
        (3, "eicheln-8"),
        (1, "schellen-6"),
        (2, "rosen-7"),
        (3, "schellen-8"),
        (0, "schellen-9"),
    )
    assert "undertrump" not in [f.code for f in fold(only_trumps).flags]
