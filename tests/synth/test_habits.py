"""Rendered games with players' habits: each habit shows in the frames, the ground truth
stays honest and folds, and without habits a seed renders exactly as it always did."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

import vision.synth.game as game
from jasscam.cli import main as cli
from scoring.events import CardPlayed, Event, TrickCollected
from scoring.game import fold
from vision.recording import Recording
from vision.synth.game import Director, FrameState, Table, make_table, simulate_game
from vision.synth.game_table import any_in_view, uncovered
from vision.synth.geometry import GUIDE
from vision.synth.habits import HabitDirector, Habits
from vision.synth.scene import SEAT_DIRS

FPS = 5.0


@dataclass
class Rendered:
    director: Director
    states: list[FrameState]
    labels: list[np.ndarray]
    simulated: list[Event]

    @property
    def truth(self) -> list[Event]:
        return self.director.timed

    def frame(self, t: float | None) -> int:
        assert t is not None
        return round(t * FPS)

    def lying(self, i: int, card: str) -> bool:
        """``card`` lies on the table (at rest, not in a hand) in frame ``i``."""
        return any(c.card == card and c.lift == 0 for c in self.states[i].cards)

    @property
    def shown(self) -> Counter[str]:
        assert isinstance(self.director, HabitDirector)
        return self.director.shown

    def cards(self) -> list[CardPlayed]:
        return [e for e in self.truth if isinstance(e, CardPlayed)]


def _render(
    monkeypatch: pytest.MonkeyPatch, seed: int, habits: Habits | None, size: tuple[int, int] = (160, 120)
) -> Rendered:
    """One round at ``size``, every frame's state and label map kept (None: no habits at all)."""
    states: list[FrameState] = []
    original = game.render_frame

    def keep(table: Table, state: FrameState, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        states.append(state)
        return original(table, state, rng)

    monkeypatch.setattr(game, "render_frame", keep)
    rng = np.random.default_rng(seed)
    table = make_table(rng, *size, "swiss-xvii", "clean", None, "near-centre")
    director = Director(table, FPS, rng) if habits is None else HabitDirector(table, FPS, rng, seed, habits)
    events = simulate_game(seed)
    labels = [lab for _, lab in director.run(events)]
    return Rendered(director, states, labels, events)


def _check_truth(r: Rendered) -> None:
    """The truth folds to the simulator's score, 36 cards and 9 collections, each card timed
    at the first frame it lies at rest and uncovered."""
    state = fold(r.truth)
    assert not state.flags and state.totals == fold(r.simulated).totals
    assert len(r.cards()) == 36 and sum(isinstance(e, TrickCollected) for e in r.truth) == 9
    assert all(e.t is not None for e in r.truth)
    tb = r.director.table
    for ev in r.cards():
        i = r.frame(ev.t)
        now = next(c for c in r.states[i].cards if c.card == ev.card)
        assert now.lift == 0 and uncovered(tb, r.labels[i], now.pose), f"{ev.card} not at rest and clear at its t"
        before = [c for c in r.states[i - 1].cards if c.card == ev.card and c.lift == 0]
        assert not before or not uncovered(tb, r.labels[i - 1], before[0].pose), f"{ev.card} seen before its t"


def test_without_habits_a_seed_renders_the_frames_it_always_did() -> None:
    # Pinned digests of the plain renderer's frames and event times (a change to how a
    # plain game looks, or an OpenCV that draws differently, moves them).
    def digest(seed: int, w: int, h: int, fps: float, layout: str, style: str, limit: int | None) -> tuple[str, str]:
        rng = np.random.default_rng(seed)
        geometry = replace(GUIDE, width=w, height=h) if limit is not None else None
        director = Director(make_table(rng, w, h, "swiss-xvii", style, geometry, layout), fps, rng)
        frames = hashlib.sha256()
        for i, (frame, _) in enumerate(director.run(simulate_game(seed))):
            if limit is not None and i >= limit:
                break
            frames.update(frame.tobytes())
        times = repr([(type(e).__name__, e.t) for e in director.timed]).encode()
        return frames.hexdigest()[:16], hashlib.sha256(times).hexdigest()[:16]

    assert digest(8, 640, 480, 10.0, "near-centre", "clean", 30)[0] == "af043d196b7a9379"
    assert digest(11, 160, 120, 5.0, "apart", "hard", None) == ("3c160fa08230a4b4", "47ee127537461ffc")


def test_a_habit_director_without_habits_renders_as_the_plain_one(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _render(monkeypatch, 12, None, (96, 64))
    never = _render(monkeypatch, 12, Habits.only(), (96, 64))
    assert plain.truth == never.truth
    assert all(np.array_equal(a, b) for a, b in zip(plain.labels, never.labels, strict=True))


def test_overlap_the_next_hand_comes_in_while_the_last_withdraws(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _render(monkeypatch, 13, Habits.only(overlap=1.0))
    _check_truth(r)
    arms = r.director.table.arms
    played = r.cards()
    overlapped = 0
    for k, (ev, nxt) in enumerate(zip(played, played[1:], strict=False)):
        if (k + 1) % 4 == 0:
            continue  # the trick's last card: the trick is collected next
        coming = next(i for i, s in enumerate(r.states) if any(c.card == nxt.card for c in s.cards))
        overlapped += any(a.style is arms[ev.seat] for a in r.states[coming].arms)
    assert overlapped >= 24 and r.shown == {"overlap": 27}  # a quick withdraw may end first


def test_together_two_cards_come_to_rest_within_a_fraction_of_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _render(monkeypatch, 14, Habits.only(together=1.0))
    _check_truth(r)
    rest = {ev.card: next(i for i, _ in enumerate(r.states) if r.lying(i, ev.card)) for ev in r.cards()}
    played = [ev.card for ev in r.cards()]
    for k in range(9):
        trick = played[k * 4 : k * 4 + 4]
        for a, b in zip(trick, trick[1:], strict=False):
            assert 0.3 - 1e-9 <= (rest[b] - rest[a]) / FPS <= 0.6 + 1e-9, (a, b)


def test_nudge_a_laid_card_is_pushed_or_straightened_a_little(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _render(monkeypatch, 15, Habits.only(nudge=1.0))
    _check_truth(r)
    card_h = r.director.table.card_h
    played = r.cards()
    for ev, nxt in zip(played, played[1:], strict=False):
        if played.index(nxt) % 4 == 0:
            continue  # the next trick: this one was gathered in between
        at = [next(c.pose for c in r.states[r.frame(t)].cards if c.card == ev.card) for t in (ev.t, nxt.t)]
        moved = float(np.hypot(at[1].x - at[0].x, at[1].y - at[0].y)) / card_h
        turned = abs(at[1].angle - at[0].angle)
        assert moved <= 0.2 + 1e-6 and turned <= 15 + 1e-6, ev.card
        assert moved >= 0.05 - 1e-6 or turned >= 5 - 1e-6, f"{ev.card} was not nudged"


def test_take_back_a_wrong_card_shows_lies_still_and_never_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _render(monkeypatch, 16, Habits.only(take_back=1.0))
    _check_truth(r)
    played = r.cards()
    when = {ev.card: r.frame(ev.t) for ev in played}
    seat = {ev.card: ev.seat for ev in played}
    seen: dict[str, list[int]] = {}
    for i, state in enumerate(r.states):
        for c in state.cards:
            if c.lift == 0 and i < when[c.card] - 2 * FPS and (r.labels[i] == c.label).any():
                seen.setdefault(c.card, []).append(i)  # lying long before it was played
    mistakes = [(card, run) for card, at in seen.items() for run in np.split(at, np.flatnonzero(np.diff(at) > 1) + 1)]
    assert len(mistakes) == r.shown["take_back"] >= 20  # of the 32 cards whose player has cards to come
    for card, run in mistakes:
        assert len(run) >= FPS  # lay still a second or more
        # Taken back before the next card: the next card played is its player's right one.
        nxt = next(ev for ev in played if r.frame(ev.t) > run[-1])
        assert nxt.seat == seat[card] and nxt.card != card
        assert not any(c.card == card for c in r.states[when[nxt.card]].cards)


def test_left_lying_the_lead_comes_while_the_last_trick_lies(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _render(monkeypatch, 17, Habits.only(left_lying=1.0))
    _check_truth(r)
    truth, left = r.truth, 0
    old: list[str] = []
    for k, ev in enumerate(truth[:-1]):
        if isinstance(ev, CardPlayed):
            old = [*old, ev.card][-4:]
        if not isinstance(ev, TrickCollected):
            continue
        lead = truth[k + 1]
        assert isinstance(lead, CardPlayed)  # a trick's collection always before the next lead
        assert ev.t is not None and lead.t is not None and ev.t <= lead.t
        if all(r.lying(r.frame(lead.t), c) for c in old):
            left += 1
            # Counted as collected when the lead came in: its first frame in view.
            i = r.frame(ev.t)
            assert any(c.card == lead.card for c in r.states[i].cards)
            assert not any(c.card == lead.card for c in r.states[i - 1].cards)
    assert left == r.shown["left_lying"] >= 3


def test_pick_up_the_trick_vanishes_where_it_lies(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _render(monkeypatch, 18, Habits.only(pick_up=1.0))
    _check_truth(r)
    tb = r.director.table
    played = [ev.card for ev in r.cards()]
    collected = [ev for ev in r.truth if isinstance(ev, TrickCollected)]
    for k, ev in enumerate(collected):
        trick = set(played[k * 4 : k * 4 + 4])
        gone = r.frame(ev.t)
        last = [c for c in r.states[gone - 1].cards if c.card in trick]
        assert last and not any(c.card in trick for c in r.states[gone].cards)
        for c in last:  # the last frame they show: still near the centre, not swept to an edge
            assert np.hypot(c.pose.x - tb.centre[0], c.pose.y - tb.centre[1]) < tb.card_h
        assert any_in_view(tb, last)


def test_turn_up_the_last_trick_shows_again_near_its_winner_and_is_no_play(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _render(monkeypatch, 19, Habits.only(turn_up_last=1.0))
    _check_truth(r)
    last = r.truth[-1]
    assert isinstance(last, TrickCollected) and last.seat is not None
    tb = r.director.table
    trick = {ev.card for ev in r.cards()[-4:]}
    cleared = next(i for i in range(r.frame(last.t), len(r.states)) if not r.states[i].cards)
    after = range(cleared, len(r.states))
    shown = {c.card for i in after for c in r.states[i].cards}
    assert shown <= trick and 2 <= len(shown) <= 4
    lying = [i for i in after if all(r.lying(i, card) for card in shown) and not r.states[i].arms]
    assert len(lying) >= FPS  # a second or more, still
    edge = tb.centre + SEAT_DIRS[last.seat] * tb.half_extent(last.seat)
    for c in r.states[lying[0]].cards:
        assert np.hypot(*(edge - [c.pose.x, c.pose.y])) < np.hypot(*(tb.centre - [c.pose.x, c.pose.y]))
    assert not any_in_view(tb, r.states[-1].cards)  # taken away again


def test_render_game_with_habits_shows_several_and_its_truth_folds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "habits"
    assert cli(["render-game", "--seed", "44", "--out", str(out), "--size", "96x64", "--fps", "3", "--habits"]) == 0
    assert "wrote" in capsys.readouterr().out
    rec = Recording.open(out)
    assert rec.meta["generator"]["habits"]["take_back"] == Habits().take_back
    # The habits of each trick, for a benchmark to tell which habits its lost tricks had.
    by_trick = rec.meta["generator"]["habits_by_trick"]
    assert len(by_trick) == 9 and sum(sum(t.values()) for t in by_trick) >= 10
    lying = [i for i, t in enumerate(by_trick) if t.get("left_lying")]
    assert lying and all(by_trick[i + 1].get("led_on_lying") == 1 for i in lying)
    state = fold(rec.events)
    assert not state.flags and state.totals == fold(simulate_game(44)).totals
    assert sum(isinstance(e, CardPlayed) for e in rec.events) == 36
    # The same seed without habits is another video; the recording says which it is.
    plain = game.render_game(44, tmp_path / "plain", size=(96, 64), fps=3)
    assert "habits" not in Recording.open(tmp_path / "plain").meta["generator"]
    assert "habits_by_trick" not in Recording.open(tmp_path / "plain").meta["generator"]
    assert plain["frames"] != rec.frame_count


def test_a_seeded_game_with_habits_shows_several_of_them() -> None:
    rng = np.random.default_rng(44)
    director = HabitDirector(make_table(rng, 96, 64, "swiss-xvii", "clean", None, "near-centre"), 3.0, rng, 44)
    for _ in director.run(simulate_game(44)):
        pass
    assert len(director.shown) >= 5 and sum(director.shown.values()) >= 10


def test_each_tricks_habits_add_up_to_the_games_and_a_trick_left_lying_is_followed_by_one_led_on_it() -> None:
    rng = np.random.default_rng(44)
    director = HabitDirector(make_table(rng, 96, 64, "swiss-xvii", "clean", None, "near-centre"), 3.0, rng, 44)
    for _ in director.run(simulate_game(44)):
        pass
    tricks = director.by_trick
    assert len(tricks) == 10 and not tricks[-1]  # nine tricks, and the one to come
    led_on = Counter(led_on_lying=sum(t["led_on_lying"] for t in tricks))
    assert sum(tricks, Counter()) == director.shown + led_on
    lying = [i for i, t in enumerate(tricks) if t["left_lying"]]
    assert lying and all(tricks[i + 1]["led_on_lying"] == 1 for i in lying)
    assert sum(1 for t in tricks if t["led_on_lying"]) == len(lying)
