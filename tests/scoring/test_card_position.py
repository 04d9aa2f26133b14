"""Finding the event of a card the camera reported, for its later correction."""

from __future__ import annotations

from scoring.events import CardCorrected, CardPlayed, Event, EventVoided, GameConfigured, RoundStarted
from scoring.game import card_position


def test_card_position_finds_the_card_in_the_round_under_way_only() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="eicheln"),
        CardPlayed(seat=0, card="rosen-6"),
        RoundStarted(forehand=1, contract="rosen"),
        CardPlayed(seat=1, card="schellen-9"),
    ]
    assert card_position(events, "schellen-9") == 4
    assert card_position(events, "rosen-6") is None  # an earlier round's card


def test_card_position_follows_corrections_and_undo() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="eicheln"),
        CardPlayed(seat=0, card="rosen-6"),
        CardPlayed(seat=1, card="rosen-7"),
        CardCorrected(ref=2, card="rosen-8"),
        EventVoided(ref=3),
    ]
    assert card_position(events, "rosen-8") == 2
    assert card_position(events, "rosen-6") is None  # corrected away
    assert card_position(events, "rosen-7") is None  # undone


def test_card_position_takes_the_latest_of_a_card_seen_twice() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="eicheln"),
        CardPlayed(seat=0, card="rosen-6"),
        CardPlayed(seat=1, card="rosen-6"),
    ]
    assert card_position(events, "rosen-6") == 3
