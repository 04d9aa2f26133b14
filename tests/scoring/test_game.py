"""The fold: errors vs flags, corrections and voids, Weis at game level, the JSON state."""

from __future__ import annotations

import json
import random

import pytest

from scoring.events import (
    CardCorrected,
    CardPlayed,
    Event,
    EventVoided,
    GameConfigured,
    RoundStarted,
    StoeckCalled,
    TrickCollected,
    WeisDeclared,
    loads,
    parse_event,
)
from scoring.game import RuleError, check_append, fold, parse_events, resolve
from scoring.simulate import random_game_events, random_round
from tests.scoring.support import card_event, configured, round_events, scripted_round


def plays_events(contract: str = "rosen", forehand: int = 0, seed: int = 1) -> list[Event]:
    _, plays = random_round(random.Random(seed), contract, forehand)
    return configured() + round_events(plays, contract, forehand, collect=False)


# ---------------------------------------------------------------- errors: event rejected


def test_card_before_any_round_is_an_error() -> None:
    with pytest.raises(RuleError, match="before any round_started") as exc:
        fold([GameConfigured(), CardPlayed(seat=0, card="rosen-6")])
    assert exc.value.ref == 1


def test_event_before_game_configured_is_an_error() -> None:
    with pytest.raises(RuleError, match="before game_configured"):
        fold([RoundStarted(forehand=0, contract="rosen")])


def test_second_game_configured_is_an_error() -> None:
    with pytest.raises(RuleError, match="already configured"):
        fold([GameConfigured(), GameConfigured()])


def test_37th_card_is_an_error() -> None:
    events = plays_events()
    with pytest.raises(RuleError, match="already has all 36 cards"):
        check_append(events, CardPlayed(seat=0, card="rosen-6"))


def test_same_seat_twice_in_one_trick_is_an_error() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
    ]
    with pytest.raises(RuleError, match="already laid a card in this trick"):
        check_append(events, CardPlayed(seat=0, card="rosen-7"))


def test_collecting_an_incomplete_trick_is_an_error() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
    ]
    with pytest.raises(RuleError, match="only 1 cards"):
        check_append(events, TrickCollected(seat=0))
    with pytest.raises(RuleError, match="no trick on the table"):
        check_append(events[:2], TrickCollected(seat=0))


def test_declared_cards_that_form_no_weis_are_an_error() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
    ]
    with pytest.raises(RuleError, match="not a Weis"):
        check_append(events, WeisDeclared(seat=0, cards=("rosen-6", "rosen-8", "rosen-9")))


def test_new_round_after_game_over_is_an_error() -> None:
    events = random_game_events(random.Random(4), target=1000)
    assert fold(events).game_over is not None
    with pytest.raises(RuleError, match="game is over"):
        check_append(events, RoundStarted(forehand=0, contract="rosen"))


def test_forward_ref_is_an_error() -> None:
    with pytest.raises(RuleError, match="earlier event"):
        fold([GameConfigured(), EventVoided(ref=1)])


def test_correction_of_a_non_card_is_an_error() -> None:
    with pytest.raises(RuleError, match="not a card_played"):
        fold([GameConfigured(), RoundStarted(forehand=0, contract="rosen"), CardCorrected(ref=1, card="rosen-6")])


def test_declarer_must_match_schieben() -> None:
    with pytest.raises(RuleError, match="partner of forehand"):
        fold([GameConfigured(), RoundStarted(forehand=0, contract="rosen", schoben=True, declarer=0)])
    state = fold([GameConfigured(), RoundStarted(forehand=0, contract="rosen", schoben=True, declarer=2)])
    assert state.round is not None and state.round.declarer == 2 and state.to_play == 0


def test_rejected_event_leaves_state_unchanged() -> None:
    events = plays_events()[:9]  # three cards of the second trick on the table
    before = fold(events).to_dict()
    with pytest.raises(RuleError):
        check_append(events, TrickCollected())
    assert fold(events).to_dict() == before


# ---------------------------------------------------------------- flags: table decides


def test_card_out_of_turn_is_flagged_and_kept() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=2, card="rosen-6"),
    ]
    state = fold(events)
    assert [f.code for f in state.flags] == ["out_of_turn"]
    assert state.flags[0].ref == 2 and state.flags[0].seat == 2
    assert state.round is not None and [c.card for c in state.round.trick] == ["rosen-6"]
    assert state.to_play == 3


