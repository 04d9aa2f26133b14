"""Recognition at the mounting the hardware guide prescribes and across others: the shipped
models through the real wrapper, on freshly rendered held-out scenes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detection import Detection
from vision.recognizer import MODELS_DIR, Recognizer, RecognizerSettings
from vision.recognizer.geometry import quad_iou, scaled_input
from vision.recognizer.runtime import DETECTOR_FILE
from vision.recognizer.scale import CardScale, LearningRecognizer, card_length
from vision.synth.geometry import GUIDE, Geometry
from vision.synth.scene import Scene, render_scene

DATA = Path(__file__).parent / "data"

#: Held out from every training set (tiles use 3,000,000-4,000,999 and 9,100,000+).
SEED = 21_000_000


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer(settings=RecognizerSettings(threads=1))


@pytest.fixture(scope="module")
def guide_scenes() -> list[Scene]:
    return [render_scene(SEED + k, style="clean", geometry=GUIDE) for k in range(4)]


def _found(dets: list[Detection], scene: Scene) -> tuple[int, int, int]:
    """(cards at least 70 % visible, found at IoU > 0.5, of those named right)."""
    cards = [c for c in scene.cards if c.visible >= 0.7]
    found = right = 0
    for c in cards:
        best = max(dets, key=lambda d: quad_iou(np.array(d.corners), c.corners), default=None)
        if best is not None and quad_iou(np.array(best.corners), c.corners) > 0.5:
            found += 1
            right += best.card == c.card
    return len(cards), found, right


def test_the_shipped_detector_reads_frames_of_any_size(recognizer: Recognizer) -> None:
    assert recognizer.any_size
    scale = recognizer.detector_scale((960, 1280), card_length=90.0)
    assert scale == pytest.approx(recognizer.settings.card_input_px / 90.0)
    img, lb = scaled_input(np.zeros((960, 1280, 3), np.uint8), scale)
    assert img.shape[0] % 32 == 0 and img.shape[1] % 32 == 0 and lb.dx == lb.dy == 0


def test_rewriting_the_detector_for_any_size_again_changes_nothing(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    from vision.train.detector_file import detector_any_size

    out = tmp_path / "again.onnx"
    detector_any_size(MODELS_DIR / DETECTOR_FILE, out)
    assert (
        hashlib.sha256(out.read_bytes()).digest() == hashlib.sha256((MODELS_DIR / DETECTOR_FILE).read_bytes()).digest()
    )


def test_a_card_moved_by_whole_cells_is_outlined_moved_by_as_much(
    recognizer: Recognizer, guide_scenes: list[Scene]
) -> None:
    """The grid of cell centres is computed from each input's size, not fixed to one."""
    scene = guide_scenes[0]
    scale = recognizer.detector_scale(scene.image.shape, 90.0)
    img, _ = scaled_input(scene.image, scale)
    shifted = np.full((img.shape[0] + 64, img.shape[1] + 32, 3), 114, np.uint8)
    shifted[64:, 32:] = img
    a = [np.ascontiguousarray(x.transpose(2, 0, 1)[None], dtype=np.float32) for x in (img, shifted)]
    peak_a, corners_a = recognizer.detector.session.run(None, {"image": a[0]})
    peak_b, corners_b = recognizer.detector.session.run(None, {"image": a[1]})
    y, x = np.unravel_index(np.argmax(peak_a[0].max(axis=0)), peak_a.shape[2:])
    assert peak_a[0].max() > 0.5
    # Away from the borders the network sees the same pixels, 8 and 4 cells further on.
    np.testing.assert_allclose(
        corners_b[0][:, y + 8, x + 4].reshape(4, 2), corners_a[0][:, y, x].reshape(4, 2) + [32, 64], atol=0.5
    )


def test_cards_at_the_guides_mounting_are_found_and_named(recognizer: Recognizer, guide_scenes: list[Scene]) -> None:
    totals = np.zeros(3, int)
    for scene in guide_scenes:
        totals += _found(recognizer.recognize(scene.image), scene)
    cards, found, right = totals
    assert cards >= 6
    assert found >= 0.9 * cards and right >= 0.9 * found, totals


