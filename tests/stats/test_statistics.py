"""The statistics are a fold of each game's events (scoring.statistics): what they count
and how, pinned on simulated games against the engine's own sheet."""

from __future__ import annotations

import functools
import random

import pytest

from scoring.events import Event, EventVoided, ForecastMade, GameConfigured, RoundEntered
from scoring.game import fold
from scoring.simulate import random_game_events
from scoring.statistics import bergpreis, known_players, name_key, play_seconds, summarize, table_statistics

PLAYERS = ("Anna", "Beat", "Claudia", "Dario")


def game(seed: int, **config: object) -> list[Event]:
    """A whole simulated game (made once per seed and settings: the simulator folds after every round)."""
    config.setdefault("players", PLAYERS)
    return list(_game(seed, tuple(sorted(config.items()))))


@functools.cache
def _game(seed: int, config: tuple[tuple[str, object], ...]) -> tuple[Event, ...]:
    return tuple(random_game_events(random.Random(seed), **dict(config)))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(4))
def test_the_bergpreis_is_the_team_first_over_half_the_target(seed: int) -> None:
    state = fold(game(seed, target=1000))
    totals = [(row.totals[0].total, row.totals[1].total) for row in state.sheet]
    first = next(i for i, t in enumerate(totals) if max(t) >= 500)
    over = [team for team in (0, 1) if totals[first][team] >= 500]
    if len(over) == 2:  # both in the same round: the end order decides (scoring.ending), as for the target
        assert bergpreis(state) in (0, 1)
    else:
        assert bergpreis(state) == over[0]


def test_no_bergpreis_before_anyone_is_over_half_nor_for_a_game_continued_from_paper_past_half() -> None:
    events = game(1, target=1000)
    assert bergpreis(fold(events[:1])) is None
    carried = game(2, target=1000, prior_totals=(520, 100))
    assert bergpreis(fold(carried)) is None


def test_an_exactly_half_total_wins_the_bergpreis_only_when_the_target_may_be_reached() -> None:
    # With prior totals of exactly half, «reached» has the Berg passed on paper, «exceeded» not yet.
    reached = game(5, target=1000, prior_totals=(500, 0))
    assert bergpreis(fold(reached)) is None
    exceeded = game(5, target=1000, prior_totals=(500, 0), target_rule="exceeded")
    assert bergpreis(fold(exceeded)) is not None


def test_time_played_leaves_out_the_pauses() -> None:
    times = [0.0, 60.0, 120.0, 120.0 + 3600, 120.0 + 3660]
    assert play_seconds(times) == 180.0
    assert play_seconds([]) == 0.0 and play_seconds([5.0]) == 0.0


def test_average_points_per_contract_are_the_card_points_of_the_rounds_the_team_announced() -> None:
    events = game(3)
    state = fold(events).to_dict()
    summary = summarize(1, events)
    rounds = {r["index"]: r for r in state["rounds"]}
    for seat in range(4):
        want: dict[str, list[int]] = {}
        for row in state["sheet"]:
            r = rounds[row["round"]]
            if r["declarer"] % 2 == seat % 2:
                want.setdefault(r["contract"], []).append(r["score"]["raw"][seat % 2]["tricks"])
        assert summary.seats[seat].points == want


def test_a_voided_round_is_no_longer_counted() -> None:
    # Statistics are a fold: undoing the last round's start takes its points out again.
    events = game(4)
    whole = summarize(1, events)
    last_start = max(i for i, e in enumerate(events) if e.type == "round_started")
    undone = summarize(1, [*events[:last_start], *events[last_start : last_start + 1], EventVoided(ref=last_start)])
    assert whole.finished and undone.rounds == whole.rounds - 1 and not undone.finished


def test_players_are_one_however_typed_and_placeholders_are_nobody() -> None:
    first = summarize(1, game(1, players=("Anna", "Beat", "Claudia", "Spieler 4")))
    second = summarize(2, game(2, players=(" anna ", "Beat", "CLAUDIA", "Dario")))
    stats = table_statistics([first, second], anonymous=lambda n: name_key(n) == "spieler 4")
    by_name = {name_key(p.names[0]): p for p in stats.players}
    assert set(by_name) == {"anna", "beat", "claudia", "dario"}
    assert by_name["anna"].games == 2 and by_name["dario"].games == 1
    assert by_name["anna"].names == ("anna",)  # the latest spelling
    pairs = {tuple(name_key(n) for n in p.names): p for p in stats.pairs}
    assert pairs[("anna", "claudia")].games == 2
    assert ("beat", "spieler 4") not in pairs and ("beat", "dario") in pairs


def test_wins_count_finished_games_for_the_winning_team_only() -> None:
    done = summarize(1, game(6))
    running = summarize(2, game(7)[:60])
    stats = table_statistics([done, running])
    winner = done.winners[0]
    for f in stats.players:
        seat = PLAYERS.index(f.names[0])
        assert f.games == 2 and f.finished == 1
        assert f.wins == int(seat % 2 == winner)


