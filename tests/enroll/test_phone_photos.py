"""Enrolment from phone photos: cards cut out of a photo, several per photo in the order named, the
duplicate check judged by the print, the photo's light evened out, the profile formats."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS
from tests.decks import PARIS
from vision.enroll import scan_folder
from vision.enroll.cutout import even_light, paper_margins, refine_to_edges, upright
from vision.enroll.formats import FORMAT_VERSION, FORMATS, profile_format
from vision.enroll.head import DeckPrototypes
from vision.enroll.pictures import card_in_image, photo_quads, pictures_from_frame, rectify_picture
from vision.enroll.profile import DeckProfile
from vision.enroll.same_card import print_difference, same_print
from vision.recognizer import Recognizer
from vision.recognizer.geometry import UNIT_QUAD
from vision.synth.phone_photos import deck_art, phone_photo

#: Small photos keep these tests quick; the cards still come out larger than the pictures kept.
SMALL = (720, 480)


def _cut_at_truth(deck: str, card: str, seed: int) -> np.ndarray:
    img, truth = phone_photo([deck_art(deck)[card]], [card], seed, SMALL)
    return rectify_picture(img, truth.corners[0])


def _art_picture(deck: str, card: str) -> np.ndarray:
    art = deck_art(deck)[card]
    h, w = art.shape[:2]
    return rectify_picture(
        art, np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
    )


def test_one_number_card_photographed_twice_has_one_print() -> None:
    for card in ("schilten-7", "rosen-8"):
        assert same_print(_cut_at_truth("paris", card, 3), _cut_at_truth("paris", card, 4)), card


def test_a_7_and_an_8_of_one_suit_differ_in_print_though_they_look_alike() -> None:
    # a real deck's Schaufel 7 and 8 were once reported as one card labelled twice
    seven, eight = _cut_at_truth("paris", "schilten-7", 3), _cut_at_truth("paris", "schilten-8", 4)
    assert not same_print(seven, eight)
    assert not same_print(_cut_at_truth("flat-swiss", "eicheln-7", 5), _cut_at_truth("flat-swiss", "eicheln-8", 6))
    assert print_difference(seven, seven[::-1, ::-1]) == 0  # either way up


def test_the_photos_uneven_light_is_evened_out_on_the_cards_paper() -> None:
    picture = _art_picture("paris", "rosen-6")
    h, w = picture.shape[:2]
    ramp = (
        np.linspace(0.55, 1.0, w, dtype=np.float32)[None, :, None]
        * np.linspace(0.8, 1.0, h, dtype=np.float32)[:, None, None]
    )
    lit = picture.copy()
    lit[..., :3] = (picture[..., :3] * ramp * np.array([0.8, 0.95, 1.0], np.float32)).astype(np.uint8)
    flat = even_light(lit)

    def paper_spread(p: np.ndarray) -> float:
        grey = p[..., :3].mean(axis=2)
        left, right = grey[40:200, 14:40], grey[40:200, 120:146]
        return abs(float(np.quantile(left, 0.9)) - float(np.quantile(right, 0.9)))

    assert paper_spread(lit) > 60
    assert paper_spread(flat) < 15
    assert same_print(flat, picture)


def test_a_soft_shadow_on_the_cards_paper_is_evened_out_too() -> None:
    # a phone's or a hand's shadow is a soft patch, not the smooth slope a lamp gives
    picture = _art_picture("paris", "rosen-6")
    h, w = picture.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    shade = 1.0 - 0.35 * np.exp(-(((xx - 0.3 * w) / (0.12 * w)) ** 2 + ((yy - 0.7 * h) / (0.12 * w)) ** 2))
    shaded = picture.copy()
    shaded[..., :3] = (picture[..., :3] * shade[..., None]).astype(np.uint8)
    flat = even_light(shaded)
    grey = picture[..., :3].astype(np.float32).mean(axis=2)
    paper = grey >= np.quantile(grey, 0.5)  # the paper is most of a number card

    def shadow_depth(p: np.ndarray) -> float:
        g = p[..., :3].astype(np.float32).mean(axis=2)
        in_shadow = paper & (shade < 0.8)
        return 1.0 - float(np.median(g[in_shadow])) / float(np.median(g[paper & (shade > 0.99)]))

    assert shadow_depth(shaded) > 0.25
    assert shadow_depth(flat) < 0.1
    assert same_print(flat, picture)


def _lit_unevenly(picture: np.ndarray) -> np.ndarray:
    """The picture under light dimmer on its left and top, and warm."""
    h, w = picture.shape[:2]
    ramp = (
        np.linspace(0.55, 1.0, w, dtype=np.float32)[None, :, None]
        * np.linspace(0.8, 1.0, h, dtype=np.float32)[:, None, None]
    )
    lit = picture.copy()
    lit[..., :3] = (picture[..., :3] * ramp * np.array([0.8, 0.95, 1.0], np.float32)).astype(np.uint8)
    return lit


def _panel(picture: np.ndarray) -> tuple[float, float]:
    """The court card's panel: its lightness over the paper's, and its red-green (Lab a)."""
    lab = cv2.cvtColor(np.ascontiguousarray(picture[..., :3]), cv2.COLOR_BGR2LAB).astype(np.float32)
    panel = np.median(lab[95:145, 50:110].reshape(-1, 3), axis=0)
    return float(panel[0] / np.quantile(lab[..., 0], 0.95)), float(panel[1])


def test_evening_the_light_keeps_a_pale_panels_shade_that_tells_the_ober_from_the_koenig() -> None:
    # flat-swiss Ober and König differ by the panel's shade only: a pale panel taken for
    # paper would be washed towards white and lose its colour
    ober, koenig = _art_picture("flat-swiss", "rosen-ober"), _art_picture("flat-swiss", "rosen-koenig")
    for art in (ober, koenig):
        (shade, red), (evened, evened_red) = _panel(art), _panel(even_light(_lit_unevenly(art)))
        assert abs(evened - shade) < 0.05, f"panel {evened:.3f} of the paper, drawn {shade:.3f}"
        assert abs(evened_red - red) < 10
    drawn = _panel(ober)[0] - _panel(koenig)[0]
    evened = _panel(even_light(_lit_unevenly(ober)))[0] - _panel(even_light(_lit_unevenly(koenig)))[0]
    assert 0.7 * drawn < evened < 1.3 * drawn


def test_a_card_with_no_paper_showing_keeps_its_colours_when_the_light_is_evened() -> None:
    back = _lit_unevenly(_art_picture("four-colour", "back"))  # a green back with white rings
    np.testing.assert_array_equal(even_light(back), back)


def test_an_outline_cut_short_at_both_ends_is_moved_to_the_cards_edge() -> None:
    img, truth = phone_photo([deck_art("flat-swiss")["rosen-9"]], ["rosen-9"], 21, SMALL)
    q = truth.corners[0].astype(np.float64)
    top, bottom = (q[0] + q[1]) / 2, (q[3] + q[2]) / 2
    axis = bottom - top
    short = np.array([q[0] + 0.13 * axis, q[1] + 0.13 * axis, q[2] - 0.13 * axis, q[3] - 0.13 * axis], np.float32)
    moved = refine_to_edges(img, short)
    length = float(np.linalg.norm(axis))
    err = min(float(np.abs(np.roll(moved, r, axis=0) - q).max()) for r in (0, 2)) / length
    assert err < 0.03, f"corners {err:.3f} of the card's length off"
    # an outline that already has a card's shape stays where it was drawn
    np.testing.assert_allclose(refine_to_edges(img, truth.corners[0]), truth.corners[0], atol=1e-3)


def test_a_card_shaped_photo_of_one_card_is_cut_at_the_card_not_taken_whole(
    tmp_path: Path, recognizer: Recognizer
) -> None:
    img, truth = phone_photo([deck_art("paris")["rosen-9"]], ["rosen-9"], 5)
    if img.shape[1] > img.shape[0]:
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    folder = tmp_path / "photos"
    folder.mkdir()
    cv2.imwrite(str(folder / "herz-9.jpg"), cv2.resize(img, (864, 1296)))  # 2:3, a card's shape
    scan = scan_folder(folder, recognizer)
    assert not scan.errors and [s.label for s in scan.samples] == ["rosen-9"]
    assert scan.samples[0].aspect is None  # not a scan
    assert same_print(scan.samples[0].picture, _art_picture("paris", "rosen-9"))


def test_a_photo_of_several_cards_is_labelled_in_the_order_its_name_gives(
    tmp_path: Path, recognizer: Recognizer
) -> None:
    cards = ["schilten-6", "schilten-7", "schilten-8", "rosen-ass"]
    art = deck_art("paris")
    img, _ = phone_photo([art[c] for c in cards], cards, 8)
    folder = tmp_path / "rows"
    folder.mkdir()
    cv2.imwrite(str(folder / "schaufel-6+schaufel-7+schaufel-8+herz-ass.jpg"), img)
    cv2.imwrite(str(folder / "herz-6+herz-7.jpg"), img)  # four cards where the name lists two
    scan = scan_folder(folder, recognizer)
    assert [s.label for s in scan.samples] == cards
    assert [s.source for s in scan.samples][0] == "schaufel-6+schaufel-7+schaufel-8+herz-ass.jpg#1"
    for sample in scan.samples:
        assert same_print(sample.picture, _art_picture("paris", str(sample.label))), sample.label
    assert len(scan.errors) == 1 and scan.errors[0].startswith("herz-6+herz-7.jpg: the name lists 2 cards but 4")


class _Makes:
    """An enroller that gives the detail head's map, has a verifier and lays tables."""

    gives_trunk = True

    def judges_outlines(self) -> bool:
        return True

    def table_views(self, views: int) -> int:
        return views // 2


