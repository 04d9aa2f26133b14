"""A round entered by hand (``round_entered``): one team's points, the other gets the
rest of 157 (or nothing against a Match of 257), Weis and Stöck by value; then it is a
round like any the camera saw.

001: «Eine Runde bringt 152 Kartenpunkte und 5 Punkte für den letzten Stich. Ohne Weis,
Stöck, Match und Multiplikator sind das 157 Punkte. Gewinnt eine Mannschaft alle 9
Stiche, kommen 100 Matchpunkte dazu, sodass die Grundsumme dieser Runde 257 Punkte beträgt.»
"""

from __future__ import annotations

import random

import pytest

from scoring.events import (
    CardPlayed,
    Event,
    EventError,
    EventVoided,
    GameConfigured,
    RoundEntered,
    RoundStarted,
    dumps,
    loads,
    parse_event,
)
from scoring.game import RuleError, fold
from scoring.sheet import format_sheet, sheet_dict
from scoring.simulate import round_events as sim_round


def schieber(**config: object) -> list[Event]:
    return [GameConfigured(**config)]  # type: ignore[arg-type]


def test_the_other_team_gets_157_minus_the_points() -> None:
    state = fold(schieber() + [RoundEntered(contract="rosen", forehand=0, team=0, points=100)])
    row = state.sheet[0]
    assert (row.written[0].tricks, row.written[1].tricks) == (100, 57)
    assert row.by_hand and row.match_team is None


def test_a_match_writes_257_and_the_other_team_nothing_times_the_factor() -> None:
    state = fold(schieber() + [RoundEntered(contract="schellen", forehand=0, team=1, points=157, match=True)])
    row = state.sheet[0]
    assert row.multiplier == 2
    assert (row.written[0].total, row.written[1].total) == (0, 514) and row.match_team == 1


def test_157_without_the_match_flag_is_written_157() -> None:
    # The other team took a trick worth nothing (no Match, 001: «Sobald die andere Mannschaft
    # einen Stich macht, ist der Matchbonus nicht mehr möglich»).
    state = fold(schieber() + [RoundEntered(contract="eicheln", forehand=0, team=0, points=157)])
    assert state.sheet[0].written[0].tricks == 157 and state.sheet[0].match_team is None


