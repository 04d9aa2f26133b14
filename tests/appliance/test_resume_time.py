"""Where a recording played as the camera goes on after a restart: the start of the trick in progress."""

from __future__ import annotations

from jasscam.sources.recording import RESUME_BEFORE_COLLECTED_S, resume_time
from scoring.events import RoundStarted, TrickCollected
from tests.appliance.gamegen import config, round_events


def test_a_new_game_starts_the_recording_at_its_beginning() -> None:
    assert resume_time([config()]) == 0.0


def test_in_the_first_trick_it_goes_on_where_the_round_started_never_earlier() -> None:
    """Earlier frames show the round before, whose cards would be new to the tracker."""
    events = [config(), *round_events(seed=4, t0=30.0)[:3]]  # round_started at 30 s, two cards
    assert isinstance(events[1], RoundStarted)
    assert resume_time(events) == 30.0


def test_later_it_goes_on_just_before_the_last_trick_was_collected() -> None:
    """Cards stored since (here the next lead) and cards laid but not yet reported are laid again."""
    events = [config(), *round_events(seed=4)[:8]]  # trick 1 collected at 5 s, two cards of trick 2
    collected = events[6]
    assert isinstance(collected, TrickCollected) and collected.t == 5.0
    assert resume_time(events) == 5.0 - RESUME_BEFORE_COLLECTED_S


def test_with_no_round_in_progress_it_is_the_latest_event() -> None:
    events = [config(), *round_events(seed=4)]
    assert resume_time(events) == max(e.t for e in events[1:] if e.t is not None)
