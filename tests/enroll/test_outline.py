"""Where an enrolled deck's cards really lie in the networks' outlines: measured on the enrolment tables."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.enroll.conftest import PARIS, enrol_flat
from vision.enroll import DeckLibrary, DeckProfile, Enroller, scan_folder
from vision.enroll.augment import card_sheet, table_photo
from vision.enroll.head import DeckPrototypes
from vision.recognizer import Recognizer
from vision.recognizer.geometry import UNIT_QUAD, from_outline_frame, half_turn_mean, in_outline_frame
from vision.recognizer.prototypes import PrototypeError, Prototypes

#: A few number cards and court cards of the flat benchmark deck, whose short ends are coloured bands.
FLAT_CARDS = (
    "eicheln-6",
    "rosen-9",
    "schellen-10",
    "schilten-ass",
    "eicheln-ober",
    "rosen-koenig",
    "schellen-under",
    "schilten-7",
)


def test_an_outline_frame_maps_there_and_back() -> None:
    outline = np.array([[100, 50], [160, 58], [150, 150], [92, 141]], np.float32)
    card = from_outline_frame(outline, np.array([[0.0, -0.1], [1.0, -0.1], [1.0, 1.1], [0.0, 1.1]]))[0]
    # a card's corners have no order of their own: any starting corner reads the same
    unit = in_outline_frame(outline, np.roll(card, 1, axis=0))
    assert np.allclose(unit, [[0.0, -0.1], [1.0, -0.1], [1.0, 1.1], [0.0, 1.1]], atol=1e-4)
    # the detector gives corner 0 at either end of a card: both ends get the mean shift
    assert np.allclose(
        half_turn_mean(np.array([[0, -0.2], [1, -0.2], [1, 1.0], [0, 1.0]])), [[0, -0.1], [1, -0.1], [1, 1.1], [0, 1.1]]
    )


def test_prototypes_move_outlines_only_when_told_and_refuse_a_bad_one(
    paris_profile: DeckProfile, tmp_path: Path
) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes)
    quads = np.array([[[10, 10], [70, 10], [70, 100], [10, 100]]], np.float32)
    assert protos.outline is not None and np.array_equal(protos.outline, UNIT_QUAD)  # paris is outlined where it lies
    assert protos.card_outlines(quads) is quads
    longer = dataclasses.replace(protos, outline=np.array([[0, -0.1], [1, -0.1], [1, 1.1], [0, 1.1]], np.float32))
    assert np.allclose(longer.card_outlines(quads), [[[10, 1], [70, 1], [70, 109], [10, 109]]], atol=1e-3)
    longer.save(tmp_path / "p.npz")
    back = DeckPrototypes.load(tmp_path / "p.npz")
    assert back.outline is not None and np.allclose(back.outline, longer.outline)  # type: ignore[arg-type]
    plain = Prototypes(protos.labels, protos.vectors, outline=longer.outline)  # a deck enrolled without its head
    plain.save(tmp_path / "plain.npz")
    assert np.array_equal(Prototypes.load(tmp_path / "plain.npz").outline, longer.outline)  # type: ignore[arg-type]
    with pytest.raises(PrototypeError, match=r"outline must be 4 corners \(4, 2\), got \(3, 2\)"):
        dataclasses.replace(protos, outline=np.zeros((3, 2), np.float32))


@pytest.mark.slow  # a deck enrolled
def test_a_deck_outlined_short_of_its_coloured_ends_is_read_where_its_cards_lie(
    tmp_path: Path, recognizer: Recognizer
) -> None:
    folder = tmp_path / "flat"
    shown: list[float] = []
    profile = enrol_flat(folder, recognizer, FLAT_CARDS, lambda done, _what: shown.append(done))
    assert shown == sorted(shown) and shown[-1] == 1.0  # the tables laid twice, the bar never goes back
    outline = profile.prototypes.outline
    assert outline is not None
    # the networks stop at the inner edge of the bands at both short ends
    assert outline[0, 1] < -0.08 and outline[3, 1] > 1.08, outline
    assert np.abs(outline[:, 0] - UNIT_QUAD[:, 0]).max() < 0.03, outline
    # on a table the enrolled deck's outlines are where the cards lie, the networks' are not
    arts = [cv2.imread(str(folder / f"{c}.png"), cv2.IMREAD_UNCHANGED) for c in FLAT_CARDS[:6]]
    sheets = [card_sheet(a) for a in arts if a is not None]
    img, truth = table_photo(sheets, np.random.default_rng(11))
    drawn, _, _ = recognizer.detect_quads(img)
    moved = profile.prototypes.card_outlines(drawn)

    def error(quads: np.ndarray) -> float:
        return float(np.median([min(np.abs(in_outline_frame(t, q) - UNIT_QUAD).max() for q in quads) for t in truth]))

    # Well under the networks' error: on one CPU and package set it came out 0.061 against
    # 0.120, so half of it is no margin to hold the test to.
    assert error(drawn) > 0.08 and error(moved) < 0.6 * error(drawn), (error(moved), error(drawn))


@pytest.mark.slow  # a deck rebuilt
def test_a_profile_enrolled_before_its_outlines_were_measured_is_rebuilt(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer
) -> None:
    protos = paris_suit_profile.prototypes
    library = DeckLibrary(tmp_path / "decks")
    library.save(
        DeckProfile(
            **{**paris_suit_profile.__dict__, "prototypes": dataclasses.replace(protos, outline=None, aspect=1.53)}
        )
    )
    profile = library.load("paris")
    assert profile.prototypes.outline is None
    enroller = Enroller(recognizer, views=paris_suit_profile.views)
    assert not enroller.is_current(profile)
    fresh = enroller.refresh(profile)
    assert fresh.prototypes.outline is not None and enroller.is_current(fresh)
    # the cards' proportions were measured on the enrolment images, which a profile does not
    # keep: a rebuild keeps them
    assert fresh.prototypes.aspect == pytest.approx(1.53)
    # without views there are no tables: nothing is measured, and nothing needs to be
    scan = scan_folder(PARIS, recognizer)
    plain, _ = Enroller(recognizer, views=0).build("Paris", scan.suits, scan.samples)
    assert plain.prototypes.outline is None and Enroller(recognizer, views=0).is_current(plain)
