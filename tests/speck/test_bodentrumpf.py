"""The camera's Bodentrumpf proposal: one face-up card alone on the table, read steadily."""

from __future__ import annotations

import pytest

from scoring.events import CardPlayed, Event, GameConfigured, RoundStarted
from tests.speck.conftest import PLAYERS, speck_events
from vision.bodentrumpf import BodentrumpfWatcher, awaiting_bodentrumpf, propose_bodentrumpf
from vision.detection import BACK, Detection


def det(card: str, conf: float = 0.95, x: float = 100) -> Detection:
    return Detection(card, conf, (x, 100, x + 60, 190), ((x, 100), (x + 60, 100), (x + 60, 190), (x, 190)))


def test_the_single_face_up_card_among_backs_is_proposed() -> None:
    found = propose_bodentrumpf([det(BACK, 0.9, 0), det("schellen-ober", 0.91, 200), det(BACK, 0.8, 400)])
    assert found is not None and found.card == "schellen-ober" and found.confidence == pytest.approx(0.91)


@pytest.mark.parametrize(
    "dets",
    [
        [],
        [det(BACK)],
        [det("rosen-6", x=0), det("rosen-7", x=300)],  # two face-up cards: which one?
        [det("rosen-6", conf=0.3)],  # too unsure
    ],
    ids=["nothing", "only-backs", "two-face-up", "low-confidence"],
)
def test_no_proposal_unless_exactly_one_sure_face_up_card(dets: list[Detection]) -> None:
    assert propose_bodentrumpf(dets) is None


def test_bad_threshold_is_refused() -> None:
    with pytest.raises(ValueError, match="min_confidence"):
        propose_bodentrumpf([], min_confidence=2)
    with pytest.raises(ValueError, match="frames"):
        BodentrumpfWatcher(frames=0)


def test_watcher_proposes_after_steady_frames_keeps_it_when_picked_up_and_clears_when_play_starts() -> None:
    w = BodentrumpfWatcher(frames=3)
    assert w.update(1, [det("eicheln-9")]) is None
    assert w.update(1, [det("eicheln-9")]) is None
    got = w.update(1, [det("eicheln-9", 0.97)])
    assert got is not None and got.card == "eicheln-9" and got.frames == 3
    assert w.proposal(1) == {"card": "eicheln-9", "confidence": 0.97, "frames": 3}
    assert w.proposal(2) is None  # per game
    w.update(1, [])  # the dealer takes the card up again: the proposal stays
    assert w.proposal(1) is not None and w.proposal(1)["card"] == "eicheln-9"  # type: ignore[index]
    # a glimpse of another card does not replace it; a steady reading does
    w.update(1, [det("rosen-6")])
    assert w.proposal(1)["card"] == "eicheln-9"  # type: ignore[index]
    w.update(1, [det("rosen-6")])
    w.update(1, [det("rosen-6")])
    assert w.proposal(1)["card"] == "rosen-6"  # type: ignore[index]
    assert w.update(1, [det("rosen-6")], awaiting=False) is None
    assert w.proposal(1) is None


def test_a_card_seen_while_dealing_breaks_the_streak() -> None:
    w = BodentrumpfWatcher(frames=2)
    w.update(1, [det("schilten-ass")])
    w.update(1, [det("schilten-ass", x=0), det("rosen-10", x=300)])
    w.update(1, [det("schilten-ass")])
    assert w.proposal(1) is None


def test_awaiting_only_between_speck_games() -> None:
    cfg = GameConfigured(players=PLAYERS, variant="speck")
    assert awaiting_bodentrumpf([cfg])
    started: list[Event] = [cfg, RoundStarted(forehand=1, contract="rosen", bodentrumpf="rosen-9")]
    assert not awaiting_bodentrumpf(started)
    assert not awaiting_bodentrumpf([*started, CardPlayed(seat=1, card="rosen-6")])
    whole = speck_events(seed=1)
    first_done = next(i for i, e in enumerate(whole) if isinstance(e, RoundStarted) and i > 1)
    assert awaiting_bodentrumpf(whole[:first_done])
    assert not awaiting_bodentrumpf(whole)  # all 12 games played
    assert not awaiting_bodentrumpf([GameConfigured(players=PLAYERS)])
    assert not awaiting_bodentrumpf([])