@pytest.mark.parametrize("fraction", [0.08, 0.3])
def test_the_card_length_is_found_on_one_frame_of_an_unknown_mounting(recognizer: Recognizer, fraction: float) -> None:
    geometry = Geometry(1280, 720, (fraction, fraction), "module3", 0.3)
    scene = render_scene(SEED + 50, style="clean", geometry=geometry)
    true = np.median([card_length(c.corners) for c in scene.cards if c.visible >= 0.7])
    found = recognizer.find_card_length(scene.image)
    assert found is not None and abs(found - true) <= 0.2 * true, (found, true)


@pytest.mark.parametrize("seed", [SEED + 447, SEED + 494])
def test_a_trick_at_the_guides_mounting_is_measured_at_its_cards_length_not_at_an_outline_too_large(
    recognizer: Recognizer, seed: int
) -> None:
    """A first frame at the guide's mounting (cards about 90 px): read for cards twice as long,
    the detector is sure of a card and outlines it about 130-145 px long; the next scale is
    sure of it at its own length, and that is the length the frame is read at."""
    scene = render_scene(seed, style="clean", geometry=GUIDE)
    true = np.median([card_length(c.corners) for c in scene.cards if c.visible >= 0.7])
    found = recognizer.find_card_length(scene.image)
    assert found is not None and abs(found - true) <= 0.15 * true, (found, true)


def test_a_photo_of_one_card_filling_it_is_measured(recognizer: Recognizer) -> None:
    """A phone photo of a card to enrol or to check: the card 60 % of the short side, upright frame."""
    for seed in (SEED + 100, SEED + 107):
        scene = render_scene(seed, style="mixed", geometry=Geometry(480, 640, (0.6, 0.6), "module3", 0.3))
        true = np.median([card_length(c.corners) for c in scene.cards if c.visible >= 0.7])
        found = recognizer.find_card_length(scene.image)
        assert found is not None and abs(found - true) <= 0.2 * true, (seed, found, true)


def _det(length: float, confidence: float = 0.95) -> Detection:
    w = length * 0.64
    return Detection(
        card="rosen-6", confidence=confidence, box=(0, 0, w, length), corners=((0, 0), (w, 0), (w, length), (0, length))
    )


def test_the_mounting_is_learnt_from_sure_cards_only() -> None:
    scale = CardScale(least=4)
    scale.observe([_det(90.0, 0.3)] * 10)  # unsure reads teach nothing
    assert scale.length is None and scale.verdict()["state"] == "unknown"
    scale.observe([_det(88.0), _det(90.0), _det(91.0)])
    assert scale.length is None
    scale.observe([_det(92.0)])
    assert scale.length == pytest.approx(90.5)
    assert scale.verdict()["state"] == "good"
    scale.reset()
    assert scale.length is None


def test_a_mounting_too_high_is_reported_too_small() -> None:
    scale = CardScale(least=2)
    scale.observe([_det(30.0), _det(31.0)])
    assert scale.verdict()["state"] == "too-small"
    assert CardScale(fixed=50.0).verdict()["state"] == "small" and not CardScale(fixed=50.0).verdict()["measured"]


@pytest.mark.parametrize("bad", [float("nan"), -3.0, float("inf")])
def test_a_fixed_card_length_must_be_a_length(bad: float) -> None:
    with pytest.raises(ValueError):
        CardScale(fixed=bad)


def test_the_learning_recogniser_reads_at_the_learnt_length(recognizer: Recognizer, guide_scenes: list[Scene]) -> None:
    seen: list[float | None] = []

    class Spy:
        def recognize(self, frame: np.ndarray, card_length: float | None = None) -> list[Detection]:
            seen.append(card_length)
            return recognizer.recognize(frame, card_length)

    learning = LearningRecognizer(Spy(), CardScale(least=2))
    for scene in guide_scenes:
        learning(scene.image)
    assert seen[0] is None and seen[-1] is not None
    true = np.median([card_length(c.corners) for s in guide_scenes for c in s.cards if c.visible >= 0.9])
    assert abs(seen[-1] - true) <= 0.15 * true


