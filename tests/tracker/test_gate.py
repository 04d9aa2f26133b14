"""The frame-difference gate that lets replay skip unchanged frames."""

from __future__ import annotations

import numpy as np
import pytest

from vision.tracker.gate import FrameGate


def table(seed: int = 0, noise: float = 4.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = np.full((480, 640, 3), 90, np.float32)
    return np.clip(base + rng.normal(0, noise, base.shape), 0, 255).astype(np.uint8)


def test_first_frame_always_goes_through() -> None:
    assert FrameGate().changed(table())


def test_sensor_noise_alone_is_not_a_change() -> None:
    gate = FrameGate(max_skip=100)
    gate.changed(table(0))
    assert not any(gate.changed(table(seed)) for seed in range(1, 20))
    assert (gate.passed, gate.skipped) == (1, 19)


def test_a_card_laid_is_a_change() -> None:
    gate = FrameGate(linger=0)
    frame = table(0)
    gate.changed(frame)
    with_card = table(1)
    with_card[300:376, 300:350] = 240  # a 50x76 px white card
    assert gate.changed(with_card)
    assert not gate.changed(with_card)


def test_slow_drift_is_caught_against_the_last_frame_let_through() -> None:
    gate = FrameGate(threshold=6.0, linger=0)
    base = table(0, noise=0.0)
    gate.changed(base)
    results = []
    for step in range(1, 6):
        frame = base.copy()
        frame[100:164, 100:164] = 90 + 3 * step  # creeping shadow, 3 grey levels a frame
        results.append(gate.changed(frame))
    assert results[:2] == [False, False] and True in results


def test_max_skip_forces_a_frame_through() -> None:
    gate = FrameGate(max_skip=3, linger=0)
    frame = table()
    assert [gate.changed(frame) for _ in range(8)] == [True, False, False, False, True, False, False, False]


def test_frames_just_after_a_change_are_looked_at_too() -> None:
    gate = FrameGate(linger=2, max_skip=100)
    frame = table(0)
    gate.changed(frame)
    with_card = table(0)
    with_card[300:376, 300:350] = 240
    assert [gate.changed(with_card) for _ in range(5)] == [True, True, True, False, False]


@pytest.mark.parametrize("kwargs", [{"block": 0}, {"threshold": 0}, {"max_skip": -1}, {"linger": -1}])
def test_bad_settings_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        FrameGate(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("block", [1, 5, 8, 16])
def test_any_block_size_gives_a_thumbnail(block: int) -> None:
    thumb = FrameGate(block=block).thumbnail(table())
    assert thumb.shape == (480 // block, 640 // block)
    assert 80 < float(thumb.mean()) < 100
