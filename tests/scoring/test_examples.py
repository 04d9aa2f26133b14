"""Every worked example of the rule texts (shared/rules/000..003) as a named test.

000 = Stöck rules, 001 = target, Match and multipliers, 002 = Speck Jass (see
test_speck.py), 003 = Weis. Each test names the passage it pins.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from scoring.events import CardPlayed, Event, StoeckCalled, TrickCollected
from scoring.game import GameState, fold
from scoring.simulate import round_events as random_round_events
from scoring.state import Blocks
from tests.scoring.support import card_event, configured, fill_hands, play_in_order, scripted_round
from tests.scoring.support import round_events as support_round_events

ALL_EICHELN = [f"eicheln-{r}" for r in ("under", "9", "ass", "koenig", "ober", "10", "8", "7", "6")]


def written(state: GameState, rnd: int = 0) -> tuple[dict[str, int], dict[str, int]]:
    row = state.sheet[rnd]
    return row.written[0].to_dict(), row.written[1].to_dict()


# ---------------------------------------------------------------- 001: rounds and Match


def test_001_all_nine_tricks_give_257() -> None:
    """«Team A gewinnt alle 9 Stiche ... Die Grundsumme der Runde beträgt damit 257 Punkte»."""
    state = fold(configured() + scripted_round({0: ALL_EICHELN}, "eicheln"))
    a, b = written(state)
    assert a == {"weis": 0, "stoeck": 0, "tricks": 257, "total": 257}
    assert b["total"] == 0
    assert state.sheet[0].match_team == 0


def test_001_eight_to_one_tricks_no_match_bonus_and_157_in_all() -> None:
    """«Eine Mannschaft gewinnt 8 Stiche und die andere 1 Stich ... kein Team erhält den Matchbonus»."""
    seat0 = [c for c in ALL_EICHELN if c != "eicheln-6"] + ["schellen-6"]
    seat1 = ["eicheln-6"] + [f"rosen-{r}" for r in ("6", "7", "8", "9", "10", "under", "ober")] + ["schellen-ass"]
    state = fold(configured() + scripted_round({0: seat0, 1: seat1}, "eicheln"))
    score = state.rounds[0].score
    assert score.tricks_won == (8, 1)
    assert score.match_team is None and score.last_trick_team == 1
    a, b = written(state)
    assert a["tricks"] + b["tricks"] == 157


def test_001_match_does_not_replace_last_trick_or_card_points() -> None:
    """«Der Bonus ersetzt weder die 5 Punkte für den letzten Stich noch die Kartenpunkte»."""
    score = fold(configured() + scripted_round({0: ALL_EICHELN}, "eicheln")).rounds[0].score
    assert score.card_points == (152, 0) and score.last_trick_team == 0 and score.match_team == 0


@pytest.mark.parametrize(("contract", "factor"), [("eicheln", 1), ("schellen", 2)])
def test_001_multiplier_applies_to_both_teams_whole_round(contract: str, factor: int) -> None:
    """«Bei Schellen und dem Faktor ×2 werden die Punkte beider Mannschaften ... mit ×2 gerechnet»."""
    events = configured() + scripted_round(
        {0: [f"{contract}-koenig", f"{contract}-ober"], 1: ["rosen-6", "rosen-7", "rosen-8"]},
        contract,
        weis=[(1, ["rosen-6", "rosen-7", "rosen-8"])],
        stoeck=True,
        seed=3,
    )
    state = fold(events)
    raw = state.rounds[0].score.raw
    a, b = written(state)
    assert raw[0].stoeck == 20 and raw[1].weis == 20
    assert a["stoeck"] == 20 * factor and b["weis"] == 20 * factor
    assert a["tricks"] == raw[0].tricks * factor and b["tricks"] == raw[1].tricks * factor


@pytest.mark.parametrize(("table", "obenabe", "undenufe"), [("default", 3, 4), ("common", 3, 3), ("ascending", 5, 6)])
def test_001_multiplier_tables_for_obenabe_and_undenufe(table: str, obenabe: int, undenufe: int) -> None:
    """«Nach der Standardtabelle ... Obenabe ×3 und Undenufe ×4; ... beide ×3; ... ×5 und ×6»."""
    events = configured(multipliers=table)
    events += scripted_round({}, "obenabe", 0, seed=1) + scripted_round({}, "undenufe", 1, seed=2)
    state = fold(events)
    assert [r.multiplier for r in state.rounds] == [obenabe, undenufe]
    assert state.sheet[0].written[0].tricks + state.sheet[0].written[1].tricks == 157 * obenabe


# ---------------------------------------------------------------- 000: Stöck


def test_000_stoeck_called_with_second_card_written_20() -> None:
    """Ablauf: König zuerst ohne Ansage, später den Ober, sofort «Stöck» → 20 Punkte."""
    events = configured() + scripted_round({0: ["rosen-koenig", "rosen-ober"]}, "rosen", stoeck=True, seed=5)
    state = fold(events)
    assert state.rounds[0].stoeck.status == "called"
    assert written(state)[0]["stoeck"] == 20
    assert not state.flags


def stoeck_round(collect: bool, seed: int = 5) -> tuple[list[Event], int]:
    events = configured() + scripted_round(
        {0: ["rosen-koenig", "rosen-ober"]}, "rosen", stoeck=False, seed=seed, collect=collect
    )
    second = max(card_event(events, "rosen-koenig"), card_event(events, "rosen-ober"))
    return events, second


def test_000_stoeck_called_before_next_card_is_in_time() -> None:
    """«Sagst du «Stöck», bevor diese Karte gespielt wird, ist die Meldung rechtzeitig»."""
    events, second = stoeck_round(collect=False)
    events.insert(second + 1, StoeckCalled(seat=0))
    state = fold(events)
    assert state.rounds[0].stoeck.status == "called" and written(state)[0]["stoeck"] == 20


def test_000_stoeck_lost_once_next_card_covers_it() -> None:
    """«Legt die nächste Person bereits eine Karte darauf, sind die Stöck verloren»."""
    events, second = stoeck_round(collect=False)
    assert isinstance(events[second + 1], CardPlayed)
    events.insert(second + 2, StoeckCalled(seat=0))
    state = fold(events)
    assert written(state)[0]["stoeck"] == 0
    assert state.rounds[0].stoeck.status == "missed"
    late = [f for f in state.flags if f.code == "stoeck_late"]
    assert len(late) == 1 and "gedeckt" in late[0].message


def test_000_stoeck_at_end_of_trick_or_at_accounting_is_too_late() -> None:
    """«Eine nachträgliche Ansage beim Ende des Stichs oder bei der Abrechnung gilt nicht»."""
    events, second = stoeck_round(collect=True)
    collect_at = next(i for i in range(second, len(events)) if isinstance(events[i], TrickCollected))
    late_trick = [*events[: collect_at + 1], StoeckCalled(seat=0), *events[collect_at + 1 :]]
    state = fold(late_trick)
    assert written(state)[0]["stoeck"] == 0 and state.flags[0].code == "stoeck_late"
    at_accounting = fold([*events, StoeckCalled(seat=0)])
    assert written(at_accounting)[0]["stoeck"] == 0 and at_accounting.flags[0].code == "stoeck_late"


def test_000_stoeck_called_with_first_card_is_too_early() -> None:
    """«Eine Ansage bei der ersten Karte ist zu früh» (the call must come with the second card)."""
    events, _ = stoeck_round(collect=True)
    first = min(card_event(events, "rosen-koenig"), card_event(events, "rosen-ober"))
    events.insert(first + 1, StoeckCalled(seat=0))
    state = fold(events)
    assert state.flags[0].code == "stoeck_early"
    assert written(state)[0]["stoeck"] == 0


def test_000_partner_may_not_call_stoeck() -> None:
    """«Die Ansage muss von der Person kommen, die beide Karten hält»."""
    events, second = stoeck_round(collect=False)
    events.insert(second + 1, StoeckCalled(seat=2))
    state = fold(events)
    assert written(state)[0]["stoeck"] == 0
    assert state.flags[0].code == "stoeck_not_holder"


def test_000_stoeck_window_is_open_only_until_covered() -> None:
    """The dashboard's button: open right after the second card, closed after the next one."""
    events, second = stoeck_round(collect=False)
    assert fold(events[: second + 1]).stoeck_window == 0
    assert fold(events[:second]).stoeck_window is None
    assert fold(events[: second + 2]).stoeck_window is None