@pytest.mark.parametrize("size", [(928, 696), (672, 504), (640, 480), (400, 300), (97, 73), (1400, 1050)])
def test_a_resized_frame_shows_what_an_area_resize_shows(size: tuple[int, int]) -> None:
    """The fast resize (halvings, then bilinear) gives the size asked and the same picture
    as OpenCV's slow area average, up to the softness of bilinear at the last step."""
    from vision.recognizer.geometry import resized

    rng = np.random.default_rng(3)
    # A scene-like frame: smooth shading, hard-edged rectangles (cards), fine print.
    yy, xx = np.mgrid[0:960, 0:1280]
    frame = np.dstack([(xx * 0.1 + yy * 0.05) % 256] * 3).astype(np.uint8)
    for _ in range(12):
        x, y = rng.integers(0, 1180), rng.integers(0, 860)
        frame[y : y + 90, x : x + 58] = rng.integers(0, 256, 3)
    out = resized(frame, *size)
    assert out.shape == (size[1], size[0], 3) and out.dtype == np.uint8
    import cv2

    ref = cv2.resize(frame, size, interpolation=cv2.INTER_AREA if size[0] < 1280 else cv2.INTER_LINEAR)
    # A picture shifted by a pixel or more differs by 0.87-12 on this frame; these by under 0.3.
    assert float(np.abs(out.astype(int) - ref.astype(int)).mean()) < 0.5


def test_resizing_to_the_frames_own_size_returns_a_copy() -> None:
    from vision.recognizer.geometry import resized

    frame = np.zeros((40, 60, 3), np.uint8)
    out = resized(frame, 60, 40)
    assert out.shape == frame.shape and out is not frame
    with pytest.raises(ValueError, match="positive"):
        resized(frame, 0, 10)


@pytest.mark.parametrize("seed", [SEED + 336, SEED + 478])
def test_a_photo_of_unknown_card_length_is_read_at_a_finer_length_too(seed: int) -> None:
    """Two large cards in a 640 x 480 photo, their length unknown: the length search takes
    one length for it, at which one card is missed; read again for cards 0.62 of it
    (``RecognizerSettings.finer_scale``), both are found, and nothing that is no card."""
    scene = render_scene(seed, style="mixed", geometry=Geometry(640, 480, (0.45, 0.45), "module3", 0.3))
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    cards, found_once, _ = _found(rec.recognize(scene.image), scene)
    dets = rec.recognize(scene.image, photo=True)
    assert (cards, found_once) == (2, 1)
    assert _found(dets, scene)[:2] == (2, 2)
    # Every outline lies on a card (some on cards mostly hidden, which the count leaves out).
    assert all(max(quad_iou(np.array(d.corners), c.corners) for c in scene.cards) >= 0.3 for d in dets)


def _read_real_photo(recognizer: Recognizer, boxes: str) -> tuple[np.ndarray, list[Detection], np.ndarray]:
    """A committed real photo's labelled boxes, what ``recognizer`` reads in it as a photo,
    and the IoU of each detection's box with each labelled box."""
    from benchmarks.real_photos import box_iou, load_boxes

    path, truth = load_boxes(DATA / boxes)
    photo = cv2.imread(str(path))
    assert photo is not None
    dets = recognizer.recognize(photo, photo=True)
    return truth, dets, box_iou(np.array([d.box for d in dets], np.float64).reshape(-1, 4), truth)


def test_a_real_photo_of_cards_overlapping_in_a_row_is_read_card_by_card_not_as_one_card(
    recognizer: Recognizer,
) -> None:
    """A real phone photo (tests/recognizer/data/README.md): three cards laid overlapping in
    a row. The length search reads it at a length for a card about the row's size, where the
    row comes out as one card-shaped outline the detector is fairly sure of; the reading
    for smaller cards finds the cards of the row, which the verifier covers better, and they
    replace it (``probe.over_groups``). Every outline is then one labelled card's."""
    truth, dets, iou = _read_real_photo(recognizer, "real-row-IMG_2635.xml")
    assert len(truth) == 3 and len(dets) == 2
    assert (iou.max(axis=1) >= 0.5).all()
    assert len(set(iou.argmax(axis=1).tolist())) == 2  # two cards, each outlined once