def _profile(**parts: object) -> DeckProfile:
    protos = DeckPrototypes(("eicheln-6", "eicheln-7"), np.eye(2, 4, dtype=np.float32), **parts)  # type: ignore[arg-type]
    return DeckProfile("x", "swiss", protos, {"eicheln-6": [], "eicheln-7": []}, np.zeros((2, 4), np.float32), views=32)


def test_a_profile_is_of_the_newest_format_and_one_made_before_a_part_is_of_the_format_before_it() -> None:
    assert [f.version for f in FORMATS] == list(range(2, FORMAT_VERSION + 1))
    newest = {"verified": frozenset({"eicheln-6"}), "outline": UNIT_QUAD.copy()}
    assert profile_format(_profile(**newest), _Makes()) == FORMAT_VERSION
    assert (
        profile_format(_profile(**{**newest, "outline": None}), _Makes()) == 3
    )  # made before the outlines were measured
    assert profile_format(_profile(**{**newest, "verified": None}), _Makes()) == 2  # before the verifier was asked


def test_a_phone_photos_corners_lie_inside_it() -> None:
    img, truth = phone_photo([deck_art("paris")["eicheln-7"]], ["eicheln-7"], 2, SMALL)
    h, w = img.shape[:2]
    assert truth.corners.shape == (1, 4, 2)
    assert (truth.corners[..., 0] >= 0).all() and (truth.corners[..., 0] < w).all()
    assert (truth.corners[..., 1] >= 0).all() and (truth.corners[..., 1] < h).all()


