"""Table settings the rule texts allow, with their defaults unchanged.

- ``target_rule``: 001 «Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte
  Zielpunktzahl überschreitet.» (``exceeded``) against the default ``reached``.
- ``weis_card_once``: 003 «Eine Karte kann nicht für mehrere Weise verwendet werden.
  Nur der höhere Weis zählt.» against the default 000 «Ein Kartenblatt darf gleichzeitig
  zu einer Sequenz und zu einem Vierling gehören».
- ``weis_needs_trick``: 003 «Weispunkte zählen nur, wenn man mindestens einen Stich
  macht.»: the trickless team is left out before the comparison.
"""

from __future__ import annotations

import random

import pytest

from scoring.events import Event, EventError, GameConfigured, parse_event
from scoring.game import fold
from scoring.simulate import random_game_events
from tests.scoring.support import configured, scripted_round

SEQ_AND_FOUR = ["rosen-ober", "rosen-koenig", "rosen-ass", "eicheln-ass", "schilten-ass", "schellen-ass"]


def test_003_one_card_one_weis_keeps_the_stronger_and_drops_the_one_sharing_a_card() -> None:
    """003: «Eine Karte kann nicht für mehrere Weise verwendet werden. Nur der höhere Weis zählt.»"""
    weis = [(0, SEQ_AND_FOUR)]
    both = fold(configured() + scripted_round({0: SEQ_AND_FOUR}, "schilten", weis=weis))
    assert both.sheet[0].written[0].weis == 120 * 2
    once = fold(configured(weis_card_once=True) + scripted_round({0: SEQ_AND_FOUR}, "schilten", weis=weis))
    assert once.sheet[0].written[0].weis == 100 * 2
    status = {w.kind: w.status for w in once.rounds[0].weis}
    assert status == {"four": "counts", "sequence": "shares_card"}


def test_003_one_card_one_weis_keeps_a_five_sequence_over_four_aces_it_shares_the_ass_with() -> None:
    """003: «Nur der höhere Weis zählt.» A Fünfblatt (100, five cards) beats Vier Ass (100, four cards)."""
    five_and_four = [
        "rosen-10",
        "rosen-under",
        "rosen-ober",
        "rosen-koenig",
        "rosen-ass",
        "eicheln-ass",
        "schilten-ass",
        "schellen-ass",
    ]
    state = fold(
        configured(weis_card_once=True) + scripted_round({0: five_and_four}, "eicheln", weis=[(0, five_and_four)])
    )
    status = {w.kind: w.status for w in state.rounds[0].weis}
    assert status == {"sequence": "counts", "four": "shares_card"}
    assert state.sheet[0].written[0].weis == 100


def test_003_one_card_one_weis_keeps_weis_that_share_no_card() -> None:
    """003: «Eine Karte kann nicht für mehrere Weise verwendet werden»: two Weis of disjoint cards both count."""
    hand = ["rosen-6", "rosen-7", "rosen-8", "eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"]
    state = fold(configured(weis_card_once=True) + scripted_round({0: hand}, "eicheln", weis=[(0, hand)]))
    assert state.sheet[0].written[0].weis == 120


#: Seat 0 holds seven trumps and two Ass: team 0 takes all nine tricks, team 1 none.
STRONG = [f"eicheln-{r}" for r in ("under", "9", "ass", "koenig", "ober", "10", "8")] + ["rosen-ass", "schellen-ass"]
LOW = ["schilten-6", "schilten-7", "schilten-8"]  # seat 2: Dreiblatt, 20
HIGH = ["rosen-6", "rosen-7", "rosen-8", "rosen-9"]  # seat 1: Vierblatt, 50


def trickless_round(**config: object) -> list[Event]:
    return configured(**config) + scripted_round({0: STRONG, 1: HIGH, 2: LOW}, "eicheln", weis=[(1, HIGH), (2, LOW)])


def test_003_weis_needs_a_trick_leaves_the_trickless_team_out_so_the_other_writes_its_lower_weis() -> None:
    """003: «Weispunkte zählen nur, wenn man mindestens einen Stich macht.» Team 2 holds
    the better Weis but takes no trick: it is left out, and team 1 writes its Dreiblatt."""
    plain = fold(trickless_round())
    assert plain.rounds[0].score.tricks_won == (9, 0)
    assert (plain.sheet[0].written[0].weis, plain.sheet[0].written[1].weis) == (0, 50)
    strict = fold(trickless_round(weis_needs_trick=True))
    assert (strict.sheet[0].written[0].weis, strict.sheet[0].written[1].weis) == (20, 0)
    assert {w.seat: w.status for w in strict.rounds[0].weis} == {1: "no_trick", 2: "counts"}
    assert strict.rounds[0].weis_team == 0


def test_003_weis_needs_a_trick_judges_only_at_the_end_of_the_round() -> None:
    """003: «... wenn man mindestens einen Stich macht»: while the round runs, the
    trickless team may still take one, so the comparison stands provisionally."""
    events = trickless_round(weis_needs_trick=True)
    running = fold(events[:-3])
    assert running.round is not None and not running.round.complete
    assert {w.seat: w.status for w in running.round.weis} == {1: "counts", 2: "loses"}


def test_001_target_exceeded_ends_only_above_the_target() -> None:
    """001: «Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte Zielpunktzahl überschreitet.»"""
    events = random_game_events(random.Random(7), target=1000, max_rounds=200, target_rule="exceeded")
    state = fold(events)
    assert state.game_over is not None and max(t.total for t in state.totals) > 1000
    assert len(state.sheet) > 1 and max(b.total for b in state.sheet[-2].totals) <= 1000


def test_target_rule_defaults_to_reached_and_refuses_other_words() -> None:
    """001: «Zielpunktzahl und Schlussregel gehören zur Abmachung am Tisch oder zur gewählten Einstellung.»"""
    config = parse_event({"type": "game_configured"})
    assert config.target_rule == "reached"  # type: ignore[union-attr]
    with pytest.raises(EventError, match="target_rule"):
        parse_event({"type": "game_configured", "target_rule": "touched"})
    with pytest.raises(EventError, match="weis_card_once"):
        parse_event({"type": "game_configured", "weis_card_once": "yes"})


def test_a_game_without_the_new_settings_is_written_as_before() -> None:
    """Logs that use none of the later settings stay readable by a build that does not know them."""
    from scoring.events import event_to_dict

    plain = event_to_dict(GameConfigured())
    assert not {"target_rule", "weis_card_once", "prior_games", "prior_totals"} & set(plain)
    used = event_to_dict(GameConfigured(target_rule="exceeded", weis_card_once=True, prior_totals=(5, 6)))
    assert (used["target_rule"], used["weis_card_once"], used["prior_totals"]) == ("exceeded", True, [5, 6])
    assert parse_event(used) == GameConfigured(target_rule="exceeded", weis_card_once=True, prior_totals=(5, 6))