def test_after_a_card_out_of_turn_the_card_of_the_player_whose_turn_it_was_is_not_flagged() -> None:
    """Speck 2.8.6: «Eine zu früh gespielte Karte muss liegen bleiben» and the turn stays where it
    was: seat 2 lays before seat 1, then seat 1 and seat 3 lay in turn. Only seat 2 is flagged."""
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
        CardPlayed(seat=2, card="rosen-7"),
        CardPlayed(seat=1, card="rosen-8"),
        CardPlayed(seat=3, card="rosen-9"),
    ]
    after_early = fold(events[:4])
    assert [(f.code, f.seat, f.other) for f in after_early.flags] == [("out_of_turn", 2, 1)]
    state = fold(events)
    assert [(f.code, f.seat, f.ref) for f in state.flags] == [("out_of_turn", 2, 3)]
    trick = state.rounds[0].tricks[0]
    assert [c.seat for c in trick.cards] == [0, 1, 2, 3] and trick.winner == 3  # the Nell (rosen-9) of seat 3
    assert not fold([*events[:2], events[2], events[4], events[3], events[5]]).flags  # the same cards in turn


def test_a_table_playing_on_round_from_an_early_card_gets_one_flag() -> None:
    """Seat 2 lays before seat 1, seat 3 follows seat 2, then seat 1 lays: only the early card is
    out of turn; the others follow the play round or are the turn it left where it was."""
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
        CardPlayed(seat=2, card="rosen-7"),
        CardPlayed(seat=3, card="rosen-8"),
        CardPlayed(seat=1, card="rosen-10"),
    ]
    assert [(f.code, f.seat, f.other) for f in fold(events).flags] == [("out_of_turn", 2, 1)]


def test_a_card_neither_in_turn_nor_following_the_play_is_flagged() -> None:
    """Seat 1 leads instead of seat 0 (2.8.3); then seat 3 lays, neither the seat whose turn
    it was (0) nor the next after seat 1 (2): two flags."""
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=1, card="rosen-6"),
        CardPlayed(seat=3, card="rosen-7"),
    ]
    assert [(f.code, f.seat) for f in fold(events).flags] == [("out_of_turn", 1), ("out_of_turn", 3)]


def test_a_lead_seen_late_still_leads_its_trick() -> None:
    # The camera sees seat 0's lead only after seats 1 and 2 (a hand lay over it): the
    # trick is kept in turn order, so the lead's suit decides it, not the first card seen.
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="obenabe"),
        CardPlayed(seat=1, card="schellen-ass"),
        CardPlayed(seat=2, card="schellen-6"),
        CardPlayed(seat=0, card="eicheln-7"),
        CardPlayed(seat=3, card="eicheln-6"),
    ]
    state = fold(events)
    trick = state.rounds[0].tricks[0]
    assert [(c.seat, c.card) for c in trick.cards] == [
        (0, "eicheln-7"),
        (1, "schellen-ass"),
        (2, "schellen-6"),
        (3, "eicheln-6"),
    ]
    assert trick.leader == 0 and trick.winner == 0
    # the table still sees what the camera saw: seat 1 laid before the lead; seat 0's lead,
    # seen late, was in turn (the turn stays with the leader, Speck 2.8.3)
    assert [(f.code, f.seat) for f in state.flags] == [("out_of_turn", 1)]
    assert state.to_play == 0  # the winner leads next
    # as played in turn, the same trick
    in_turn = fold([*events[:2], events[4], events[2], events[3], events[5]])
    same = in_turn.rounds[0].tricks[0]
    assert [(c.seat, c.card) for c in same.cards] == [(c.seat, c.card) for c in trick.cards]
    assert (same.winner, same.points) == (trick.winner, trick.points) and not in_turn.flags


def test_card_already_played_is_flagged() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
        CardPlayed(seat=1, card="rosen-6"),
    ]
    assert "card_already_played" in [f.code for f in fold(events).flags]


def test_not_following_suit_flagged_when_kept_card_appears() -> None:
    base: list[Event] = [GameConfigured(), RoundStarted(forehand=0, contract="rosen")]
    trick1 = [
        CardPlayed(seat=0, card="eicheln-ass"),
        CardPlayed(seat=1, card="schellen-6"),  # seat 1 does not follow Eicheln ...
        CardPlayed(seat=2, card="eicheln-6"),
        CardPlayed(seat=3, card="eicheln-7"),
    ]
    state = fold([*base, *trick1])
    assert not state.flags  # nothing known yet
    trick2 = [CardPlayed(seat=0, card="schilten-6"), CardPlayed(seat=1, card="eicheln-8")]  # ... but had one
    state = fold([*base, *trick1, *trick2])
    assert [(f.code, f.ref, f.evidence_ref) for f in state.flags] == [("not_following_suit", 3, 7)]


