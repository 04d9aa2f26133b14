"""Comparing camera events with a recording's ground truth through the rules engine."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scoring.events import (
    CardCorrected,
    CardPlayed,
    Event,
    GameConfigured,
    RoundStarted,
    StoeckCalled,
    TrickCollected,
    WeisDeclared,
)
from scoring.simulate import round_events
from tests.tracker.table import detection
from vision.detection import FrameDetections
from vision.tracker.evaluate import READ_MARGIN_S, compare, merge, never_read


def truth_round(seed: int = 3, contract: str = "eicheln") -> list[Event]:
    events: list[Event] = [GameConfigured()]
    events += round_events(random.Random(seed), contract, 0)
    # Give every event a time: one card per second.
    t = 0.0
    out: list[Event] = []
    for ev in events:
        if isinstance(ev, CardPlayed):
            t += 1.0
        out.append(replace(ev, t=t))
    return out


def camera_view(truth: list[Event], delay: float = 0.3) -> list[Event]:
    return [
        replace(ev, t=(ev.t or 0.0) + delay, source="camera")
        if isinstance(ev, CardPlayed)
        else replace(ev, t=(ev.t or 0.0) + delay)
        for ev in truth
        if isinstance(ev, (CardPlayed, TrickCollected))
    ]


def test_perfect_camera_gets_every_trick_and_the_exact_score() -> None:
    truth = truth_round()
    result = compare(truth, camera_view(truth))
    assert len(result.tricks) == 9 and result.tricks_right == 9
    assert len(result.rounds) == 1 and result.rounds_exact == 1
    assert result.latency(0.5) == pytest.approx(0.3) and result.cards_unmatched == 0
    assert result.rejected == []


def misread_first_card(cam: list[Event]) -> tuple[int, CardPlayed, str]:
    """Make the camera's first card a misread; (its position, the true event, the misread id)."""
    first = next(i for i, e in enumerate(cam) if isinstance(e, CardPlayed))
    card = cam[first]
    assert isinstance(card, CardPlayed)
    wrong = next(c for c in ("rosen-ass", "schellen-ass", "schilten-6") if c != card.card)
    cam[first] = replace(card, card=wrong)
    return first, card, wrong


def test_one_wrong_card_fails_its_trick_and_the_score() -> None:
    truth = truth_round()
    cam = camera_view(truth)
    misread_first_card(cam)
    result = compare(truth, cam)
    assert result.tricks_right <= 8
    assert not result.tricks[0].ok


def test_missing_card_is_unmatched_and_refused_collection_is_counted() -> None:
    truth = truth_round()
    cam = camera_view(truth)
    first = next(i for i, e in enumerate(cam) if isinstance(e, CardPlayed))
    del cam[first]
    result = compare(truth, cam)
    assert result.cards_unmatched == 1
    assert result.rejected  # collecting a three-card trick is refused
    assert result.rounds_exact == 0


def test_merge_keeps_weis_in_the_first_trick_however_late_the_camera_is() -> None:
    truth = truth_round(seed=5)
    cam = camera_view(truth, delay=5.0)
    merged = merge(truth, cam)
    kinds = [type(e) for e in merged]
    for i, ev in enumerate(truth):
        if isinstance(ev, WeisDeclared):
            before_truth = sum(1 for e in truth[:i] if isinstance(e, (CardPlayed, TrickCollected)))
            j = merged.index(ev)
            assert sum(1 for k in kinds[:j] if k in (CardPlayed, TrickCollected)) == before_truth
    assert isinstance(merged[0], GameConfigured) and isinstance(merged[1], RoundStarted)


def test_a_camera_correction_is_renumbered_into_the_merged_game() -> None:
    truth = truth_round()
    cam = camera_view(truth)
    first, card, wrong = misread_first_card(cam)
    # Three cards later the tracker's reread corrects it; the ref points into ``cam``.
    cam.insert(first + 4, CardCorrected(ref=first, card=card.card, t=5.0))
    merged = merge(truth, cam)
    fix = next(e for e in merged if isinstance(e, CardCorrected))
    target = merged[fix.ref]
    assert isinstance(target, CardPlayed) and target.card == wrong
    result = compare(truth, cam)
    assert result.tricks_right == 9 and result.rounds_exact == 1 and result.rejected == []
    assert result.corrected == 1


def two_rounds() -> list[Event]:
    """Two rounds of a game, a card a second, the second round started between them."""
    rng = random.Random(8)
    events: list[Event] = [GameConfigured(), *round_events(rng, "eicheln", 0), *round_events(rng, "rosen", 1)]
    t = 0.0
    out: list[Event] = []
    for ev in events:
        t += 1.0 if isinstance(ev, (CardPlayed, RoundStarted)) else 0.0
        out.append(replace(ev, t=t))
    return out