def test_000_koenig_and_ober_of_different_suits_are_no_stoeck() -> None:
    """«Dasselbe gilt, wenn die beiden Karten aus verschiedenen Farben stammen»."""
    events = configured() + scripted_round({0: ["rosen-koenig", "eicheln-ober"]}, "rosen", seed=5)
    events.insert(card_event(events, "eicheln-ober") + 1, StoeckCalled(seat=0))
    state = fold(events)
    # Seat 0 has laid only one of Rosen König/Ober, so the call cannot count (too early as far as
    # the cards on the table show).
    assert written(state)[0]["stoeck"] == 0
    assert state.flags[0].code in ("stoeck_early", "stoeck_not_holder")
    assert state.rounds[0].stoeck.holder is None


@pytest.mark.parametrize("contract", ["obenabe", "undenufe"])
def test_000_no_stoeck_in_obenabe_or_undenufe(contract: str) -> None:
    """«Bei Obenabe und Undenufe gibt es keine Stöck», even with König and Ober of one suit."""
    events = configured() + scripted_round({0: ["rosen-koenig", "rosen-ober"]}, contract, seed=5)
    second = max(card_event(events, "rosen-koenig"), card_event(events, "rosen-ober"))
    events.insert(second + 1, StoeckCalled(seat=0))
    state = fold(events)
    assert state.rounds[0].stoeck.status == "unavailable"
    assert written(state)[0]["stoeck"] == 0 and state.flags[0].code == "stoeck_no_trump"


