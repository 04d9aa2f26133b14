"""The renderer's camera mountings: the guide's geometry and the range around it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.recognizer.scale import card_length
from vision.synth.game import render_game
from vision.synth.geometry import GUIDE, Geometry, guide_range, random_geometry
from vision.synth.scene import render_scene


def test_cards_at_the_guides_mounting_are_a_tenth_of_the_short_side() -> None:
    scene = render_scene(5, style="clean", geometry=GUIDE)
    assert scene.image.shape == (960, 1280, 3)
    lengths = [card_length(c.corners) for c in scene.cards if c.visible > 0.9]
    assert lengths and all(0.07 * 960 <= x <= 0.12 * 960 for x in lengths), lengths


def test_random_mountings_cover_the_resolutions_and_card_sizes_of_real_installations() -> None:
    rng = np.random.default_rng(0)
    geos = [random_geometry(rng) for _ in range(300)]
    sizes = {(g.width, g.height) for g in geos}
    assert (640, 480) in sizes and (1920, 1080) in sizes and (1280, 720) in sizes
    assert {g.lens for g in geos} == {"module3", "wide"}
    lengths = [g.card_length(rng) / min(g.width, g.height) for g in geos]
    assert min(lengths) < 0.08 and max(lengths) > 0.3
    assert all(
        0.07 <= g.card_length(rng) / min(g.width, g.height) <= 0.14 for g in (guide_range(rng) for _ in range(50))
    )


def test_the_wide_lens_bends_more_than_the_module_3() -> None:
    rng = np.random.default_rng(1)
    wide = Geometry(1280, 960, (0.1, 0.1), "wide")
    normal = Geometry(1280, 960, (0.1, 0.1), "module3")
    assert min(wide.distortion_steps(rng) for _ in range(50)) > max(normal.distortion_steps(rng) for _ in range(50))


@pytest.mark.parametrize(
    "kwargs",
    [{"width": 32, "height": 480}, {"card_fraction": (0.3, 0.1)}, {"lens": "fisheye"}, {"tilt": -1.0}],
)
def test_an_impossible_mounting_is_refused(kwargs: dict) -> None:
    args = {"width": 640, "height": 480, "card_fraction": (0.1, 0.2)} | kwargs
    with pytest.raises(ValueError):
        Geometry(**args)


def test_tricks_at_the_guides_mounting_lie_close_about_the_centre() -> None:
    near = []
    for seed in range(6):
        scene = render_scene(100 + seed, style="clean", geometry=Geometry(640, 480, (0.1, 0.1), tilt=0.0))
        for c in scene.cards:
            if c.role == "trick":
                near.append(np.linalg.norm(np.asarray(c.corners).mean(axis=0) - [320, 240]) / 48.0)
    assert near and np.median(near) < 1.6, near


def test_a_rendered_game_defaults_to_the_guides_mounting(tmp_path: Path) -> None:
    render_game(3, tmp_path / "g", size=(160, 120), fps=3)
    meta = json.loads((tmp_path / "g" / "recording.json").read_text())
    assert meta["camera"]["layout"] == "near-centre"
    assert 0.085 * 120 <= meta["camera"]["card_length_px"] <= 0.1 * 120 + 0.01