def test_a_real_photo_of_a_card_on_a_postcard_is_read_as_the_card_not_the_postcard(recognizer: Recognizer) -> None:
    """A real phone photo (tests/recognizer/data/README.md): one card lying on a postcard.
    Read at the length the search chose, the postcard is a card-shaped outline the
    detector is sure of. The reading for smaller cards outlines the card on it, and the
    postcard again a little smaller, too weakly to be reported but still a second thing
    inside; the verifier covers the card better than the postcard, so the postcard gives
    way (``probe.over_groups``, which weighs every outline of that reading)."""
    truth, dets, iou = _read_real_photo(recognizer, "real-postcard-IMG_2525.xml")
    assert len(truth) == 1 and len(dets) == 1
    assert iou.max() >= 0.5


def test_a_real_photo_of_a_card_filling_it_on_wood_is_read_at_the_cards_length_not_the_grains(
    recognizer: Recognizer,
) -> None:
    """A real phone photo (tests/recognizer/data/README.md): an Ace over a Ten on a wooden
    table, the Ace more than half the photo's short side. No scale reads a sure card; read
    for cards that long it peaks under 0.5, and patches of grain read for the smallest cards
    peak higher. The verifier covers them under half, so they take no part, and the Ace's
    length wins (``probe.PROBE_COVERED``); at the grain's length no card was found at all."""
    from benchmarks.real_photos import load_boxes

    path, truth = load_boxes(DATA / "real-wood-IMG_2687.xml")
    photo = cv2.imread(str(path))
    assert photo is not None
    length = recognizer.find_card_length(photo)
    ace = truth[0]
    assert length is not None and 0.9 <= length / max(ace[2] - ace[0], ace[3] - ace[1]) <= 1.4
    truth, dets, iou = _read_real_photo(recognizer, "real-wood-IMG_2687.xml")
    assert len(dets) == 1 and iou[0, 0] >= 0.5  # the Ace; the Ten shows as a strip along it


def test_only_a_photo_is_read_twice(recognizer: Recognizer, guide_scenes: list[Scene]) -> None:
    """A camera frame is read once at the length searched for (until the appliance has
    learnt its mounting) or known; a photo of unknown card length once more, finer."""
    scene = guide_scenes[0]
    calls: list[tuple[int, ...]] = []
    run = recognizer.detector.run

    def counted(image: np.ndarray, steady: bool = False) -> tuple[np.ndarray, np.ndarray]:
        calls.append(image.shape)
        return run(image, steady)

    recognizer.detector.run = counted  # type: ignore[method-assign]
    try:
        length = recognizer.find_card_length(scene.image)
        search = len(calls)
        for kwargs in ({}, {"photo": True}):
            calls.clear()
            recognizer.recognize(scene.image, **kwargs)
            assert len(calls) == search + 1 + len(kwargs)
        calls.clear()
        recognizer.recognize(scene.image, length, photo=True)
        assert len(calls) == 1
    finally:
        del recognizer.detector.run


def test_the_detector_divides_no_input_pixel_and_folding_the_division_keeps_its_outputs(tmp_path: Path) -> None:
    # The division of every input pixel by 255 is folded into the stem convolution's
    # weights (``vision.train.detector_file.fold_input_scale``): the same outputs for less work.
    onnx = pytest.importorskip("onnx")
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from vision.train.detector_file import fold_input_scale

    shipped = onnx.load(str(MODELS_DIR / DETECTOR_FILE))
    assert not [n for n in shipped.graph.node if n.op_type == "Div" and "image" in n.input]
    rng = np.random.default_rng(3)
    weight = rng.normal(size=(4, 3, 3, 3)).astype(np.float32)
    graph = helper.make_graph(
        [
            helper.make_node("Constant", [], ["k"], value=helper.make_tensor("k", TensorProto.FLOAT, [], [255.0])),
            helper.make_node("Div", ["image", "k"], ["scaled"]),
            helper.make_node("Conv", ["scaled", "w"], ["out"], pads=[1, 1, 1, 1], strides=[2, 2]),
        ],
        "stem",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 4, 4, 4])],
        [numpy_helper.from_array(weight, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    image = rng.integers(0, 256, size=(1, 3, 8, 8)).astype(np.float32)
    before = ort.InferenceSession(model.SerializeToString()).run(None, {"image": image})[0]
    fold_input_scale(model)
    assert [n.op_type for n in model.graph.node] == ["Conv"]
    after = ort.InferenceSession(model.SerializeToString()).run(None, {"image": image})[0]
    np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-5)