def test_weis_and_stoeck_by_value_times_the_factor() -> None:
    entry = RoundEntered(contract="schilten", forehand=0, team=0, points=80, weis=(50, 0), stoeck=1)
    row = fold(schieber() + [entry]).sheet[0]
    assert row.written[0].to_dict() == {"weis": 100, "stoeck": 0, "tricks": 160, "total": 260}
    assert row.written[1].to_dict() == {"weis": 0, "stoeck": 40, "tricks": 154, "total": 194}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"team": 0, "points": 150, "match": True}, "a Match is all nine tricks"),
        ({"team": 0, "points": 158}, "at most 157"),
        ({"team": 2, "points": 10}, "team must be 0 or 1"),
        ({"team": 0, "points": 10, "weis": [30, 0]}, "cannot be made of Weis"),
        ({"team": 0, "points": 10, "player_points": [40, 40, 40, 37]}, "not both"),
        ({}, "not both"),
    ],
)
def test_a_malformed_entry_is_refused_with_its_reason(data: dict[str, object], message: str) -> None:
    with pytest.raises(EventError, match=message):
        parse_event({"type": "round_entered", "contract": "rosen", **data})


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            RoundEntered(contract="rosen", forehand=0, team=0, points=90, weis=(20, 50)),
            "only the team with the best Weis",
        ),
        (RoundEntered(contract="obenabe", forehand=0, team=0, points=90, stoeck=0), "has no trump"),
        (RoundEntered(contract="rosen", forehand=0, player_points=(40, 40, 40, 37)), "one team's points"),
        (RoundEntered(contract="rosen", team=0, points=90), "forehand of the game's first round"),
    ],
)
def test_an_entry_the_rules_do_not_allow_is_refused(entry: RoundEntered, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        fold(schieber() + [entry])


def test_undo_takes_an_entered_round_back() -> None:
    events = schieber() + [RoundEntered(contract="rosen", forehand=0, team=0, points=100)]
    assert len(fold(events).sheet) == 1
    state = fold(events + [EventVoided(ref=1)])
    assert state.sheet == () and state.totals[0].total == 0


def test_an_entered_round_can_end_the_game_by_the_end_order() -> None:
    events = schieber(target=300) + [
        RoundEntered(contract="rosen", forehand=0, team=0, points=150),
        RoundEntered(contract="rosen", team=0, points=157, weis=(0, 300)),
    ]
    state = fold(events)
    # Team 1 would reach 307 with its tricks, but team 2's Weis bring it to 307 first:
    # the end order is Weis, Stöck, Stiche (001).
    assert state.game_over is not None and state.game_over.winner == 1 and state.game_over.deciding_block == "weis"


def test_it_replaces_a_started_round_that_saw_no_card_and_abandons_a_played_one() -> None:
    entry = RoundEntered(contract="rosen", team=0, points=100)
    quiet = fold(schieber() + [RoundStarted(forehand=2, contract="eicheln"), entry])
    assert len(quiet.rounds) == 1 and quiet.rounds[0].forehand == 2 and quiet.rounds[0].by_hand
    assert not [f for f in quiet.flags if f.code == "round_abandoned"]
    partly = schieber() + [RoundStarted(forehand=2, contract="eicheln"), CardPlayed(seat=2, card="rosen-6"), entry]
    state = fold(partly)
    assert [f.code for f in state.flags] == ["round_abandoned"] and state.rounds[1].forehand == 2


def test_the_forehand_moves_on_after_an_entered_round() -> None:
    state = fold(schieber() + [RoundEntered(contract="rosen", forehand=3, team=0, points=100)])
    assert state.next_forehand == 0
    camera = sim_round(random.Random(1), "rosen", 0, weis=False, stoeck=False)
    assert fold(schieber() + [RoundEntered(contract="rosen", forehand=3, team=0, points=100), *camera]).flags == ()


def test_no_card_after_an_entered_round_without_a_new_start() -> None:
    events = schieber() + [RoundEntered(contract="rosen", forehand=0, team=0, points=100)]
    with pytest.raises(RuleError, match="entered by hand"):
        fold(events + [CardPlayed(seat=1, card="rosen-6")])


def test_the_sheet_marks_it_entered_by_hand() -> None:
    state = fold(schieber() + [RoundEntered(contract="rosen", forehand=0, team=0, points=100)])
    assert sheet_dict(state)["rounds"][0]["by_hand"] is True
    assert "von Hand" in format_sheet(state)
    assert state.to_dict()["sheet"][0]["by_hand"] is True


def test_speck_enters_every_players_points() -> None:
    events: list[Event] = [
        GameConfigured(variant="speck"),
        RoundEntered(contract="rosen", forehand=1, player_points=(50, 30, 40, 37)),
    ]
    state = fold(events)
    assert state.player_totals == (50, 30, 40, 37) and state.sheet[0].by_hand
    with pytest.raises(RuleError, match="Bodentrumpf"):
        fold(
            [
                GameConfigured(variant="speck"),
                RoundEntered(contract="obenabe", forehand=1, player_points=(50, 30, 40, 37)),
            ]
        )
    with pytest.raises(EventError, match="157"):
        parse_event({"type": "round_entered", "contract": "rosen", "player_points": [50, 30, 40, 30]})


def test_a_coiffeur_round_entered_by_hand_fills_its_row() -> None:
    from scoring.coiffeur import tafel

    events: list[Event] = [
        GameConfigured(variant="coiffeur"),
        RoundEntered(contract="misere", forehand=1, row=7, team=1, points=40),
    ]
    grid = tafel(fold(events))
    cell = grid.rows[7].cells[1]
    assert cell is not None and cell.written == 8 * 117 and cell.by_hand
    with pytest.raises(RuleError, match="already played"):
        fold(events + [RoundEntered(contract="misere", forehand=3, row=7, team=1, points=40)])


def test_it_survives_the_json_round_trip() -> None:
    entry = RoundEntered(contract="schellen", forehand=0, team=1, points=157, match=True, weis=(0, 20), stoeck=1)
    assert loads(dumps(entry)) == entry