def test_000_stoeck_for_one_team_while_other_team_writes_best_weis() -> None:
    """«Das andere Team schreibt seinen Weis, dein Team schreibt die 20 Stöck»."""
    events = configured() + scripted_round(
        {
            1: ["rosen-koenig", "rosen-ober", "eicheln-6", "eicheln-7", "eicheln-8"],
            0: ["schellen-6", "schellen-7", "schellen-8", "schellen-9"],
        },
        "rosen",
        weis=[
            (0, ["schellen-6", "schellen-7", "schellen-8", "schellen-9"]),
            (1, ["eicheln-6", "eicheln-7", "eicheln-8"]),
        ],
        stoeck=True,
        seed=2,
    )
    state = fold(events)
    a, b = written(state)
    assert (a["weis"], a["stoeck"]) == (50, 0)
    assert (b["weis"], b["stoeck"]) == (0, 20)
    assert [w.status for w in state.rounds[0].weis] == ["counts", "loses"]


def test_000_tricks_last_trick_match_and_stoeck_in_the_same_round() -> None:
    """«Ein Team kann Kartenpunkte, den Zuschlag für den letzten Stich, den Match-Zuschlag und Stöck ... erhalten»."""
    state = fold(configured() + scripted_round({0: ALL_EICHELN}, "eicheln", stoeck=True))
    a, _ = written(state)
    assert a == {"weis": 0, "stoeck": 20, "tricks": 257, "total": 277}


def test_000_missed_stoeck_does_not_delete_weis() -> None:
    """«Ein Fehler bei den Stöck löscht ein vorhandenes Weis nicht»."""
    events = configured() + scripted_round(
        {0: ["rosen-koenig", "rosen-ober", "eicheln-6", "eicheln-7", "eicheln-8"]},
        "rosen",
        weis=[(0, ["eicheln-6", "eicheln-7", "eicheln-8"])],
        stoeck=False,
        seed=4,
    )
    state = fold(events)
    assert state.rounds[0].stoeck.status == "missed"
    assert written(state)[0]["weis"] == 20 and written(state)[0]["stoeck"] == 0


