"""Producers such as the recogniser hand numpy scalars into events; the JSON form stays plain."""

import json

import numpy as np

from scoring.events import CardPlayed, dumps, loads


def test_card_played_with_numpy_scalars_serialises_to_plain_json() -> None:
    event = CardPlayed(
        seat=1,
        card="rosen-10",
        t=np.float64(1.5),
        # numpy's float32 is no Python float: what a producer may hand in, on purpose
        confidence=np.float32(0.75),  # type: ignore[arg-type]
        alternatives=(("rosen-9", np.float32(0.25)),),  # type: ignore[arg-type]
    )
    line = dumps(event)
    data = json.loads(line)
    assert data["confidence"] == 0.75 and data["t"] == 1.5
    assert data["alternatives"] == [["rosen-9", 0.25]]
    again = loads(line)
    assert isinstance(again, CardPlayed) and type(again.confidence) is float
