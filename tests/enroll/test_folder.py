"""``jasscam enroll DIR``: a folder of card images becomes a stored deck profile, and bad folders are named."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from jasscam.cli import main as jasscam
from tests.enroll.conftest import PARIS, VIEWS, models_dir
from vision.enroll import DeckLibrary, DeckProfile, Enroller, scan_folder
from vision.enroll.enroller import DEFAULT_VIEWS
from vision.enroll.head import DeckPrototypes
from vision.recognizer import Recognizer


def enroll_cli(folder: Path, state: Path, *extra: str, views: int = VIEWS) -> int:
    return jasscam(
        [
            "enroll",
            str(folder),
            "--name",
            "Paris",
            "--state-dir",
            str(state),
            "--models",
            str(models_dir()),
            "--views",
            str(views),
            *extra,
        ]
    )


@pytest.mark.slow  # a whole deck enrolled through the CLI
def test_enrolment_from_a_folder_round_trips_through_a_restart(
    paris_folder: Path,
    tmp_path: Path,
    recognizer: Recognizer,
    paris_profile: DeckProfile,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert enroll_cli(paris_folder, tmp_path / "state", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert out["stored"] and out["report"]["ok"] and out["deck"]["suits"] == "french"
    # A fresh library, as after a restart, reads the same prototypes the enrolment made.
    stored = DeckLibrary(tmp_path / "state" / "decks").load("paris")
    assert isinstance(stored.prototypes, DeckPrototypes)
    assert stored.prototypes.labels == paris_profile.prototypes.labels
    np.testing.assert_allclose(stored.prototypes.vectors, paris_profile.prototypes.vectors, atol=1e-4)
    assert isinstance(paris_profile.prototypes, DeckPrototypes)
    assert stored.prototypes.head_weights is not None and paris_profile.prototypes.head_weights is not None
    np.testing.assert_allclose(stored.prototypes.head_weights, paris_profile.prototypes.head_weights, atol=1e-4)
    assert len(stored.cards) == 37 and stored.missing() == []
    # The cards' proportions, measured on the PNGs' opaque part, survive the restart too.
    assert stored.prototypes.aspect == pytest.approx(492 / 316, rel=1e-3)
    assert (tmp_path / "state" / "decks" / "paris" / "thumbs" / "eicheln-7.png").stat().st_size > 1000


def test_a_french_deck_is_scored_with_swiss_ids_and_shown_with_its_own_names(paris_profile: DeckProfile) -> None:
    assert paris_profile.suits == "french"
    assert set(paris_profile.prototypes.names) >= {"eicheln-7", "schilten-ober", "rosen-ass", "schellen-10", "back"}
    assert not any(n.startswith(("kreuz", "herz", "schaufel", "ecken")) for n in paris_profile.prototypes.names)
    cards = paris_profile.summary()["cards"]
    assert cards["eicheln-7"]["own_id"] == "kreuz-7" and cards["eicheln-7"]["name"] == "Kreuz 7"
    assert cards["schilten-under"]["name"] == "Schaufel Bube"


@pytest.mark.slow  # a deck enrolled from a folder
def test_missing_and_mislabelled_cards_are_reported_by_name(
    paris_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (paris_folder / "ecken-9.png").unlink()  # missing
    shutil.copy(paris_folder / "kreuz-8.png", paris_folder / "kreuz-7.png")  # kreuz-7's picture shows kreuz-8
    shutil.copy(
        paris_folder / "herz-ober.png", paris_folder / "schaufel-10-2.png"
    )  # a second "schaufel-10" that is not
    # The enrolment's own number of views: the duplicate check reads how the held-out views
    # split between two labels, which at the quicker tests' 12 views (7 held out) is too
    # coarse to tell one card twice (shares 0.71 seen) from two similar cards (up to 0.57).
    assert enroll_cli(paris_folder, tmp_path / "state", views=DEFAULT_VIEWS) == 1
    out = capsys.readouterr().out
    assert "missing: no picture of ecken-9 (Ecken 9)" in out
    assert "schaufel-10-2.png is labelled schaufel-10 (Schaufel 10) but looks like herz-ober (Herz Dame)" in out
    assert "kreuz-7.png (kreuz-7 (Kreuz 7)) and kreuz-8.png (kreuz-8 (Kreuz 8)) look like the same card" in out
    assert "Not stored" in out
    assert DeckLibrary(tmp_path / "state" / "decks").slugs() == []


def test_a_file_named_for_no_card_is_reported_not_skipped(paris_folder: Path, recognizer: Recognizer) -> None:
    shutil.copy(paris_folder / "kreuz-8.png", paris_folder / "joker.png")
    scan = scan_folder(paris_folder, recognizer)
    assert any(e.startswith("joker.png:") for e in scan.errors)
    assert len(scan.samples) == 37


def test_an_enrolled_deck_names_its_cards_on_rendered_tables(
    recognizer: Recognizer, paris_profile: DeckProfile
) -> None:
    from vision.recognizer.geometry import rectify
    from vision.synth.scene import render_scene

    crops, truth = [], []
    for k in range(12):
        scene = render_scene(41_000_000 + k, style="clean", deck="paris")
        for t in scene.cards:
            if t.visible >= 0.9 and t.card != "back":
                crops.append(rectify(scene.image, np.asarray(t.corners)))
                truth.append(t.card)
    x = np.stack(crops)
    emb, _ = recognizer.embed(x)
    protos = paris_profile.prototypes
    pred = np.array(protos.names)[protos.scores(emb, x).argmax(axis=1)]
    accuracy = float(np.mean(pred == np.array(truth)))
    assert len(truth) >= 25
    assert accuracy >= 0.9, f"{accuracy:.3f} on {len(truth)} cards"


def test_enrolment_is_deterministic(recognizer: Recognizer) -> None:
    scan = scan_folder(Path(__file__).resolve().parents[2] / "vision" / "assets" / "decks" / "paris", recognizer)
    few = [s for s in scan.samples if s.label and s.label.startswith("rosen")][:4]
    a, _ = Enroller(recognizer, views=3).build("x", "french", few)
    b, _ = Enroller(recognizer, views=3).build("x", "french", few)
    np.testing.assert_array_equal(a.prototypes.vectors, b.prototypes.vectors)


def test_a_phone_photo_of_a_card_on_the_table_is_cut_at_the_card(tmp_path: Path, recognizer: Recognizer) -> None:
    import cv2

    from tests.enroll.conftest import table_photo

    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(
        str(folder / "herz-koenig.jpg"), table_photo(["herz-koenig"])
    )  # 640x480: a phone's 3:4, not a card's shape
    scan = scan_folder(folder, recognizer)
    assert not scan.errors and [s.label for s in scan.samples] == ["rosen-koenig"]
    assert scan.samples[0].aspect is None  # the networks drew this outline: it does not measure the deck
    bgr = scan.samples[0].picture[..., :3].astype(int)
    cloth = (bgr[..., 1] > bgr[..., 0] + 30) & (bgr[..., 1] > bgr[..., 2] + 30)  # the green table
    assert cloth.mean() < 0.25, f"{cloth.mean():.2f} of the picture is table, not card"


def test_a_scan_measures_the_cards_proportions_and_photos_do_not(tmp_path: Path, recognizer: Recognizer) -> None:
    import cv2

    from vision.enroll.pictures import deck_aspect

    folder = tmp_path / "scans"
    folder.mkdir()
    art = cv2.imread(str(PARIS / "herz-7.png"), cv2.IMREAD_UNCHANGED)
    assert art is not None
    flat = (art[..., :3].astype(np.float32) * (art[..., 3:] / 255.0) + 255 * (1 - art[..., 3:] / 255.0)).astype(
        np.uint8
    )
    cv2.imwrite(str(folder / "herz-7.jpg"), cv2.resize(flat, (290, 460)))  # a French card scanned at 58 x 92 mm
    cv2.imwrite(
        str(folder / "herz-8.jpg"), cv2.rotate(cv2.resize(flat, (290, 460)), cv2.ROTATE_90_CLOCKWISE)
    )  # on its side
    scan = scan_folder(folder, recognizer)
    assert not scan.errors and [s.aspect for s in scan.samples] == [pytest.approx(460 / 290, rel=1e-3)] * 2
    assert deck_aspect(scan.samples) == pytest.approx(460 / 290, rel=1e-3)
    assert deck_aspect([dataclasses.replace(s, aspect=None) for s in scan.samples]) is None


@pytest.mark.slow  # phone photos cut out and enrolled through the CLI, twice
def test_a_deck_taught_from_one_phone_photo_a_card_is_told_a_second_photo_helps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks.enroll_photos import write_photo_sessions
    from jasscam.commands.enroll import TWO_PHOTOS

    kept = ("eicheln-6", "eicheln-7", "rosen-ober")
    for rounds in (1, 2):
        folder = tmp_path / f"photos-{rounds}"
        write_photo_sessions("paris", folder, 3, 1, rounds)
        for path in folder.glob("*.jpg"):
            if path.stem.removesuffix("-2") not in kept:
                path.unlink()
        assert enroll_cli(folder, tmp_path / f"state-{rounds}", views=4) == 1  # cards are missing
        out = capsys.readouterr().out
        assert "missing: no picture of eicheln-8 (Eicheln 8)" in out
        assert (TWO_PHOTOS in out) == (rounds == 1), out