def test_003_stoeck_count_even_without_a_trick() -> None:
    """003: «Dabei spielt es keine Rolle, ob man ... einen Stich im Spiel erzielt» (Stöck need no trick)."""
    seat0 = [c for c in ALL_EICHELN if c not in ("eicheln-koenig", "eicheln-ober")] + ["rosen-ass", "schellen-ass"]
    events = configured(weis_needs_trick=True) + scripted_round(
        {0: seat0, 1: ["eicheln-koenig", "eicheln-ober"]}, "eicheln", stoeck=True, seed=1
    )
    state = fold(events)
    assert state.rounds[0].score.tricks_won == (9, 0)
    a, b = written(state)
    assert b == {"weis": 0, "stoeck": 20, "tricks": 0, "total": 20}
    assert a["tricks"] == 257


# ---------------------------------------------------------------- 000/001: end of the game


#: Both teams' blocks on the sheet: the totals before the last round, or what the last round wrote.
TeamBlocks = tuple[Blocks, Blocks]
#: Picks the target that makes an example out of (totals before, last round written), or None.
TargetSearch = Callable[[TeamBlocks, TeamBlocks], int | None]


def random_round(seed: int, contract: str, forehand: int) -> list[Event]:
    return random_round_events(random.Random(seed), contract, forehand, weis=False, stoeck=False)


def two_rounds(final: Callable[[int], list[Event]], want: TargetSearch, **config: object) -> tuple[list[Event], int]:
    """A first random round, then the round ``final(seed)``; searches (deterministically) for a
    pair where ``want(before, last)`` returns a target: the examples need both teams close
    to the target before the last round, which depends on the cards."""
    firsts = []
    for seed in range(60):
        first = random_round(seed, "eicheln", 3)
        firsts.append((first, fold(configured(target=100_000, **config) + first).sheet[0].totals))
    for fseed in range(40):
        last_events = final(fseed)
        last = fold(configured(target=100_000, **config) + last_events).sheet[0].written
        for first, before in firsts:
            target = want(before, last)
            if target is not None:
                return configured(target=target, **config) + first + last_events, target
    raise AssertionError("no suitable pair of rounds")


def test_001_weis_first_team_over_target_in_weis_block_wins_despite_fewer_points() -> None:
    """«Ein Weis kann den Schlussentscheid bestimmen, bevor Stöck und Stiche betrachtet werden»."""

    def final(seed: int) -> list[Event]:
        return scripted_round(
            {0: ["eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"]},
            "rosen",
            0,
            weis=[(0, ["eicheln-ass", "schilten-ass", "rosen-ass", "schellen-ass"])],
            seed=seed,
        )

    def want(before: TeamBlocks, last: TeamBlocks) -> int | None:
        target = before[0].total + last[0].weis
        b_after = before[1].total + last[1].total
        a_after = before[0].total + last[0].total
        if before[1].total < target <= b_after and b_after > a_after:
            return target
        return None

    events, target = two_rounds(final, want)
    state = fold(events)
    assert state.totals[1].total > state.totals[0].total >= target
    assert state.game_over is not None
    assert (state.game_over.winner, state.game_over.deciding_block) == (0, "weis")


def test_001_stoeck_decides_when_weis_does_not_even_if_other_team_has_more_trick_points() -> None:
    """«Team A hat einen gültig angesagten Stöck und Team B nicht. Team A gewinnt den Gleichlauf nach
    dem zweiten Block, auch wenn Team B im Stichblock mehr Punkte gesammelt hat»."""

    def final(seed: int) -> list[Event]:
        return scripted_round({0: ["eicheln-koenig", "eicheln-ober"]}, "eicheln", 0, stoeck=True, seed=seed)

    def want(before: TeamBlocks, last: TeamBlocks) -> int | None:
        target = before[0].total + last[0].stoeck
        if last[1].tricks > last[0].tricks and before[1].total < target <= before[1].total + last[1].total:
            return target
        return None

    events, _ = two_rounds(final, want)
    state = fold(events)
    assert state.sheet[1].written[1].tricks > state.sheet[1].written[0].tricks
    assert state.game_over is not None
    assert (state.game_over.winner, state.game_over.deciding_block) == (0, "stoeck")


