"""Turn enrolment images into the identifier's upright card crops.

An enrolment image is one of three things, told apart without asking the user:

* a flat card picture with transparency (a PNG exported from card art): the opaque part
  is the card, the transparent corners are not;
* a scan or a close photo that is mostly card (its aspect is near a card's 2:3): the whole
  image is the card;
* a photo of a card lying on a table: the detector finds the card's quad and it is
  rectified exactly as at run time.

Crops are made with :func:`vision.recognizer.geometry.rectify`, the same warp the
recognizer uses on camera frames, so an enrolled prototype and a live read come from
pixels made the same way.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.recognizer.geometry import CROP_H, CROP_W, rectify

#: Card aspect (width / height) of a Jass card; a scan within this tolerance is taken whole.
CARD_ASPECT: float = CROP_W / CROP_H
ASPECT_TOLERANCE: float = 0.06  # 0.61..0.73: scans; a 3:4 phone photo (0.75) is not a card
#: Largest side an enrolment image is reduced to before anything else (phone photos are huge).
MAX_SIDE: int = 1600
IMAGE_SUFFIXES: tuple[str, ...] = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
#: Most pixels an image may declare (a 48-megapixel phone photo fits). Decoding a larger one
#: would cost gigabytes (a 1 MB PNG can declare 20000 x 20000 px), so it is refused from its header.
MAX_PIXELS: int = 50_000_000


class EnrollImageError(ValueError):
    """An enrolment image that cannot be read or shows no card."""


def read_image(path: Path) -> np.ndarray:
    """Read ``path`` as BGR or BGRA uint8 (alpha kept: it marks where the card is)."""
    data = np.fromfile(str(path), dtype=np.uint8) if Path(path).is_file() else None
    if data is None:
        raise EnrollImageError(f"{path}: no such file")
    return decode_image(data.tobytes(), str(path))


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """Decode encoded image bytes (PNG, JPEG, ...) to BGR or BGRA uint8, at most MAX_SIDE px.

    The size the file declares is read from its header first (Pillow reads only the
    header here) and an image over ``MAX_PIXELS`` is refused before anything is decoded.
    """
    width, height = declared_size(data, name)
    if width * height > MAX_PIXELS:
        raise EnrollImageError(
            f"{name}: the picture has {width}x{height} px, more than {MAX_PIXELS // 1_000_000} megapixels; "
            "take it with a lower resolution"
        )
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise EnrollImageError(f"{name}: not a readable image")
    if img.dtype == np.uint16:
        img = (img // 257).astype(np.uint8)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if img.shape[2] not in (3, 4) or img.dtype != np.uint8:
        raise EnrollImageError(f"{name}: unsupported image format {img.shape} {img.dtype}")
    if min(img.shape[:2]) < 32:
        raise EnrollImageError(f"{name}: image too small ({img.shape[1]}x{img.shape[0]} px)")
    side = max(img.shape[:2])
    if side > MAX_SIDE:
        s = MAX_SIDE / side
        img = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    return img


def declared_size(data: bytes, name: str = "image") -> tuple[int, int]:
    """Width and height from the image's header, without decoding its pixels."""
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as probe:  # lazy: parses the header only
            width, height = probe.size
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise EnrollImageError(f"{name}: not a readable image (PNG, JPEG, WebP or BMP): {exc}") from None
    except Image.DecompressionBombError:
        raise EnrollImageError(f"{name}: the picture declares far too many pixels") from None
    return int(width), int(height)


def flatten_alpha(img: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """BGRA -> BGR over ``background``; BGR is returned unchanged."""
    if img.shape[2] == 3:
        return img
    a = img[..., 3:4].astype(np.float32) / 255.0
    bg = np.array(background, np.float32)
    return (img[..., :3].astype(np.float32) * a + bg * (1.0 - a)).round().astype(np.uint8)


def alpha_quad(img: np.ndarray) -> np.ndarray | None:
    """The card's corners in a BGRA picture (opaque region's bounding box), or None if fully opaque."""
    if img.shape[2] != 4:
        return None
    alpha = img[..., 3]
    if alpha.min() > 200:
        return None
    ys, xs = np.nonzero(alpha > 127)
    if len(xs) == 0:
        raise EnrollImageError("the image is fully transparent")
    # Pixel edges, not centres: rectify maps corners to the crop's outer pixel edges.
    x0, x1, y0, y1 = xs.min() - 0.5, xs.max() + 0.5, ys.min() - 0.5, ys.max() + 0.5
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def full_quad(img: np.ndarray) -> np.ndarray:
    """The whole image as a card quad, turned so the card stands upright (portrait)."""
    h, w = img.shape[:2]
    q = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
    if w > h:  # a landscape scan: the card lies on its side; read it turned a quarter
        q = np.roll(q, -1, axis=0)
    return q


def is_card_shaped(img: np.ndarray) -> bool:
    """True when the image's aspect (either way round) is within tolerance of a card's."""
    h, w = img.shape[:2]
    aspect = min(w, h) / max(w, h)
    return abs(aspect - CARD_ASPECT) <= ASPECT_TOLERANCE


def quad_crop(img: np.ndarray, quad: np.ndarray, background: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """Rectify ``quad`` of ``img`` (BGR or BGRA) into an upright CROP_W x CROP_H crop.

    Large sources are first shrunk so the warp does not alias (``rectify`` samples
    bilinearly, which skips pixels when reducing a 500 px card to 96 px).
    """
    bgr = flatten_alpha(img, background)
    q = np.asarray(quad, np.float32).reshape(4, 2)
    side = max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))
    factor = side / (2 * CROP_H)
    if factor > 1.0:
        bgr = cv2.resize(
            bgr,
            (max(1, round(bgr.shape[1] / factor)), max(1, round(bgr.shape[0] / factor))),
            interpolation=cv2.INTER_AREA,
        )
        q = q / factor
    return rectify(bgr, q)
