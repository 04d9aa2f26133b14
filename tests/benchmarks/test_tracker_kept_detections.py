"""The tracker benchmark's kept detections (``--detections``): a game's per-frame reads,
kept once, give the tracker alone the same result as the run that kept them."""

from __future__ import annotations

import pickle
from pathlib import Path

from benchmarks.tracker import _run_kept, _run_near
from tests.tracker.near import near_game


def test_a_kept_game_tracks_as_the_frames_it_was_kept_from(tmp_path: Path) -> None:
    seed = 5_000_007
    game = near_game(seed, rounds=1)
    kept = tmp_path / f"game-{seed}.pickle"
    with kept.open("wb") as f:
        pickle.dump({"frames": game.frames, "truth": game.truth, "edges": ["bottom", "right", "top", "left"]}, f)
    again = _run_kept(seed, "near", kept)
    direct = _run_near(seed, 1, 10.0)
    assert (again.tricks, again.tricks_right, again.rounds_exact) == (
        direct.tricks,
        direct.tricks_right,
        direct.rounds_exact,
    )
    assert again.tricks == 9
    assert again.frames == len(game.frames)


def test_a_kept_game_counts_its_lost_tricks_by_the_habits_kept_with_it(tmp_path: Path) -> None:
    seed = 5_000_007
    game = near_game(seed, rounds=1)
    kept = tmp_path / f"game-{seed}.pickle"
    data = {"frames": game.frames, "truth": game.truth, "edges": ["bottom", "right", "top", "left"]}
    with kept.open("wb") as f:
        pickle.dump({**data, "habits": [{"nudge": 1}] * 4 + [{}] * 5}, f)
    result = _run_kept(seed, "near", kept)
    lost = result.tricks - result.tricks_right
    assert result.habits["nudge"][0] == 4 and result.habits["none"][0] == 5
    assert result.habits["nudge"][1] + result.habits["none"][1] == lost
    # Kept before the habits were: no habit counted.
    with kept.open("wb") as f:
        pickle.dump(data, f)
    assert _run_kept(seed, "near", kept).habits == {}
