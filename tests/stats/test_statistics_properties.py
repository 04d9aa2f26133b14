"""Properties of the statistics over random games entered by hand (quick to fold): what
one team makes the other receives, a finished game has its winners, and the Bergpreis
team was over half the target when it got it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.events import CONTRACTS, Event, GameConfigured, RoundEntered
from scoring.game import fold
from scoring.statistics import summarize, table_statistics

PLAYERS = ("Anna", "Beat", "Claudia", "Dario")

rounds = st.lists(
    st.builds(
        lambda contract, forehand, team, points, match: RoundEntered(
            contract=contract, forehand=forehand, team=team, points=157 if match else points, match=match
        ),
        st.sampled_from(CONTRACTS),
        st.integers(0, 3),
        st.integers(0, 1),
        st.integers(0, 157),
        st.booleans(),
    ),
    min_size=1,
    max_size=12,
)


def game(entries: list[RoundEntered], target: int) -> list[Event]:
    """The rounds up to the one that ends the game (the engine refuses rounds after it)."""
    events: list[Event] = [GameConfigured(players=PLAYERS, target=target)]
    for entry in entries:
        events.append(entry)
        if fold(events).game_over is not None:
            break
    return events


@settings(max_examples=40, deadline=None)
@given(rounds, st.sampled_from((500, 1000, 1500)))
def test_matches_made_are_matches_received_and_a_finished_game_has_its_winners(
    entries: list[RoundEntered], target: int
) -> None:
    events = game(entries, target)
    summary = summarize(1, events)
    stats = table_statistics([summary])
    assert sum(p.matches_made for p in stats.players) == sum(p.matches_received for p in stats.players)
    matches = sum(1 for e in events if isinstance(e, RoundEntered) and e.match)
    assert sum(p.matches_made for p in stats.players) == 2 * matches
    wins = sum(p.wins for p in stats.players)
    assert wins == (2 if summary.finished and summary.winners else 0)
    assert all(p.wins <= p.finished <= p.games == 1 for p in stats.players)


@settings(max_examples=40, deadline=None)
@given(rounds, st.sampled_from((500, 1000, 1500)))
def test_the_bergpreis_team_was_over_half_the_target_and_nobody_was_before(
    entries: list[RoundEntered], target: int
) -> None:
    events = game(entries, target)
    state = fold(events)
    summary = summarize(1, events)
    half = target / 2
    first = next(
        (i for i, row in enumerate(state.sheet) if max(row.totals[0].total, row.totals[1].total) >= half), None
    )
    if first is None:
        assert summary.bergpreis is None
        return
    row = state.sheet[first]
    if summary.bergpreis is not None:
        assert row.totals[summary.bergpreis].total >= half
    over = [team for team in (0, 1) if row.totals[team].total >= half]
    if len(over) == 1:
        assert summary.bergpreis == over[0]
