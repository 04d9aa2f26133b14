"""Weis values, decomposition and comparison (rule text 003 and the issue)."""

from __future__ import annotations

import random

import pytest

from scoring.events import CardPlayed, Event, GameConfigured, RoundStarted, WeisDeclared
from scoring.game import fold
from scoring.simulate import random_round
from scoring.weis import Declared, Weis, WeisError, evaluate, find_weis, judge, weis_key


def one(cards: list[str]) -> Weis:
    parts = evaluate(cards)
    assert len(parts) == 1
    return parts[0]


@pytest.mark.parametrize(("n", "points"), [(3, 20), (4, 50), (5, 100), (6, 150), (7, 200), (8, 250), (9, 300)])
def test_sequence_values(n: int, points: int) -> None:
    ranks = ["6", "7", "8", "9", "10", "under", "ober", "koenig", "ass"][:n]
    w = one([f"rosen-{r}" for r in ranks])
    assert (w.kind, w.points, len(w.cards)) == ("sequence", points, n)


@pytest.mark.parametrize(
    ("rank", "points"), [("10", 100), ("ober", 100), ("koenig", 100), ("ass", 100), ("9", 150), ("under", 200)]
)
def test_four_of_a_kind_values(rank: str, points: int) -> None:
    w = one([f"{s}-{rank}" for s in ("eicheln", "schilten", "rosen", "schellen")])
    assert (w.kind, w.points) == ("four", points)


def test_four_sixes_are_no_weis() -> None:
    with pytest.raises(WeisError, match="in no Weis"):
        evaluate([f"{s}-6" for s in ("eicheln", "schilten", "rosen", "schellen")])


def test_gap_in_sequence_is_no_weis() -> None:
    with pytest.raises(WeisError):
        evaluate(["rosen-6", "rosen-7", "rosen-9"])


def test_one_card_in_a_sequence_and_a_four_of_a_kind() -> None:
    cards = ["rosen-9", "rosen-10", "rosen-under", "eicheln-under", "schilten-under", "schellen-under"]
    parts = evaluate(cards)
    assert sorted((w.kind, w.points) for w in parts) == [("four", 200), ("sequence", 20)]


def test_find_weis_in_a_hand() -> None:
    hand = [
        "eicheln-6",
        "eicheln-7",
        "eicheln-8",
        "rosen-ass",
        "schilten-ass",
        "schellen-ass",
        "eicheln-ass",
        "rosen-6",
        "rosen-8",
    ]
    assert sorted((w.kind, w.points) for w in find_weis(hand)) == [("four", 100), ("sequence", 20)]


def D(seat: int, cards: list[str], ref: int = 0) -> Declared:
    return Declared(seat, one(cards), ref)


def test_five_sequence_beats_four_sequence() -> None:
    five = D(1, ["rosen-6", "rosen-7", "rosen-8", "rosen-9", "rosen-10"])
    four = D(0, ["eicheln-10", "eicheln-under", "eicheln-ober", "eicheln-koenig"])
    assert judge([four, five], None, 0).team == 1


def test_equal_points_more_cards_wins_five_sequence_beats_four_of_a_kind() -> None:
    five = D(1, ["rosen-6", "rosen-7", "rosen-8", "rosen-9", "rosen-10"])
    aces = D(0, ["eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"])
    assert judge([aces, five], None, 0).best is five


def test_equal_points_and_length_higher_top_card_wins() -> None:
    low = D(0, ["rosen-6", "rosen-7", "rosen-8"])
    high = D(1, ["schellen-8", "schellen-9", "schellen-10"])
    assert judge([low, high], None, 0).best is high


def test_natural_order_also_in_undenufe() -> None:
    # In Undenufe the trick order is reversed, the Weis order is not: up to the Ass beats up to the 8.
    with_ass = D(1, ["rosen-koenig", "rosen-ober", "rosen-ass"])
    with_six = D(0, ["eicheln-6", "eicheln-7", "eicheln-8"])
    assert judge([with_six, with_ass], None, 0).best is with_ass


