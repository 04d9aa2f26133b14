"""A game continued from paper: ``prior_totals`` of ``game_configured``.

A table often starts on the Jasstafel and switches to the appliance halfway, or
restarts after a power cut with the written totals. The totals so far are carried into
the game, shown as the Tafel's first row («Übertrag») and checked like the target: 001
«Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte Zielpunktzahl
überschreitet», so a game already over on paper is not continued.
"""

from __future__ import annotations

import random

import pytest

from scoring.events import Event, EventError, GameConfigured, parse_event
from scoring.game import fold
from scoring.sheet import format_sheet, sheet_dict
from scoring.simulate import random_game_events
from tests.scoring.support import configured, scripted_round


def stoeck_round() -> list[Event]:
    """A Rosen round (factor 1) in which team 1 (seat 0) calls Stöck in time."""
    return scripted_round({0: ["rosen-koenig", "rosen-ober"]}, "rosen", stoeck=True, seed=5)


def test_prior_totals_start_the_totals_and_every_running_total() -> None:
    """The written totals go on from where the paper left them."""
    plain = fold(configured() + stoeck_round())
    carried = fold(configured(prior_totals=(640, 710)) + stoeck_round())
    for team, prior in ((0, 640), (1, 710)):
        assert carried.sheet[0].written[team] == plain.sheet[0].written[team]
        assert carried.sheet[0].totals[team].total == plain.sheet[0].totals[team].total + prior
        assert carried.totals[team].total == plain.totals[team].total + prior
        assert carried.totals[team].carried == prior
    assert carried.to_dict()["totals"][0]["carried"] == 640
    assert "carried" not in plain.to_dict()["totals"][0]


def test_prior_totals_are_the_first_row_of_the_tafel() -> None:
    state = fold(configured(prior_totals=(640, 710)) + stoeck_round())
    text = format_sheet(state).splitlines()
    first = next(i for i, line in enumerate(text) if line.startswith("Übertrag"))
    assert "640" in text[first] and "710" in text[first]
    assert text[first + 1].startswith("1 ")  # the first round comes right after it
    assert sheet_dict(state)["prior_totals"] == [640, 710]


def test_001_prior_totals_that_already_reach_the_target_are_refused() -> None:
    """001: «Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte Zielpunktzahl überschreitet.»"""
    with pytest.raises(EventError, match="team 2 already reaches the target 1000"):
        parse_event({"type": "game_configured", "prior_totals": [640, 1000]})
    assert isinstance(parse_event({"type": "game_configured", "prior_totals": [640, 999]}), GameConfigured)
    # with «überschreitet» as the setting, the target itself has not ended the game yet
    exceeded = parse_event({"type": "game_configured", "prior_totals": [1000, 0], "target_rule": "exceeded"})
    assert isinstance(exceeded, GameConfigured) and exceeded.prior_totals == (1000, 0)
    with pytest.raises(EventError, match="already exceeds"):
        parse_event({"type": "game_configured", "prior_totals": [1001, 0], "target_rule": "exceeded"})


@pytest.mark.parametrize(
    "prior",
    [[640], [640, 710, 0, 0], [640, -1], [640, 7.5], [True, 0], "640,710"],
)
def test_prior_totals_must_be_one_whole_number_per_team(prior: object) -> None:
    with pytest.raises(EventError, match="prior_totals must be two whole numbers"):
        parse_event({"type": "game_configured", "prior_totals": prior})


def test_002_speck_prior_totals_are_one_per_player_with_the_games_they_come_from() -> None:
    """2.5.3: the sheet is checked against games x 157; the games on paper count in it,
    and their totals must pass that check before the series goes on."""
    with pytest.raises(EventError, match="four whole numbers"):
        parse_event({"type": "game_configured", "variant": "speck", "prior_totals": [1, 2], "prior_games": 1})
    with pytest.raises(EventError, match=r"add up to 470, but 3 games .* make 3 x 157 = 471"):
        parse_event(
            {"type": "game_configured", "variant": "speck", "prior_totals": [300, 0, 156, 14], "prior_games": 3}
        )
    with pytest.raises(EventError, match="the series is over"):
        parse_event(
            {
                "type": "game_configured",
                "variant": "speck",
                "speck_games": 8,
                "prior_games": 8,
                "prior_totals": [1256, 0, 0, 0],
            }
        )
    with pytest.raises(EventError, match="belongs to Speck"):
        parse_event({"type": "game_configured", "prior_games": 2})
    config = parse_event(
        {
            "type": "game_configured",
            "variant": "speck",
            "speck_games": 5,
            "prior_games": 3,
            "prior_totals": [300, 0, 157, 14],
        }
    )
    assert isinstance(config, GameConfigured)
    events = [config, *random_game_events(random.Random(3), variant="speck", speck_games=2)[1:]]
    state = fold(events)
    plain = fold([GameConfigured(variant="speck", speck_games=2), *events[1:]])
    assert state.game_over is not None and state.game_over.reason == "5 Spiele gespielt"
    assert state.player_totals == tuple(p + q for p, q in zip(plain.player_totals, (300, 0, 157, 14), strict=True))
    check = sheet_dict(state)["sum_check"]
    assert check == {"games": 5, "expected": 5 * 157, "actual": 5 * 157, "ok": True}
    text = format_sheet(state)
    assert "Übertrag 3 Sp." in text and "Kontrolle: 5 Spiele × 157 = 785 (stimmt)" in text