def test_a_round_starts_at_its_time_when_the_camera_missed_a_card_of_the_round_before() -> None:
    truth = two_rounds()
    cam = camera_view(truth)
    # The fourth card of the first round's third trick was never seen: its trick is
    # collected with that seat's card unseen, and the rules engine deduces it.
    cards = [i for i, e in enumerate(cam) if isinstance(e, CardPlayed)]
    missed = cam[cards[11]]
    assert isinstance(missed, CardPlayed)
    collected = next(i for i in range(cards[11], len(cam)) if isinstance(cam[i], TrickCollected))
    collection = cam[collected]
    assert isinstance(collection, TrickCollected)
    cam[collected] = replace(collection, unseen=(missed.seat,))
    del cam[cards[11]]
    merged = merge(truth, cam)
    second = [e for e in truth if isinstance(e, RoundStarted)][1]
    start = merged.index(second)
    assert all((e.t or 0.0) < (second.t or 0.0) for e in merged[:start] if isinstance(e, CardPlayed))
    assert all((e.t or 0.0) > (second.t or 0.0) for e in merged[start:] if isinstance(e, CardPlayed))
    result = compare(truth, cam)
    assert [t.ok for t in result.tricks if t.round == 1] == [True] * 9


def test_a_stoeck_call_after_a_missed_card_still_follows_its_own_card() -> None:
    # 000 «Stöck ... beim Ausspielen der zweiten Karte»: the call is judged right after the
    # second card. The camera missed a card of the first trick and swept that trick with
    # one seat unseen; the call must not slide one card on, where the next card covers it.
    truth = truth_round(seed=8)
    assert any(isinstance(e, StoeckCalled) for e in truth)
    cam = camera_view(truth)
    first = next(i for i, e in enumerate(cam) if isinstance(e, CardPlayed))
    missed = cam.pop(first)
    assert isinstance(missed, CardPlayed)
    swept = next(i for i, e in enumerate(cam) if isinstance(e, TrickCollected))
    collection = cam[swept]
    assert isinstance(collection, TrickCollected)
    cam[swept] = replace(collection, unseen=(missed.seat,))
    merged = merge(truth, cam)
    call = next(i for i, e in enumerate(merged) if isinstance(e, StoeckCalled))
    before = merged[call - 1]
    assert isinstance(before, CardPlayed) and before.seat == next(e.seat for e in truth if isinstance(e, StoeckCalled))
    result = compare(truth, cam)
    assert "stoeck_late" not in result.extra_flags


def frames_reading(truth: list[Event], *, skip: str | None = None, misread: str | None = None) -> list[FrameDetections]:
    """One frame a card: the frame at the moment each card came to rest, reading it (``skip``:
    no read of that card; ``misread``: that card read as the Rosen Ass or the Schellen Ass)."""
    frames = []
    for ev in truth:
        if not isinstance(ev, CardPlayed) or ev.card == skip:
            continue
        card = ev.card
        if card == misread:
            card = "rosen-ass" if card != "rosen-ass" else "schellen-ass"
        frames.append(FrameDetections(ev.t or 0.0, (detection(card, (320.0, 240.0)),), 640, 480))
    return frames


def test_a_trick_with_a_card_never_read_is_told_apart_from_tricks_whose_cards_were_all_read() -> None:
    truth = truth_round()
    cards = [e for e in truth if isinstance(e, CardPlayed)]
    hidden = cards[9].card  # the second card of the third trick, hidden under the next one
    assert never_read(truth, frames_reading(truth)) == set()
    assert never_read(truth, frames_reading(truth, skip=hidden)) == {(0, 2)}
    # Always read as another card is never read as itself either.
    assert never_read(truth, frames_reading(truth, misread=hidden)) == {(0, 2)}


def test_a_read_counts_for_a_trick_only_while_the_trick_lies_there() -> None:
    truth = truth_round()
    cards = [e for e in truth if isinstance(e, CardPlayed)]
    lead = cards[4]  # the second trick's lead, laid at 5 s; the first trick was collected at 4 s
    assert lead.t == 5.0 and READ_MARGIN_S == 0.5
    frames = [f for f in frames_reading(truth) if f.t != lead.t]

    def read_at(t: float) -> list[FrameDetections]:
        extra = FrameDetections(t, (detection(lead.card, (320.0, 240.0)),), 640, 480)
        return sorted([*frames, extra], key=lambda f: f.t)

    assert never_read(truth, read_at(4.7)) == set()  # seen coming in, 0.3 s before it lay
    assert never_read(truth, read_at(8.4)) == set()  # still seen as the trick is gathered
    assert never_read(truth, read_at(8.6)) == {(0, 1)}  # its trick collected at 8 s: too late
    assert never_read(truth, frames) == {(0, 1)}
