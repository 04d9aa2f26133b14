"""The arm stage on rendered frames: which image edge a hand reaches in from, and what is
no arm (cards lying on the table, a hand resting at the rim, the light changing)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.arms import ArmWatcher
from vision.synth.compose import Pose
from vision.synth.game import Arm, CardOnTable, FrameState, Table, make_table, render_frame
from vision.synth.geometry import GUIDE
from vision.synth.scene import SEAT_DIRS

EDGE_OF_SEAT = {0: "bottom", 1: "right", 2: "top", 3: "left"}
FPS = 10.0


@pytest.fixture(scope="module")
def table() -> Table:
    rng = np.random.default_rng(7)
    return make_table(rng, 320, 240, "swiss-xvii", "clean", replace(GUIDE, width=320, height=240), "near-centre")


def arm(table: Table, seat: int, reach: float) -> Arm:
    """``seat``'s arm with the fingertips ``reach`` of the way from beyond the edge to the centre."""
    away = table.seat_point(seat, 1.0)
    tip = away + (table.centre - away) * reach
    return Arm(table.ideal(table.seat_point(seat, 4.0)), table.ideal(tip), table.arms[seat])


def frame(table: Table, state: FrameState, seed: int = 0) -> np.ndarray:
    image, _ = render_frame(table, state, np.random.default_rng(seed))
    return image


class Clock:
    """Feeds frames to a watcher at 10 fps."""

    def __init__(self, watcher: ArmWatcher) -> None:
        self.watcher = watcher
        self.t = 0.0

    def see(self, image: np.ndarray) -> frozenset[str]:
        edges = self.watcher.update(image, self.t)
        self.t += 1.0 / FPS
        return edges


def card(table: Table, seat: int) -> CardOnTable:
    at = table.centre + SEAT_DIRS[seat] * table.card_h * 0.4
    return CardOnTable("rosen-ass", Pose(float(at[0]), float(at[1]), table.card_h, 90.0 * seat), 1)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_an_arm_reaching_in_is_seen_from_the_edge_its_player_sits_at(table: Table, seat: int) -> None:
    clock = Clock(ArmWatcher())
    empty = frame(table, FrameState())
    assert all(clock.see(empty) == frozenset() for _ in range(10))
    seen = [
        clock.see(frame(table, FrameState([], [arm(table, seat, reach)]), i)) for i, reach in enumerate((0.5, 0.8, 1.0))
    ]
    assert seen == [frozenset({EDGE_OF_SEAT[seat]})] * 3


def test_two_arms_at_once_are_both_seen(table: Table) -> None:
    clock = Clock(ArmWatcher())
    for _ in range(10):
        clock.see(frame(table, FrameState()))
    both = FrameState([], [arm(table, 0, 0.7), arm(table, 1, 0.6)])
    assert clock.see(frame(table, both)) == {"bottom", "right"}


def test_cards_laid_on_the_table_are_no_arm_and_the_arm_that_laid_them_leaves_no_ghost(table: Table) -> None:
    clock = Clock(ArmWatcher())
    for _ in range(10):
        clock.see(frame(table, FrameState()))
    laid = card(table, 2)
    # As a player lays a card: half a second in, a moment still on it, half a second out.
    reaches = [0.2, 0.4, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9, 0.8, 0.6, 0.4, 0.3]
    coming = [clock.see(frame(table, FrameState([laid], [arm(table, 2, r)]), i)) for i, r in enumerate(reaches)]
    assert coming[2:-2] == [frozenset({"top"})] * (len(reaches) - 4)  # well inward: seen
    assert all(edges <= {"top"} for edges in coming)
    after = [clock.see(frame(table, FrameState([laid]), i)) for i in range(30)]
    assert after == [frozenset()] * 30