def test_002_2_5_3_the_punkteblatt_numbers_the_games_after_those_on_paper() -> None:
    """2.5.3: «games x 157» over the whole series, the games on paper included."""
    from scoring.speck import punkteblatt

    config = parse_event(
        {
            "type": "game_configured",
            "variant": "speck",
            "speck_games": 5,
            "prior_games": 3,
            "prior_totals": [300, 0, 157, 14],
        }
    )
    events = [config, *random_game_events(random.Random(3), variant="speck", speck_games=2)[1:]]
    blatt = punkteblatt(fold(events))
    assert [g["game"] for g in blatt["games"]] == [4, 5]
    assert (blatt["games_played"], blatt["complete"], blatt["prior_games"]) == (5, True, 3)
    assert blatt["check"]["ok"] and blatt["check"]["expected"] == 5 * 157
    assert blatt["totals"][0] >= 300 and blatt["ranking"][0]["total"] == max(blatt["totals"])


def end_game(order: tuple[str, ...], upto: tuple[str, ...], target: int = 2000) -> list[Event]:
    """Both teams start just so far below ``target`` that this round's blocks ``upto``
    bring both exactly onto it; team 1 has Stöck (20), team 2 no Weis or Stöck."""
    written = fold(configured(target=100_000) + stoeck_round()).sheet[0].written
    assert written[0].stoeck == 20 and written[0].tricks > 20 and written[1].tricks > 0
    prior = (target - sum(written[0].get(b) for b in upto), target - sum(written[1].get(b) for b in upto))
    return configured(target=target, end_order=order, prior_totals=prior) + stoeck_round()


def test_001_equal_totals_after_the_tricks_go_on_to_the_stoeck_in_a_real_game() -> None:
    """001: «Der Sieger steht fest, sobald der erste entscheidende Block einen Gleichlauf auflöst.»"""
    over = fold(end_game(("tricks", "stoeck", "weis"), upto=("tricks",))).game_over
    assert over is not None and (over.winner, over.deciding_block) == (0, "stoeck")


def test_001_equal_totals_with_the_tricks_last_are_a_draw_in_a_real_game() -> None:
    """001: «Der Sieger steht fest, sobald der erste entscheidende Block einen Gleichlauf
    auflöst.» With the trick block last nothing is left to separate them."""
    over = fold(end_game(("weis", "stoeck", "tricks"), upto=("stoeck", "tricks"))).game_over
    assert over is not None and (over.winner, over.deciding_block) == (None, None)
    assert "unentschieden" in over.reason


def test_001_target_exceeded_a_total_equal_to_the_target_plays_on() -> None:
    """001: «... sobald eine Mannschaft die vereinbarte Zielpunktzahl überschreitet.»"""
    written = fold(configured(target=100_000) + stoeck_round()).sheet[0].written
    prior = (1000 - written[0].total, 0)
    reached = fold(configured(prior_totals=prior) + stoeck_round())
    assert reached.totals[0].total == 1000 and reached.game_over is not None and reached.game_over.winner == 0
    exceeded = fold(configured(prior_totals=prior, target_rule="exceeded") + stoeck_round())
    assert exceeded.totals[0].total == 1000 and exceeded.game_over is None


def test_001_a_config_built_in_code_is_checked_as_its_json_would_be() -> None:
    """001: «Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte Zielpunktzahl
    überschreitet.» The fold refuses a game over on paper however its config was made."""
    from scoring.game import RuleError

    with pytest.raises(RuleError, match="event 0: prior_totals: team 1 already reaches the target 1000"):
        fold([GameConfigured(prior_totals=(1000, 0))])