def test_undertrump_flagged_when_hand_shows_other_card() -> None:
    base: list[Event] = [GameConfigured(), RoundStarted(forehand=0, contract="rosen")]
    events = base + [
        CardPlayed(seat=0, card="eicheln-ass"),
        CardPlayed(seat=1, card="rosen-ober"),
        CardPlayed(seat=2, card="rosen-6"),  # undertrumps the Ober ...
        CardPlayed(seat=3, card="eicheln-7"),
        CardPlayed(seat=1, card="schilten-6"),
        CardPlayed(seat=2, card="schilten-7"),  # ... while holding a Schilten
    ]
    codes = [(f.code, f.ref) for f in fold(events).flags]
    assert ("undertrump", 4) in codes


def test_trump_under_alone_not_flagged_for_not_following_trump() -> None:
    base: list[Event] = [GameConfigured(), RoundStarted(forehand=0, contract="rosen")]
    events = base + [
        CardPlayed(seat=0, card="rosen-ass"),
        CardPlayed(seat=1, card="schellen-6"),
        CardPlayed(seat=2, card="rosen-6"),
        CardPlayed(seat=3, card="rosen-7"),
        CardPlayed(seat=0, card="eicheln-6"),
        CardPlayed(seat=1, card="rosen-under"),
    ]
    assert not fold(events).flags


def test_not_following_trump_flagged() -> None:
    base: list[Event] = [GameConfigured(), RoundStarted(forehand=0, contract="rosen")]
    events = base + [
        CardPlayed(seat=0, card="rosen-ass"),
        CardPlayed(seat=1, card="schellen-6"),
        CardPlayed(seat=2, card="rosen-6"),
        CardPlayed(seat=3, card="rosen-7"),
        CardPlayed(seat=0, card="eicheln-6"),
        CardPlayed(seat=1, card="rosen-8"),
    ]
    assert [f.code for f in fold(events).flags] == ["not_following_trump"]


def test_random_legal_games_raise_no_flags() -> None:
    for seed in range(5):
        assert not fold(random_game_events(random.Random(seed), target=1500)).flags


def test_wrong_collector_flagged() -> None:
    events = plays_events()[:6] + [TrickCollected(seat=0)]
    state = fold(events)
    winner = state.rounds[0].tricks[0].winner
    assert ("wrong_collector" in [f.code for f in state.flags]) == (winner % 2 != 0)


def test_new_round_abandons_unfinished_round() -> None:
    events = plays_events()[:10] + [RoundStarted(forehand=0, contract="eicheln")]
    state = fold(events)
    assert state.rounds[0].abandoned and not state.sheet
    assert "round_abandoned" in [f.code for f in state.flags]
    assert state.round is not None and state.round.contract == "eicheln"


def test_weis_late_and_not_in_hand_do_not_count() -> None:
    events = configured() + scripted_round({0: ["eicheln-6", "eicheln-7", "eicheln-8"]}, "rosen", seed=3)
    late = [*events, WeisDeclared(seat=0, cards=("eicheln-6", "eicheln-7", "eicheln-8"))]
    state = fold(late)
    assert state.rounds[0].weis[0].status == "late" and state.sheet[0].written[0].weis == 0
    first_card = card_event(events, "eicheln-6")
    wrong = list(events)
    wrong.insert(first_card, WeisDeclared(seat=1, cards=("eicheln-6", "eicheln-7", "eicheln-8")))
    state = fold(wrong)
    assert state.rounds[0].weis[0].status == "not_in_hand"
    assert "weis_not_in_hand" in [f.code for f in state.flags]
    assert state.sheet[0].written[1].weis == 0


def test_weis_needs_trick_setting() -> None:
    seat0 = [f"eicheln-{r}" for r in ("under", "9", "ass", "koenig", "ober", "10", "8")] + ["rosen-ass", "schellen-ass"]
    seat1 = ["schilten-6", "schilten-7", "schilten-8"]
    kwargs = {"weis": [(1, seat1)]}
    plain = fold(configured() + scripted_round({0: seat0, 1: seat1}, "eicheln", **kwargs))  # type: ignore[arg-type]
    assert plain.rounds[0].score.tricks_won == (9, 0) and plain.sheet[0].written[1].weis == 20
    strict = fold(configured(weis_needs_trick=True) + scripted_round({0: seat0, 1: seat1}, "eicheln", **kwargs))  # type: ignore[arg-type]
    assert strict.sheet[0].written[1].weis == 0 and strict.rounds[0].weis[0].status == "no_trick"