def test_equal_weis_trump_suit_wins() -> None:
    plain = D(0, ["rosen-6", "rosen-7", "rosen-8"])
    trump = D(1, ["schellen-6", "schellen-7", "schellen-8"])
    assert judge([plain, trump], "schellen", 0).best is trump


def test_equal_weis_no_trump_first_in_play_order_wins() -> None:
    a = D(3, ["rosen-6", "rosen-7", "rosen-8"])
    b = D(1, ["schellen-6", "schellen-7", "schellen-8"])
    # forehand 3 declares first, so seat 3 wins; with forehand 0 seat 1 comes first.
    assert judge([b, a], None, 3).best is a
    assert judge([a, b], None, 0).best is b


def test_only_team_with_best_weis_writes_all_its_weis() -> None:
    best = D(0, ["rosen-6", "rosen-7", "rosen-8", "rosen-9"])
    partner = D(2, ["eicheln-6", "eicheln-7", "eicheln-8"])
    other = D(1, ["schellen-6", "schellen-7", "schellen-8"])
    result = judge([other, best, partner], None, 0)
    assert result.team == 0 and result.points == (70, 0)


def test_one_weis_per_player_counts_only_the_best_of_each() -> None:
    seq = D(0, ["rosen-6", "rosen-7", "rosen-8"])
    aces = D(0, ["eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"])
    assert judge([seq, aces], None, 0).points == (120, 0)
    assert judge([seq, aces], None, 0, one_per_player=True).points == (100, 0)


def test_weis_key_orders_points_then_cards() -> None:
    assert weis_key(one(["rosen-6", "rosen-7", "rosen-8", "rosen-9", "rosen-10"]), None, 0) > weis_key(
        one(["eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"]), None, 0
    )


def test_the_weis_stays_open_through_the_second_trick_and_matches_the_late_flag() -> None:
    """000: «Beim Weis nennt jede Person auf dem ersten Stich nur den Wert ihres besten
    Blatts [...] Das Team mit dem besten Weis zeigt die tatsächlichen Karten erst auf dem
    zweiten Stich.» The table enters the Weis when the cards are shown, so a Weis entered
    while the second trick is laid still counts, and the state says so."""
    _, plays = random_round(random.Random(7), "rosen", 0)
    events: list[Event] = [GameConfigured(), RoundStarted(forehand=0, contract="rosen")]
    assert fold(events).weis_open
    opened = []
    for n, (seat, card) in enumerate(plays[:12], start=1):
        events.append(CardPlayed(seat=seat, card=card))
        state = fold(events)
        # a Weis declared now is flagged late exactly when the state says the Weis is closed
        probe = fold([*events, WeisDeclared(seat=0, cards=("eicheln-6", "eicheln-7", "eicheln-8"))])
        late = any(f.code == "weis_late" and f.ref == len(events) for f in probe.flags)
        assert state.weis_open is not late
        opened.append((n, state.weis_open))
    assert [n for n, is_open in opened if is_open] == list(range(1, 8))  # through trick 2's third card
    assert fold(events).to_dict()["weis_open"] is False


def test_find_weis_lists_the_strongest_weis_first() -> None:
    """003: «Entscheidend ist zuerst die Punktezahl des Weises ... Sind die Punkte gleich,
    zählt als Nächstes die Anzahl der Karten.» The list follows that comparison."""
    hand = [
        "eicheln-6",
        "eicheln-7",
        "eicheln-8",
        "rosen-10",
        "rosen-under",
        "rosen-ober",
        "rosen-koenig",
        "rosen-ass",
        "schilten-ass",
        "schellen-ass",
        "eicheln-ass",
    ]
    found = find_weis(hand)
    assert [(w.kind, w.points, len(w.cards)) for w in found] == [
        ("sequence", 100, 5),
        ("four", 100, 4),
        ("sequence", 20, 3),
    ]
    assert [w.label for w in evaluate(hand)] == [w.label for w in found]