def test_001_trick_block_decides_with_match_after_weis_and_stoeck_undecided() -> None:
    """«Beide Teams erreichen nach Weis und Stöck keinen Entscheid. Team A gewinnt alle 9 Stiche ...
    Der Stichblock entscheidet zugunsten von Team A»."""

    def final(seed: int) -> list[Event]:
        return scripted_round({0: ALL_EICHELN}, "eicheln", 0)

    def want(before: TeamBlocks, last: TeamBlocks) -> int | None:
        return before[0].total + last[0].total if before[1].total < before[0].total + 257 else None

    events, _ = two_rounds(final, want)
    state = fold(events)
    assert state.game_over is not None
    assert (state.game_over.winner, state.game_over.deciding_block) == (0, "tricks")
    assert state.sheet[1].match_team == 0


def weis_vs_stoeck_final(seed: int) -> list[Event]:
    return scripted_round(
        {0: ["schellen-6", "schellen-7", "schellen-8", "schellen-9"], 1: ["eicheln-koenig", "eicheln-ober"]},
        "eicheln",
        0,
        weis=[(0, ["schellen-6", "schellen-7", "schellen-8", "schellen-9"])],
        stoeck=True,
        seed=seed,
    )


def both_cross_early(before: TeamBlocks, last: TeamBlocks) -> int | None:
    target = max(before[0].total, before[1].total) + 1
    if before[0].total + last[0].weis >= target and before[1].total + last[1].stoeck >= target:
        return target
    return None


@pytest.mark.parametrize(
    ("order", "winner", "block"),
    [
        (("weis", "stoeck", "tricks"), 0, "weis"),
        (("stoeck", "weis", "tricks"), 1, "stoeck"),
    ],
)
def test_001_end_order_is_a_setting(order: tuple[str, ...], winner: int, block: str) -> None:
    """«Die Reihenfolge ist eine Tischkonvention»: Weis-Stöck-Stiche by default, others as settings."""
    events, _ = two_rounds(weis_vs_stoeck_final, both_cross_early, end_order=order)
    state = fold(events)
    assert state.game_over is not None
    assert (state.game_over.winner, state.game_over.deciding_block) == (winner, block)


def weis_against_tricks(before: TeamBlocks, last: TeamBlocks) -> int | None:
    """Team 0 gets over only with its Weis, team 1 only with its trick points."""
    target = before[0].total + last[0].weis
    if target <= max(before[0].total, before[1].total):
        return None
    a_weis = True
    a_tricks = before[0].total + last[0].tricks >= target
    b_tricks = before[1].total + last[1].tricks >= target
    b_stoeck = before[1].total + last[1].stoeck >= target
    return target if a_weis and not a_tricks and b_tricks and not b_stoeck else None


@pytest.mark.parametrize(
    ("order", "winner", "block"),
    [
        (("weis", "stoeck", "tricks"), 0, "weis"),
        (("tricks", "stoeck", "weis"), 1, "tricks"),
    ],
)
def test_001_tricks_first_order_turns_the_decision(order: tuple[str, ...], winner: int, block: str) -> None:
    """The same round decided by Weis (default order) or by the tricks (order Stiche-Stöck-Weis)."""
    events, _ = two_rounds(weis_vs_stoeck_final, weis_against_tricks, end_order=order)
    state = fold(events)
    assert state.game_over is not None
    assert (state.game_over.winner, state.game_over.deciding_block) == (winner, block)


def test_001_points_of_later_blocks_still_written_after_decision() -> None:
    """«Die Punkte aus Stöck und Stichen werden trotzdem in die Rundensumme eingetragen»."""
    events, _ = two_rounds(weis_vs_stoeck_final, both_cross_early)
    state = fold(events)
    last = state.sheet[1].written
    assert last[1].stoeck == 20 and last[0].tricks + last[1].tricks == 157