def test_a_hand_resting_still_at_the_rim_fades_into_the_table(table: Table) -> None:
    watcher = ArmWatcher()
    clock = Clock(watcher)
    for _ in range(10):
        clock.see(frame(table, FrameState()))
    resting = frame(table, FrameState([], [arm(table, 3, 0.45)]))
    seen = [clock.see(resting) for _ in range(int(4 * watcher.still_s * FPS))]
    assert seen[0] == {"left"}
    assert seen[-1] == frozenset()
    # Once it goes, the table seen again where it rested fades in as quickly.
    empty = frame(table, FrameState())
    gone = [clock.see(empty) for _ in range(int(4 * watcher.still_s * FPS))]
    assert gone[-1] == frozenset()
    assert clock.see(frame(table, FrameState([], [arm(table, 1, 0.9)]))) == {"right"}


def test_the_light_changing_at_once_is_no_arm_and_becomes_the_table(table: Table) -> None:
    clock = Clock(ArmWatcher())
    empty = frame(table, FrameState([card(table, 0)]))
    for _ in range(10):
        clock.see(empty)
    darker = (empty * 0.55).astype(np.uint8)
    assert [clock.see(darker) for _ in range(5)] == [frozenset()] * 5
    assert clock.see(
        frame(table, FrameState([card(table, 0)], [arm(table, 0, 0.9)])).__mul__(0.55).astype(np.uint8)
    ) == {"bottom"}


def test_a_frame_out_of_time_order_starts_the_table_afresh(table: Table) -> None:
    watcher = ArmWatcher()
    empty = frame(table, FrameState())
    watcher.update(empty, 5.0)
    with_arm = frame(table, FrameState([], [arm(table, 0, 0.9)]))
    assert watcher.update(with_arm, 1.0) == frozenset()  # nothing to compare with yet


@pytest.mark.parametrize(
    "settings",
    [
        {"width": 8},
        {"width": 80.0},
        {"threshold": 0},
        {"reach": 1.5},
        {"min_area": -0.1},
        {"learn_s": 0},
        {"hold_s": float("inf")},
        {"reset_share": 0},
        {"settle_s": -1.0},
        {"relative": -0.1},
        {"relative": 2.0},
        {"floor": 0},
        {"floor": 30.0, "threshold": 20.0},
    ],
)
def test_settings_out_of_range_are_refused(settings: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        ArmWatcher(**settings)  # type: ignore[arg-type]


def test_a_frame_that_is_no_image_is_refused() -> None:
    with pytest.raises(ValueError, match="HxW"):
        ArmWatcher().update(np.zeros((1, 640, 3), np.uint8), 0.0)


def test_an_arm_is_seen_in_a_dim_room_as_in_a_bright_one(table: Table) -> None:
    # Dimmed to a tenth (a dark cloth in a dim room), skin and cloth differ a tenth as much:
    # a threshold fixed for a bright table sees nothing there.
    clock = Clock(ArmWatcher())
    dim = [(frame(table, FrameState()) * 0.1).astype(np.uint8) for _ in range(10)]
    assert [clock.see(image) for image in dim] == [frozenset()] * 10
    with_arm = frame(table, FrameState([card(table, 0)], [arm(table, 2, 0.8)]))
    assert clock.see((with_arm * 0.1).astype(np.uint8)) == {"top"}
    fixed = Clock(ArmWatcher(threshold=22.0, relative=0.0))
    assert [fixed.see(image) for image in dim] == [frozenset()] * 10
    assert fixed.see((with_arm * 0.1).astype(np.uint8)) == frozenset()


def test_the_threshold_follows_the_tables_brightness_between_its_floor_and_its_cap() -> None:
    watcher = ArmWatcher(threshold=22.0, relative=0.25, floor=6.0)
    levels = np.array([0.0, 40.0, 200.0], np.float32)
    watcher.update(np.repeat(np.repeat(levels[None, :, None], 3, axis=2), 40, axis=0).repeat(27, axis=1), 0.0)
    limit = np.asarray(watcher._limit())
    assert limit.min() == pytest.approx(6.0) and limit.max() == pytest.approx(22.0)
    assert 9.0 < float(np.median(limit)) < 11.0
    assert ArmWatcher(relative=0.0)._limit() == 22.0
