"""Rendered games: the events fold to the simulator's score, and their times match the video."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from jasscam.cli import main as cli
from scoring.events import CardPlayed, RoundStarted, TrickCollected
from scoring.game import fold
from vision.recording import Recording
from vision.synth import props
from vision.synth.game import Director, make_table, render_game, simulate_game

DEMO = Path(__file__).resolve().parents[2] / "jasscam" / "data" / "demo-recording"


def _round_points(events: list) -> list[int]:
    return [r.score.raw[0].tricks + r.score.raw[1].tricks for r in fold(events).rounds]


def test_rendered_round_folds_to_the_simulators_score_and_157_points(tmp_path: Path) -> None:
    summary = render_game(3, tmp_path / "game", size=(160, 120), fps=5)
    rec = Recording.open(tmp_path / "game")
    assert rec.frame_count == summary["frames"] and rec.meta["ground_truth"] is True
    state = fold(rec.events)
    assert not state.flags
    assert state.totals == fold(summary["simulated"]).totals
    assert state.rounds[0].score.match_team is None and _round_points(rec.events) == [157]
    assert sum(isinstance(e, CardPlayed) for e in rec.events) == 36
    assert sum(isinstance(e, TrickCollected) for e in rec.events) == 9
    times = [e.t for e in rec.events]
    assert all(t is not None for t in times)
    assert times == sorted(times)  # type: ignore[type-var]
    assert times[-1] < rec.duration  # type: ignore[operator]


def test_event_times_are_when_the_camera_sees_it() -> None:
    """card_played.t: first frame with the card at rest and uncovered; trick_collected.t: first frame without cards."""
    fps = 5.0
    rng = np.random.default_rng(11)
    table = make_table(rng, 160, 120, "swiss-xvii", "clean")
    director = Director(table, fps, rng)
    labels = [lab for _, lab in director.run(simulate_game(11))]
    in_trick = 0
    for ev in director.timed:
        if isinstance(ev, CardPlayed):
            assert ev.t is not None
            i = round(ev.t * fps)
            label = in_trick + 1
            in_trick += 1
            assert (labels[i] == label).any(), f"{ev.card} not in view at its t"
            before = labels[i - 1]
            quad_hidden = not (before == label).any() or (before == props.OCCLUDER).any()
            assert quad_hidden, f"{ev.card}: already uncovered one frame before its t"
        elif isinstance(ev, TrickCollected):
            assert ev.t is not None
            i = round(ev.t * fps)
            assert not any((labels[i] == k).any() for k in range(1, 5)), "cards still in view at trick_collected.t"
            before = labels[i - 1]  # the cards were still there, in view or under the sweeping hand
            assert any((before == k).any() for k in range(1, 5)) or (before == props.OCCLUDER).any(), (
                "cards gone before trick_collected.t"
            )
            in_trick = 0
    assert in_trick == 0


def test_speck_game_shows_the_bodentrumpf_and_folds(tmp_path: Path) -> None:
    summary = render_game(4, tmp_path / "speck", size=(128, 96), fps=4, variant="speck")
    rec = Recording.open(tmp_path / "speck")
    start = next(e for e in rec.events if isinstance(e, RoundStarted))
    assert start.bodentrumpf is not None
    assert fold(rec.events).totals == fold(summary["simulated"]).totals


def test_same_seed_gives_the_same_recording(tmp_path: Path) -> None:
    a = render_game(5, tmp_path / "a", size=(96, 64), fps=3, contract="obenabe")
    b = render_game(5, tmp_path / "b", size=(96, 64), fps=3, contract="obenabe")
    assert a["events"] == b["events"] and a["frames"] == b["frames"]
    fa, fb = next(iter(Recording.open(tmp_path / "a"))), next(iter(Recording.open(tmp_path / "b")))
    assert np.array_equal(fa[1], fb[1])
    assert all(e.contract == "obenabe" for e in a["events"] if isinstance(e, RoundStarted))


def test_render_game_command_writes_a_replayable_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cmd"
    assert (
        cli(
            [
                "render-game",
                "--seed",
                "2",
                "--out",
                str(out),
                "--size",
                "96x64",
                "--fps",
                "3",
                "--contract",
                "rosen",
                "--rounds",
                "2",
            ]
        )
        == 0
    )
    assert "wrote" in capsys.readouterr().out
    rec = Recording.open(out)
    assert [e.contract for e in rec.events if isinstance(e, RoundStarted)] == ["rosen", "rosen"]
    assert all(p in (157, 257) for p in _round_points(rec.events))  # 257: a match (all nine tricks)
    assert cli(["render-game", "--seed", "2", "--out", str(out), "--size", "96x64"]) == 2
    assert "already exists" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli(["render-game", "--seed", "2", "--out", str(tmp_path / "x"), "--size", "95x64"])


def test_bundled_demo_recording_is_a_full_round_of_a_few_mb() -> None:
    rec = Recording.open(DEMO)
    size = sum(p.stat().st_size for p in DEMO.iterdir())
    assert size < 12_000_000
    # The hardware guide's mounting: 1280 x 960, a card about 90 px long.
    assert (rec.width, rec.height) == (1280, 960) and rec.frame_count > 500 and rec.finished
    assert 80 <= rec.meta["camera"]["card_length_px"] <= 100
    assert sum(isinstance(e, CardPlayed) for e in rec.events) == 36
    assert sum(isinstance(e, TrickCollected) for e in rec.events) == 9
    assert _round_points(rec.events) == [157]
    frames = rec.frames()
    t, first = next(frames)
    assert t == 0.0 and first.shape == (960, 1280, 3)


def test_a_game_can_be_rendered_with_a_procedural_benchmark_deck(tmp_path: Path) -> None:
    from vision.synth.other_decks import other_deck

    table = make_table(np.random.default_rng(0), 160, 120, "flat-swiss", "clean")
    assert np.array_equal(table.cards.get("eicheln-ober", 0), other_deck("flat-swiss")["eicheln-ober"][0])
    render_game(6, tmp_path / "flat", size=(96, 64), fps=3, deck="flat-swiss")
    assert Recording.open(tmp_path / "flat").meta["deck"] == "flat-swiss"
    with pytest.raises(ValueError, match="unknown deck 'tarot'"):
        render_game(6, tmp_path / "tarot", size=(96, 64), fps=3, deck="tarot")


def test_a_game_of_many_rounds_ends_where_a_team_reaches_the_target() -> None:
    # This seed's third round takes a team past 1000: a fourth round would be refused.
    events = simulate_game(5_000_100, rounds=4)
    state = fold(events)
    assert state.game_over is not None
    assert sum(isinstance(e, RoundStarted) for e in events) == 3
