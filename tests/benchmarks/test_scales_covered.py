"""The scales benchmark's reads of faces partly covered, beside its per-length figures."""

from __future__ import annotations

import numpy as np

from benchmarks.scales import Tally
from vision.detection import Detection
from vision.synth.scene import CardTruth


def _card(x: float, visible: float, card: str) -> CardTruth:
    q = np.array([[x, 100], [x + 40, 100], [x + 40, 160], [x, 160]], np.float32)
    return CardTruth(card, q, (x, 100, x + 40, 160), visible)


def _det(x: float, card: str) -> Detection:
    q = ((x, 100.0), (x + 40, 100.0), (x + 40, 160.0), (x, 160.0))
    return Detection(card=card, confidence=0.9, box=(x, 100, x + 40, 160), corners=q)


class _Scene:
    def __init__(self, cards: list[CardTruth]) -> None:
        self.cards = cards


def test_partly_covered_faces_are_counted_by_how_much_shows_and_not_among_the_length_bins() -> None:
    cards = [
        _card(0, 1.0, "rosen-6"),
        _card(100, 0.6, "rosen-7"),  # read as the 6 next to it
        _card(200, 0.55, "schilten-9"),
        _card(300, 0.4, "eicheln-ass"),  # not found
        _card(400, 0.6, "back"),  # a back has no name to get wrong
        _card(500, 0.2, "rosen-ober"),  # too little in view to count
    ]
    dets = [_det(0, "rosen-6"), _det(100, "rosen-6"), _det(200, "schilten-9"), _det(400, "back")]
    tally = Tally()
    tally.add(_Scene(cards), dets)  # type: ignore[arg-type]
    assert tally.covered == {(0.3, 0.5): [1, 0, 0], (0.5, 0.7): [2, 2, 1]}
    assert tally.total()[0] == 1  # the per-length figures keep to cards 70 % in view