@pytest.mark.parametrize("target", [1000, 1500, 2500, 3000])
def test_001_targets_end_the_game_once_a_team_reaches_them(target: int) -> None:
    """«Gebräuchliche Zielpunkte sind 1000, 1500, 2500 und 3000»."""
    from scoring.simulate import random_game_events

    events = random_game_events(random.Random(target), target=target, max_rounds=200)
    state = fold(events)
    assert state.game_over is not None
    totals = [t.total for t in state.totals]
    assert max(totals) >= target
    before = state.sheet[-2].totals if len(state.sheet) > 1 else None
    assert before is None or max(b.total for b in before) < target


def last_card_stoeck_round() -> tuple[list[Event], int]:
    """Seat 0 lays its trump Ober, the second Stöck card, as the round's 36th card."""
    hands = fill_hands({0: ["rosen-koenig", "rosen-ober"]}, 46)
    hands[0] = [c for c in hands[0] if c not in ("rosen-koenig", "rosen-ober")] + ["rosen-koenig", "rosen-ober"]
    plays = play_in_order(hands, "rosen", 1)
    assert plays[-1] == (0, "rosen-ober")
    events = configured() + support_round_events(plays, "rosen", 1)
    last = card_event(events, "rosen-ober")
    return events, last


def test_000_stoeck_after_the_rounds_last_card_is_at_the_count_and_too_late() -> None:
    """«Eine nachträgliche Ansage beim Ende des Stichs oder bei der Abrechnung gilt nicht»:
    the 36th card completes the round, which is counted at once; a call after it is late
    even while the camera has not yet reported the last trick collected."""
    events, last = last_card_stoeck_round()
    assert isinstance(events[last + 1], TrickCollected)  # the collection came after the call
    late = [*events[: last + 1], StoeckCalled(seat=0), *events[last + 1 :]]
    state = fold(late)
    assert state.rounds[0].stoeck.status == "missed"
    assert written(state)[0]["stoeck"] == 0
    flag = next(f for f in state.flags if f.code == "stoeck_late")
    assert "gezählt" in flag.message
    no_collect = fold([*events[: last + 1], StoeckCalled(seat=0)])
    assert no_collect.rounds[0].stoeck.status == "missed" and no_collect.stoeck_window is None


def test_000_stoeck_window_of_an_earlier_trick_still_stays_until_covered() -> None:
    """«Sagst du «Stöck», bevor diese Karte gespielt wird, ist die Meldung rechtzeitig»:
    only the round's last card is counted at once; earlier tricks keep the window until
    the next card or the collection."""
    events, second = stoeck_round(collect=False)
    assert second < len(events) - 1
    events.insert(second + 1, StoeckCalled(seat=0))
    assert fold(events).rounds[0].stoeck.status == "called"


def test_000_stoeck_said_as_the_last_card_goes_down_counts() -> None:
    """«Du sagst in diesem Moment «Stöck», bevor die nächste Person ihre Karte legt»: the
    call recorded just before the camera's 36th card, with that seat's second card, counts."""
    events, last = last_card_stoeck_round()
    state = fold([*events[:last], StoeckCalled(seat=0), *events[last:]])
    assert state.rounds[0].stoeck.status == "called" and not state.flags
    assert written(state)[0]["stoeck"] == 20


def test_000_a_call_before_the_second_card_is_early_when_another_card_comes_first() -> None:
    """«Spielst du zuerst den Trumpfkönig, sagst du beim ersten Ausspielen nichts»: a call
    after the first card that is not followed at once by the second card is too early."""
    events, second = stoeck_round(collect=False)
    before = events[second - 1]
    assert not isinstance(before, CardPlayed) or before.seat != 0
    state = fold([*events[: second - 1], StoeckCalled(seat=0), *events[second - 1 :]])
    assert state.rounds[0].stoeck.status == "missed"
    assert [f.code for f in state.flags] == ["stoeck_early"]
