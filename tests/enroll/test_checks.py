"""The enrolment's checks with several pictures of a card: a mislabelled picture refuses the deck,
two photos of look-alike cards taken in other light do not (they are told as a warning)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.enroll_photos import write_photo_sessions
from tests.decks import VIEWS
from vision.enroll import Enroller, scan_folder
from vision.enroll.checks import MISLABEL_MARGIN, check
from vision.enroll.head import unit
from vision.recognizer import Recognizer


def _pictures(vectors: dict[str, list[list[float]]]) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """Labels, file names, means and (tight) camera views of pictures given as embedding vectors."""
    labels, sources, means = [], [], []
    for card, vs in vectors.items():
        for k, v in enumerate(vs):
            labels.append(card)
            sources.append(f"{card}.jpg" if k == 0 else f"{card}-{k + 1}.jpg")
            means.append(v)
    m = unit(np.array(means, np.float64))
    rng = np.random.default_rng(0)
    per_view = unit(m[:, None, :] + 0.05 * rng.standard_normal((len(m), 6, m.shape[1])))
    return labels, sources, m, per_view


def test_a_photo_a_little_nearer_a_look_alike_card_than_its_own_other_photo_is_a_warning() -> None:
    # two photos of each of two look-alike cards in other light: schellen-ober-2 lies a little
    # nearer the Eicheln Ober's photo than the Schellen Ober's first photo
    labels, sources, means, per_view = _pictures(
        {
            "eicheln-ober": [[1.0, 0.0, 0.0, 0.0], [1.0, 0.1, 0.0, 0.0]],
            "schellen-ober": [[1.0, 0.0, 0.55, 0.0], [1.0, 0.08, 0.05, 0.0]],
            "rosen-6": [[0.0, 0.0, 0.0, 1.0]],
        }
    )
    sims = means @ means.T
    lead = sims[3, 1] - sims[3, 2]
    assert 0.1 < lead < MISLABEL_MARGIN
    report = check(labels, sources, means, per_view, "swiss")
    assert not [i for i in report.issues if i.kind == "mislabelled"]
    warning = next(i for i in report.issues if i.kind == "confusable")
    assert not warning.is_error
    assert warning.cards == ("schellen-ober", "eicheln-ober")
    assert warning.sources == ("schellen-ober-2.jpg", "eicheln-ober-2.jpg")  # shown side by side


def test_a_picture_of_another_card_under_a_label_is_still_an_error() -> None:
    labels, sources, means, per_view = _pictures(
        {
            "eicheln-ober": [[1.0, 0.0, 0.0, 0.0], [1.0, 0.1, 0.0, 0.0]],
            "schellen-ober": [[0.0, 1.0, 0.0, 0.0], [1.0, 0.05, 0.0, 0.0]],  # the second shows the Eicheln Ober
            "schellen-under": [[0.0, 1.0, 0.3, 0.0], [0.0, 1.0, 0.35, 0.0]],
            "rosen-6": [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.1, 1.0]],
        }
    )
    report = check(labels, sources, means, per_view, "swiss")
    errors = [i for i in report.issues if i.is_error and i.kind == "mislabelled"]
    # shown beside its card's other picture and the card it looks like
    assert [e.sources for e in errors] == [("schellen-ober-2.jpg", "schellen-ober.jpg", "eicheln-ober-2.jpg")]
    assert "looks like eicheln-ober (Eicheln Ober) (eicheln-ober-2.jpg)" in errors[0].message
    # the other way to read it: its card's other picture was cut out wrong
    assert "schellen-ober.jpg may be cut out wrong" in errors[0].message
    assert not report.ok


@pytest.mark.slow  # two rounds of rendered phone photos of six cards, enrolled
def test_two_photos_of_each_look_alike_court_card_are_not_called_mislabelled(
    recognizer: Recognizer, tmp_path: Path
) -> None:
    # The flat-coloured deck's Eicheln and Schellen court cards differ by a small suit sign and
    # the panel's shade; in the light of two other rooms a photo of one lay nearer a photo of
    # the other than its own second photo, and the deck was refused as mislabelled.
    court = [f"{s}-{r}" for s in ("eicheln", "schellen") for r in ("under", "ober", "koenig")]
    folder = tmp_path / "photos"
    write_photo_sessions("flat-swiss", folder, 11, 1, 2)
    for path in folder.glob("*.jpg"):
        if path.stem.removesuffix("-2") not in court:
            path.unlink()
    scan = scan_folder(folder, recognizer)
    assert len(scan.samples) == 12 and not scan.errors
    _profile, report = Enroller(recognizer, views=VIEWS).build("Flat", scan.suits, scan.samples)
    assert not [i for i in report.issues if i.kind in ("mislabelled", "duplicate")], [i.message for i in report.issues]
