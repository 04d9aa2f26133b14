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
