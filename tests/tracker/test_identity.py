"""Identity from the vote over frames, narrowed by the game's constraints; and the config."""

from __future__ import annotations

import pytest

from vision.tracker import TrackerConfig
from vision.tracker.identity import cards_not_held, resolve


def test_clear_vote_wins_with_its_share() -> None:
    reading = resolve({"rosen-6": 2.7, "rosen-7": 0.3}, set(), replay_share=0.6)
    assert reading is not None
    assert reading.card == "rosen-6"
    assert reading.confidence == pytest.approx(0.9)
    assert reading.alternatives == (("rosen-7", 0.1),)


def test_card_played_earlier_is_struck_and_the_next_read_wins_unsure() -> None:
    reading = resolve({"rosen-6": 1.0, "rosen-7": 0.8, "rosen-8": 0.2}, {"rosen-6"}, replay_share=0.6)
    assert reading is not None
    assert (reading.card, reading.replay) == ("rosen-7", False)
    assert reading.confidence == pytest.approx(0.4)


def test_overwhelming_read_of_a_played_card_is_a_replay_not_a_play() -> None:
    reading = resolve({"rosen-6": 2.8, "rosen-7": 0.2}, {"rosen-6"}, replay_share=0.6)
    assert reading is not None and reading.replay


def test_only_played_cards_read_gives_the_read_with_zero_confidence() -> None:
    reading = resolve({"rosen-6": 0.5, "rosen-7": 0.5}, {"rosen-6", "rosen-7"}, replay_share=0.6)
    assert reading is not None
    assert (reading.card, reading.confidence, reading.replay) == ("rosen-6", 0.0, False)


def test_a_card_barely_read_is_not_chosen_because_the_clear_read_was_played_already() -> None:
    votes = {"schellen-10": 0.61, "eicheln-under": 0.5, "eicheln-7": 0.01}
    reading = resolve(votes, {"schellen-10", "eicheln-under"}, replay_share=0.6)
    assert reading is not None
    assert (reading.card, reading.confidence, reading.replay) == ("schellen-10", 0.0, False)


def test_card_the_player_showed_not_to_hold_loses_a_close_vote_but_not_a_clear_one() -> None:
    close = resolve({"rosen-6": 1.0, "eicheln-6": 0.9}, set(), replay_share=0.6, not_held={"rosen-6"})
    clear = resolve({"rosen-6": 3.0, "eicheln-6": 0.3}, set(), replay_share=0.6, not_held={"rosen-6"})
    assert close is not None and close.card == "eicheln-6"
    assert clear is not None and clear.card == "rosen-6"


def test_ties_are_broken_by_card_order_not_dict_order() -> None:
    a = resolve({"rosen-7": 1.0, "rosen-6": 1.0}, set(), replay_share=0.6)
    b = resolve({"rosen-6": 1.0, "rosen-7": 1.0}, set(), replay_share=0.6)
    assert a == b


def test_nothing_read_gives_none() -> None:
    assert resolve({}, set(), replay_share=0.6) is None
    assert resolve({"not-a-card": 1.0}, set(), replay_share=0.6) is None


def test_not_following_a_plain_lead_shows_a_void() -> None:
    assert "rosen-ass" in cards_not_held("rosen-6", "schellen-7", "eicheln")


def test_trumping_a_plain_lead_shows_nothing() -> None:
    assert cards_not_held("rosen-6", "eicheln-7", "eicheln") == set()


def test_not_following_trump_keeps_the_trump_under_possible() -> None:
    out = cards_not_held("eicheln-6", "rosen-7", "eicheln")
    assert "eicheln-ass" in out and "eicheln-under" not in out


def test_obenabe_void_has_no_trump_exception() -> None:
    assert "rosen-under" in cards_not_held("rosen-6", "eicheln-7", "obenabe")


@pytest.mark.parametrize(
    "kwargs,name",
    [
        ({"minimum_consecutive_frames": 0}, "minimum_consecutive_frames"),
        ({"maximum_decision_frames": 2}, "maximum_decision_frames"),
        ({"decide_confidence": 1.5}, "decide_confidence"),
        ({"match_distance": 0}, "match_distance"),
        ({"lost_track_buffer": -1.0}, "lost_track_buffer"),
        ({"collect_after_frames": 2.5}, "collect_after_frames"),
        ({"rest_tolerance": "x"}, "rest_tolerance"),
    ],
)
def test_bad_config_is_refused_naming_the_value(kwargs: dict[str, object], name: str) -> None:
    with pytest.raises(ValueError, match=name):
        TrackerConfig(**kwargs)  # type: ignore[arg-type]