def test_one_weis_per_player_setting() -> None:
    seat0 = ["rosen-6", "rosen-7", "rosen-8", "eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"]
    weis = [(0, ["rosen-6", "rosen-7", "rosen-8"]), (0, ["eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"])]
    both = fold(configured() + scripted_round({0: seat0}, "eicheln", weis=weis))
    assert both.sheet[0].written[0].weis == 120
    one = fold(configured(weis_one_per_player=True) + scripted_round({0: seat0}, "eicheln", weis=weis))
    assert one.sheet[0].written[0].weis == 100
    assert [w.status for w in one.rounds[0].weis] == ["not_best_of_player", "counts"]


# ---------------------------------------------------------------- corrections and voids


def test_card_correction_replaces_the_card() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
    ]
    state = fold([*events, CardCorrected(ref=2, card="rosen-7")])
    assert state.round is not None and state.round.played == ("rosen-7",)


def test_void_removes_event_and_void_of_void_restores_it() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
    ]
    undone = fold([*events, EventVoided(ref=2)])
    assert undone.round is not None and undone.round.played == () and undone.to_play == 0
    redone = fold([*events, EventVoided(ref=2), EventVoided(ref=3)])
    assert redone.round is not None and redone.round.played == ("rosen-6",)


def test_correction_clears_the_flag_it_explains() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
        CardPlayed(seat=1, card="rosen-6"),
    ]
    assert fold(events).flags
    assert not fold([*events, CardCorrected(ref=3, card="rosen-8")]).flags


def test_void_of_a_card_rewinds_the_trick() -> None:
    events = plays_events()
    state = fold([*events, EventVoided(ref=len(events) - 1)])
    assert state.round is not None and len(state.round.played) == 35 and not state.round.complete
    assert state.to_play == events[-1].seat  # type: ignore[union-attr]


def test_resolve_keeps_positions() -> None:
    events: list[Event] = [
        GameConfigured(),
        RoundStarted(forehand=0, contract="rosen"),
        CardPlayed(seat=0, card="rosen-6"),
    ]
    res = resolve([*events, EventVoided(ref=1)])
    assert [pos for pos, _ in res.events] == [0, 2]


# ---------------------------------------------------------------- the state for the web


def test_state_to_dict_is_json_and_has_the_dashboard_fields() -> None:
    events = configured() + scripted_round({0: ["rosen-koenig", "rosen-ober"]}, "rosen", seed=5)
    second = max(card_event(events, "rosen-koenig"), card_event(events, "rosen-ober"))
    state = fold(events[: second + 1])
    data = json.loads(json.dumps(state.to_dict()))
    assert data["stoeck_window"] == 0
    assert data["round"]["stoeck"]["status"] == "open"
    for key in ("config", "contract", "to_play", "flags", "totals", "sheet", "game_over", "round_index"):
        assert key in data
    rnd = data["round"]
    for key in ("multiplier", "forehand", "leader", "trick", "tricks", "played", "weis", "score"):
        assert key in rnd
    assert set(data["totals"][0]) == {"weis", "stoeck", "tricks", "total"}


def test_game_over_state_serialises() -> None:
    state = fold(random_game_events(random.Random(9), target=1000))
    data = json.loads(json.dumps(state.to_dict()))
    assert data["game_over"]["winner"] in (0, 1) and data["game_over"]["deciding_block"] in ("weis", "stoeck", "tricks")
    assert data["to_play"] is None


def test_to_play_follows_trick_winner() -> None:
    events = plays_events()
    state = fold(events[:6])  # config, round, four cards
    assert state.round is not None
    assert state.to_play == state.round.tricks[0].winner
    assert [c.card for c in state.round.trick] == [e.card for e in events[2:6]]  # type: ignore[union-attr]


def test_parse_events_names_bad_position() -> None:
    with pytest.raises(ValueError, match="event 1"):
        parse_events([{"type": "game_configured"}, {"type": "card_played", "seat": 9, "card": "rosen-6"}])


def test_json_roundtrip_of_simulated_game() -> None:
    from scoring.events import dumps

    events = random_game_events(random.Random(2), target=1000)
    again = [loads(dumps(e)) for e in events]
    assert fold(again).to_dict() == fold(events).to_dict()
    assert parse_event({"type": "stoeck_called", "seat": 1}) == StoeckCalled(seat=1)