def test_jasscam_enroll_writes_every_card_as_it_was_cut_out(tmp_path: Path) -> None:
    from jasscam.commands.enroll import write_cutouts
    from vision.enroll import Sample

    picture = _art_picture("paris", "rosen-6")
    samples = [
        Sample("rosen-6", picture, "a.jpg"),
        Sample("rosen-6", picture, "b.jpg#2"),
        Sample("back", picture, "back.jpg"),
    ]
    paths = write_cutouts(samples, tmp_path / "cut")
    assert [p.name for p in paths] == ["rosen-6-1.png", "rosen-6-2.png", "back-1.png"]
    again = cv2.imread(str(paths[1]), cv2.IMREAD_UNCHANGED)
    np.testing.assert_array_equal(again, picture)


def _photo_of(deck: str, card: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo of ``card`` that ``write_photo_deck(deck, folder, seed)`` writes, and its true corners."""

    img, truth = phone_photo([deck_art(deck)[card]], [card], seed * 1_000 + ALL_CARD_IDS.index(card))
    return img, truth.corners[0]


def _corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    """The worst corner's distance from the truth (either way up), as a share of the card's length."""
    length = float(np.linalg.norm(truth[0] - truth[3]))
    return min(float(np.abs(np.roll(upright(quad), r, axis=0) - upright(truth)).max()) for r in (0, 2)) / length


def test_a_court_cards_inner_frame_with_paper_around_it_is_widened_to_the_card() -> None:
    # flat-swiss court cards: a panel with paper beside it and coloured bands at the ends; its
    # frame, reaching to the bands, has a card's proportions
    img, truth = phone_photo([deck_art("flat-swiss")["rosen-ober"]], ["rosen-ober"], 21, SMALL)
    q = upright(truth.corners[0]).astype(np.float64)
    across, along = q[1] - q[0], q[3] - q[0]
    frame = np.array(
        [
            q[0] + 0.12 * across + 0.12 * along,
            q[1] - 0.12 * across + 0.12 * along,
            q[2] - 0.12 * across - 0.12 * along,
            q[3] + 0.12 * across - 0.12 * along,
        ],
        np.float32,
    )
    assert _corner_error(frame, truth.corners[0]) > 0.1
    assert _corner_error(refine_to_edges(img, frame), truth.corners[0]) < 0.03
    # the card's own outline stays where it was drawn: beyond it lies the table, not paper
    np.testing.assert_allclose(refine_to_edges(img, truth.corners[0]), truth.corners[0], atol=1e-3)


def test_a_court_card_held_in_a_hand_is_cut_at_its_edge_not_at_its_frame(recognizer: Recognizer) -> None:
    # a hand beside one long side gives an edge further out there than the card's: the card's edge
    # is the pair of edges at the same distance from the frame on both sides, paper between
    # (and a dark panel's strong frame edge does not make the card's edge on a cream cloth look faint)
    for card, seed in (("rosen-under", 7), ("schilten-koenig", 7), ("schilten-ober", 3)):
        img, truth = _photo_of("flat-swiss", card, seed)
        found = pictures_from_frame(img, recognizer, photo=True)
        assert len(found) == 1, card
        assert _corner_error(found[0][1], truth) < 0.03, card


def test_a_photographed_card_the_detector_misses_at_first_is_still_found(recognizer: Recognizer) -> None:
    # a court card of one flat panel that the detector takes for a back, and a card on a dotted
    # cloth whose dots set the card length the detector's search finds (it outlines specks of print)
    for deck, card, seed in (("four-colour", "eicheln-under", 3), ("paris", "schellen-koenig", 11)):
        img, truth = _photo_of(deck, card, seed)
        found = pictures_from_frame(img, recognizer, photo=True)
        assert len(found) == 1, card
        assert _corner_error(found[0][1], truth) < 0.03, card


def test_a_photo_names_as_many_cards_as_it_shows_and_no_speck_of_it(recognizer: Recognizer, tmp_path: Path) -> None:
    img, _truth = _photo_of("paris", "schellen-koenig", 11)
    cv2.imwrite(str(tmp_path / "schellen-koenig.jpg"), img)
    scan = scan_folder(tmp_path, recognizer, suits="swiss")
    assert scan.errors == []
    assert [s.label for s in scan.samples] == ["schellen-koenig"]
    # the picture is the card: closer to its own art than to any other card's, either way up
    picture = scan.samples[0].picture[..., :3].astype(np.float32)

    def differs(card: str) -> float:
        art = _art_picture("paris", card)[..., :3].astype(np.float32)
        return float(min(np.abs(picture - art).mean(), np.abs(picture[::-1, ::-1] - art).mean()))

    assert min(ALL_CARD_IDS, key=differs) == "schellen-koenig"


def test_a_photo_with_no_card_in_it_is_refused_with_what_to_do(recognizer: Recognizer, tmp_path: Path) -> None:
    # read again at every card length a phone photo gives, a bare cloth still shows no card (a 3:2
    # image with no card in it would be a scan of one)
    rng = np.random.default_rng(5)
    cloth = cv2.GaussianBlur(rng.integers(60, 200, (960, 1280, 3), dtype=np.uint8), (0, 0), 3)  # not card-shaped
    cv2.imwrite(str(tmp_path / "rosen-6.jpg"), cloth)
    scan = scan_folder(tmp_path, recognizer, suits="swiss")
    assert scan.samples == []
    assert len(scan.errors) == 1
    assert scan.errors[0].startswith("rosen-6.jpg: no face-up card found")
    assert "photograph the card again" in scan.errors[0]


def test_a_second_photo_with_no_card_in_it_is_left_out_with_a_warning_when_the_card_has_another(
    recognizer: Recognizer, tmp_path: Path
) -> None:
    # the player photographed each card twice; one photo missed the card: the deck loses nothing
    shutil.copy(PARIS / "herz-6.png", tmp_path / "herz-6.png")
    rng = np.random.default_rng(5)
    cloth = cv2.GaussianBlur(rng.integers(60, 200, (960, 1280, 3), dtype=np.uint8), (0, 0), 3)
    cv2.imwrite(str(tmp_path / "herz-6-2.jpg"), cloth)
    cv2.imwrite(str(tmp_path / "herz-7+herz-6.jpg"), cloth)  # the Herz 7 has no other picture
    scan = scan_folder(tmp_path, recognizer)
    assert [s.label for s in scan.samples] == ["rosen-6"]
    assert len(scan.warnings) == 1
    assert scan.warnings[0].startswith("herz-6-2.jpg: no face-up card found")
    assert scan.warnings[0].endswith("left out, since herz-6 (Herz 6) is learnt from other pictures")
    assert len(scan.errors) == 1 and scan.errors[0].startswith("herz-7+herz-6.jpg:")


def test_a_card_whose_end_band_meets_a_background_of_its_shade_is_cut_whole(recognizer: Recognizer) -> None:
    # a dark blue band on a dark cloth: the band's outer edge is faint beside its inner edge
    img, truth = _photo_of("flat-swiss", "schilten-6", 7)
    found = pictures_from_frame(img, recognizer, photo=True)
    assert len(found) == 1
    assert _corner_error(found[0][1], truth) < 0.03


def test_of_two_outlines_of_one_card_the_one_of_a_cards_shape_is_kept(recognizer: Recognizer) -> None:
    # the edge finder's outline takes in more than the card (out of a card's proportions); the
    # detector's is the card's own
    img, truth = _photo_of("paris", "rosen-9", 7)
    quads = photo_quads(img, list(recognizer.detect_quads(img)[0]))
    assert len(quads) == 1
    assert _corner_error(quads[0], truth) < 0.03


def test_of_two_card_shaped_outlines_of_one_card_the_one_with_paper_at_its_margins_is_kept(
    recognizer: Recognizer,
) -> None:
    # the edge finder's outline has a card's shape but takes in the table beside the card
    img, truth = _photo_of("flat-swiss", "schilten-8", 3)
    quads = photo_quads(img, list(recognizer.detect_quads(img)[0]))
    assert len(quads) == 1
    assert _corner_error(quads[0], truth) < 0.03
    assert paper_margins(img, truth) and not paper_margins(img, _grown(truth, 0.1))


def _grown(quad: np.ndarray, share: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return (centre + (quad - centre) * (1.0 + share)).astype(np.float32)


def test_an_outline_stretched_to_the_photos_edge_gives_way_to_the_cards_own_edge(recognizer: Recognizer) -> None:
    # a yellow-bordered card on a pale background: the detector, unsure of the card's lower end,
    # stretches its outline to the photo's edge; the edge finder's outline of the card's size lies clear
    img, truth = _photo_of("flat-swiss", "schellen-ober", 11)
    detected = list(recognizer.detect_quads(img)[0])
    assert any(_corner_error(q, truth) > 0.03 for q in detected)  # what made the case
    quads = photo_quads(img, detected)
    assert len(quads) == 1
    assert _corner_error(quads[0], truth) < 0.03
    # and the photo is not taken whole as a scan of the card
    picture, aspect = card_in_image(img, recognizer)
    assert aspect is None


def test_an_outline_run_off_the_photo_with_no_edge_to_move_it_to_is_cut_back_to_a_cards_shape(
    recognizer: Recognizer,
) -> None:
    # a white card on a pale background: the detector runs the outline on to the photo's lower edge
    # and the edge finder finds none; the photo (3:2, card-shaped) was then taken whole as a scan
    img, truth = _photo_of("four-colour", "schellen-ober", 11)
    detected = list(recognizer.detect_quads(img)[0])
    assert len(detected) == 1 and _corner_error(detected[0], truth) > 0.1
    picture, aspect = card_in_image(img, recognizer)
    assert aspect is None  # cut out of the photo, not the photo itself
    (quad,) = photo_quads(img, detected)
    assert _corner_error(quad, truth) < 0.06


def test_a_card_read_again_at_a_length_it_does_not_have_is_not_cut_with_its_shadow(recognizer: Recognizer) -> None:
    # a small card whose index corners alone are found at first; searched for again at a phone
    # photo's card lengths, the longest search drew an outline over the card and the shadow beside it
    img, truth = _photo_of("four-colour", "eicheln-koenig", 22)
    ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])  # as write_photo_deck stores it
    assert ok
    photo = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    assert photo is not None
    (found,) = pictures_from_frame(photo, recognizer, photo=True)
    assert _corner_error(found[1], truth) < 0.03
