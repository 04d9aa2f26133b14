"""The table's layout (which image edge each seat sits at) travels in the game's log and
in its recording, so replay, demo and re-scoring read the camera against the right edges."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from jasscam.replay import replay_frames, replay_recording
from scoring.events import CardPlayed, Event, EventError, GameConfigured, RoundStarted, dumps, loads, parse_event
from scoring.game import fold
from tests.tracker.table import H, Table, W
from vision.detection import Detection
from vision.recording import Recording, RecordingWriter
from vision.tracker.layout import TableLayout, recorded_layout

TOP_FIRST = ("top", "left", "bottom", "right")  # seat 0 at the top, play counter-clockwise
TRICK = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]


def test_game_configured_records_the_seat_edges() -> None:
    config = GameConfigured(seat_edges=TOP_FIRST)
    again = loads(dumps(config))
    assert isinstance(again, GameConfigured) and again.seat_edges == TOP_FIRST
    assert recorded_layout([again]) == TableLayout(edges=TOP_FIRST)


def test_a_log_from_before_the_layout_was_logged_still_reads() -> None:
    old = parse_event({"type": "game_configured", "v": 1, "players": ["A", "B", "C", "D"]})
    assert isinstance(old, GameConfigured) and old.seat_edges is None
    assert recorded_layout([old]) is None
    assert "seat_edges" not in dumps(GameConfigured())  # unset: nothing an older reader would refuse


@pytest.mark.parametrize(
    "edges", [["top", "top", "bottom", "right"], ["top", "left", "bottom"], "top", ["up", "left", "bottom", "right"]]
)
def test_seat_edges_that_do_not_name_each_edge_once_are_refused(edges: object) -> None:
    with pytest.raises(EventError, match="seat_edges"):
        parse_event({"type": "game_configured", "seat_edges": edges})


def _table_seat0_at_top() -> Table:
    """One trick at a table whose seat 0 sits at the top edge of the image.

    The scripted table's positions are named for the default layout (0 bottom, 1 right,
    2 top, 3 left); seat ``s`` here sits where the default's seat ``s + 2`` would.
    """
    table = Table()
    for seat, card in TRICK:
        table.lay(card, (seat + 2) % 4, rest=8)
    table.step(4)
    table.sweep((2 + 2) % 4)
    table.step(3)
    return table


def _replay(table: Table, truth: list[Event], layout: dict[str, object] | None) -> list[Event]:
    frames = iter(table.frames)

    def video() -> Iterator[tuple[float, np.ndarray]]:
        blank = np.zeros((H, W, 3), np.uint8)
        for frame in table.frames:
            yield frame.t, blank

    def recognize(_image: np.ndarray) -> list[Detection]:
        return list(next(frames).detections)

    return replay_frames(video(), truth, recognize, seat_layout=layout, gate=False).camera_events


def test_a_game_with_seat_0_at_the_top_replays_right_only_with_its_layout() -> None:
    table = _table_seat0_at_top()
    truth: list[Event] = [GameConfigured(seat_edges=TOP_FIRST), RoundStarted(forehand=0, contract="eicheln", t=0.0)]
    right = _replay(table, truth, {"edges": list(TOP_FIRST)})
    state = fold([truth[0], truth[1], *right])
    assert [(e.seat, e.card) for e in right if isinstance(e, CardPlayed)] == TRICK
    assert state.flags == ()
    # Read against the default layout (seat 0 at the bottom), every hand comes in from the
    # edge of the seat opposite: the leader's card is taken for the wrong player's.
    wrong = _replay(table, truth, None)
    flags = fold([truth[0], truth[1], *wrong]).flags
    assert any(f.code == "out_of_turn" for f in flags)


def test_replay_takes_the_layout_from_the_recordings_log(tmp_path: Path) -> None:
    table = _table_seat0_at_top()
    folder = tmp_path / "rec"
    # recording.json says nothing of the seats (an older writer's default); the game's own
    # game_configured records them, and that is what counts.
    with RecordingWriter(folder, fps=10.0, width=W, height=H) as writer:
        for _ in table.frames:
            writer.write_frame(np.zeros((H, W, 3), np.uint8))
        writer.add_event(GameConfigured(seat_edges=TOP_FIRST))
        writer.add_event(RoundStarted(forehand=0, contract="eicheln", t=0.0))
    recording = Recording.open(folder)
    assert recording.meta["seat_layout"]["0"] == "bottom"
    assert recording.seat_edges == TOP_FIRST
    frames = iter(table.frames)
    result = replay_recording(recording, lambda _img: list(next(frames).detections), gate=False)
    state = fold([*recording.events, *result.camera_events])
    assert [(e.seat, e.card) for e in result.camera_events if isinstance(e, CardPlayed)] == TRICK
    assert state.flags == ()


def test_an_old_recording_without_the_layout_in_its_log_keeps_its_metadata(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    layout = {"0": "left", "1": "bottom", "2": "right", "3": "top"}
    with RecordingWriter(folder, fps=10.0, width=64, height=48, seat_layout=layout) as writer:
        writer.write_frame(np.zeros((48, 64, 3), np.uint8))
        writer.add_event(GameConfigured())
    assert Recording.open(folder).seat_edges == ("left", "bottom", "right", "top")
