"""Seat assignment from where a card lies, and the table layout setting."""

from __future__ import annotations

import pytest

from tests.tracker.table import corners
from vision.tracker import TableLayout

W, H = 640, 480


@pytest.mark.parametrize(
    "point,seat",
    [((320, 400), 0), ((560, 240), 1), ((320, 60), 2), ((80, 240), 3), ((330, 300), 0), ((400, 250), 1)],
)
def test_default_layout_is_seat_0_bottom_then_counter_clockwise(point: tuple[float, float], seat: int) -> None:
    assert TableLayout().assign(point, W, H).seat == seat


def test_seats_are_decided_in_pixels_around_the_centre_like_a_square_table() -> None:
    # 150 px right and 60 px down: the right edge's, although relative to the wide image's
    # half-size (0.47 vs 0.25) it would be nearer the right too; 60 right 150 down: bottom.
    assert TableLayout().assign((470, 300), W, H).seat == 1
    assert TableLayout().assign((380, 390), W, H).seat == 0


def test_centre_measured_by_the_tracker_overrides_the_setting() -> None:
    assert TableLayout().assign((300, 300), W, H).seat == 0
    assert TableLayout().assign((300, 300), W, H, centre=(200.0, 290.0)).seat == 1


@pytest.mark.parametrize(
    "seat0,direction,edges",
    [
        ("bottom", "counter-clockwise", ("bottom", "right", "top", "left")),
        ("bottom", "clockwise", ("bottom", "left", "top", "right")),
        ("left", "ccw", ("left", "bottom", "right", "top")),
        ("top", "cw", ("top", "right", "bottom", "left")),
    ],
)
def test_layout_from_setting(seat0: str, direction: str, edges: tuple[str, ...]) -> None:
    assert TableLayout.from_setting(seat0, direction).edges == edges


def test_rotated_layout_assigns_seats_by_its_edges() -> None:
    layout = TableLayout.from_setting("left", "counter-clockwise")
    assert layout.assign((80, 240), W, H).seat == 0
    assert layout.assign((320, 400), W, H).seat == 1


def test_table_centre_setting_moves_the_dividing_lines() -> None:
    # Table centre low in the image: a card at y=300 is now above the centre.
    layout = TableLayout(centre=(0.5, 0.75))
    assert layout.assign((320, 300), W, H).seat == 2


def test_near_the_diagonal_the_cards_long_axis_decides_when_the_turn_does_not() -> None:
    point = (420.0, 315.0)  # about equally near the bottom and the right edge
    upright = TableLayout().assign(point, W, H, corners=corners(point, 0.0))
    sideways = TableLayout().assign(point, W, H, corners=corners(point, 90.0))
    assert (upright.seat, upright.by) == (0, "orientation")
    assert (sideways.seat, sideways.by) == (1, "orientation")
    # whose turn it is is neither of the two nearest edges (a card of the trick was missed)
    assert TableLayout().assign(point, W, H, corners=corners(point, 90.0), expected=2).seat == 1


def test_near_the_diagonal_whose_turn_it_is_decides_before_the_cards_long_axis() -> None:
    point = (420.0, 315.0)
    # still in the hand, held sideways, but it is the bottom seat's turn
    guess = TableLayout().assign(point, W, H, corners=corners(point, 90.0), expected=0)
    assert (guess.seat, guess.by) == (0, "turn")
    assert TableLayout().assign(point, W, H, corners=corners(point, 90.0), expected=0, exclude={0}).seat == 1


def test_upside_down_card_has_the_same_axis() -> None:
    point = (420.0, 315.0)
    assert TableLayout().assign(point, W, H, corners=corners(point, 180.0)).seat == 0


def test_diagonal_card_at_45_degrees_falls_back_to_whose_turn_it_is() -> None:
    point = (420.0, 315.0)
    guess = TableLayout().assign(point, W, H, corners=corners(point, 45.0), expected=1)
    assert (guess.seat, guess.by) == (1, "turn")


def test_turn_order_never_moves_a_card_that_clearly_lies_elsewhere() -> None:
    guess = TableLayout().assign((320, 420), W, H, expected=2)
    assert (guess.seat, guess.by) == (0, "position")


def test_seat_towards_a_direction() -> None:
    layout = TableLayout()
    assert [layout.seat_towards(v) for v in [(0, 1), (1, 0.2), (0, -3), (-2, 1)]] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "data,edges",
    [
        ({"edges": ["top", "left", "bottom", "right"]}, ("top", "left", "bottom", "right")),
        ({"seat0": "right", "direction": "clockwise"}, ("right", "bottom", "left", "top")),
        ({"0": "bottom", "1": "left", "2": "top", "3": "right"}, ("bottom", "left", "top", "right")),
    ],
)
def test_layout_from_settings_dict(data: dict[str, object], edges: tuple[str, ...]) -> None:
    layout = TableLayout.from_dict(data)
    assert layout.edges == edges
    assert TableLayout.from_dict(layout.to_dict()) == layout


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"edges": ("bottom", "bottom", "top", "left")}, "edges"),
        ({"centre": (1.2, 0.5)}, "centre"),
        ({"ambiguity_margin": 1.5}, "ambiguity_margin"),
    ],
)
def test_bad_layout_is_refused_naming_the_value(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TableLayout(**kwargs)  # type: ignore[arg-type]


def test_bad_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="seat0"):
        TableLayout.from_setting("middle")
    with pytest.raises(ValueError, match="direction"):
        TableLayout.from_setting("bottom", "sideways")
    with pytest.raises(ValueError, match="seat layout"):
        TableLayout.from_dict({"north": 0})


def test_seat_that_already_played_is_skipped_for_the_next_nearest_edge() -> None:
    guess = TableLayout().assign((320, 420), W, H, exclude={0})
    assert guess.by == "exclusion" and guess.seat in (1, 3)


def test_play_area_excludes_the_rim() -> None:
    layout = TableLayout()
    assert layout.in_play_area((320, 240), W, H)
    assert not layout.in_play_area((20, 240), W, H)
    assert not layout.in_play_area((320, 470), W, H)