def test_the_best_weis_is_the_highest_one_the_players_team_wrote() -> None:
    events = game(8)
    state = fold(events)
    summary = summarize(1, events)
    for seat in range(4):
        written = [
            w.points for r in state.rounds if r.complete for w in r.weis if w.seat == seat and w.status == "counts"
        ]
        best = summary.seats[seat].best_weis
        assert (best.points if best else None) == (max(written) if written else None)


def test_known_players_come_latest_game_first_each_once() -> None:
    configs = [
        (1, GameConfigured(players=("Anna", "Beat", "Claudia", "Dario"))),
        (2, GameConfigured(players=("Eva", "beat", "Fritz", "Spieler 4"))),
    ]
    names = known_players(configs, anonymous=lambda n: n.startswith("Spieler"))
    assert names[:3] == ["beat", "Eva", "Fritz"]
    assert sorted(names[3:]) == ["Anna", "Claudia", "Dario"]


# -- worked examples with rounds entered by hand (docs/rules.md «Statistics») -----------------


def entered(config: GameConfigured, *rounds: RoundEntered) -> list[Event]:
    return [config, *rounds]


def test_a_match_is_made_by_one_team_and_received_by_the_other() -> None:
    events = entered(
        GameConfigured(players=PLAYERS), RoundEntered(contract="rosen", forehand=0, team=0, points=157, match=True)
    )
    stats = table_statistics([summarize(1, events)])
    by_name = {p.names[0]: p for p in stats.players}
    assert (by_name["Anna"].matches_made, by_name["Claudia"].matches_made, by_name["Beat"].matches_made) == (1, 1, 0)
    assert (by_name["Beat"].matches_received, by_name["Dario"].matches_received, by_name["Anna"].matches_received) == (
        1,
        1,
        0,
    )
    pairs = {p.names: p for p in stats.pairs}
    assert pairs[("Anna", "Claudia")].matches_made == 1 and pairs[("Beat", "Dario")].matches_received == 1
    # Rosen ×1, announced by Anna (forehand): team A's 257 are its points for Rosen; B announced nothing
    assert by_name["Anna"].points == {"rosen": [257]} and by_name["Beat"].points == {}


def test_the_bergpreis_goes_to_the_first_team_over_half_even_if_the_other_wins_the_game() -> None:
    events = entered(
        GameConfigured(players=PLAYERS, target=1000),
        RoundEntered(contract="eicheln", forehand=0, team=0, points=100),  # ×1: A 100, B 57
        RoundEntered(contract="schellen", forehand=1, team=1, points=157, match=True),  # ×2: B 57 + 514 = 571, over 500
        RoundEntered(contract="undenufe", forehand=2, team=0, points=157, match=True),  # ×4: A 100 + 1028 wins
    )
    summary = summarize(1, events)
    assert summary.bergpreis == 1 and summary.winners == (0,) and summary.finished
    stats = table_statistics([summary])
    by_name = {p.names[0]: p for p in stats.players}
    assert (by_name["Beat"].bergpreise, by_name["Beat"].wins, by_name["Anna"].bergpreise, by_name["Anna"].wins) == (
        1,
        0,
        0,
        1,
    )


def test_a_coiffeur_and_a_differenzler_game_count_their_own_winners_and_no_bergpreis() -> None:
    rows = (("rosen", 1), ("obenabe", 2))
    coiffeur = entered(
        GameConfigured(players=PLAYERS, variant="coiffeur", coiffeur_rows=rows),
        RoundEntered(contract="rosen", row=0, forehand=0, team=0, points=100),
        RoundEntered(contract="rosen", row=0, forehand=1, team=1, points=157, match=True),
        RoundEntered(contract="obenabe", row=1, forehand=2, team=0, points=90),
        RoundEntered(contract="obenabe", row=1, forehand=3, team=1, points=80),
    )
    c = summarize(1, coiffeur)
    assert c.finished and c.bergpreis is None and c.sides == ((0, 2), (1, 3))
    assert c.winners == ((0,) if c.totals[0] > c.totals[1] else (1,))
    assert c.seats[1].matches_made == 1 and c.seats[0].matches_received == 1
    differenzler: list[Event] = [
        GameConfigured(players=PLAYERS, variant="differenzler", differenzler_rounds=1),
        ForecastMade(seat=0, points=50),
        ForecastMade(seat=1, points=10),
        ForecastMade(seat=2, points=40),
        ForecastMade(seat=3, points=40),
        RoundEntered(contract="rosen", forehand=0, player_points=(50, 30, 40, 37)),  # penalties 0, 20, 0, 3
    ]
    d = summarize(2, differenzler)
    assert d.finished and d.sides == ((0,), (1,), (2,), (3,)) and d.winners == (0, 2)  # both at 0 share the first place
    assert d.seats[1].points == {"rosen": [30]}
