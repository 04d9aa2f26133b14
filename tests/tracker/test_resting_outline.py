"""A card lying still stays at rest while its outline shifts a little.

The hand laying the next card covers an edge of the card before, and the detector then
outlines what shows: the outline's centre moves by a tenth of the card's size or more for
a frame or two while the card itself has not moved. Taken for a move, that started the
card's rest anew; laid just before the next card, which then covered it, such a card
never lay still long enough to count, and the next card took its seat (rendered games
with the players' habits, oracle detections, lost tricks so; measured: CHANGELOG.md,
"A card lying still stays at rest through a shift of its outline"). A card pushed or
straightened moves by more than ``TrackerConfig.rest_tolerance`` of its size.
"""

from __future__ import annotations

from tests.tracker.table import detection
from vision.tracker.config import TrackerConfig
from vision.tracker.tracks import Track, card_size

CONFIG = TrackerConfig()
PLACE = (320.0, 300.0)


def laid_then_outlined_off(shift: float) -> Track:
    """A card at rest three frames, then outlined with its centre ``shift`` of its size
    off, then where it lies again."""
    size = card_size(detection("rosen-7", PLACE).corners)
    track = Track.start(1, detection("rosen-7", PLACE), 0.0)
    for i in range(1, 4):
        track.observe(detection("rosen-7", PLACE), i / 10, CONFIG)
    track.observe(detection("rosen-7", (PLACE[0] + shift * size, PLACE[1])), 0.4, CONFIG)
    track.observe(detection("rosen-7", PLACE), 0.5, CONFIG)
    return track


def test_an_outline_shifted_by_a_ninth_of_the_card_leaves_it_at_rest() -> None:
    track = laid_then_outlined_off(1 / 9)
    assert track.rest_frames == 6
    assert track.rest_t == 0.0


def test_a_card_moved_by_a_sixth_of_its_size_rests_anew() -> None:
    track = laid_then_outlined_off(1 / 6)
    assert track.rest_frames == 1
    assert track.rest_t == 0.5
