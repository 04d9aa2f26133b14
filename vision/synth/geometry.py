"""Where the camera hangs: frame size, how large a card comes out, which lens, how tilted.

The hardware guide (docs/appliance.md) mounts the camera so the 80 x 80 cm play area and a
10 cm margin fill the picture's short side; a Jass card (58 x 90 mm) is then about a tenth
of it (``GUIDE``). Real installations vary around that: a lower shelf, a higher lamp hook,
a 16:9 webcam, the Camera Module 3 Wide with its strong barrel distortion, a bracket a few
degrees off. ``random_geometry`` draws from that whole range so the networks are trained
and measured on the tables users really have, not on one framing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: A Jass card's length over the side of the guide's view (80 cm play area + 2 x 10 cm margin).
GUIDE_CARD_FRACTION = 0.09 / 1.0
LENSES = ("module3", "wide")
#: Frame sizes a Pi camera or USB webcam delivers: 4:3 and 16:9, 640 x 480 to 1920 x 1080.
RESOLUTIONS = ((640, 480), (800, 600), (1024, 768), (1280, 960), (1640, 1232), (1280, 720), (1536, 864), (1920, 1080))


@dataclass(frozen=True)
class Geometry:
    """One mounting: frame size, card length as a fraction of the short side (a range to draw
    from), lens and tilt strength (1 = a bracket a few degrees off, 0 = straight down)."""

    width: int
    height: int
    card_fraction: tuple[float, float]
    lens: str = "module3"
    tilt: float = 1.0

    def __post_init__(self) -> None:
        if not (64 <= self.width <= 4096 and 64 <= self.height <= 4096):
            raise ValueError(f"frame {self.width}x{self.height} out of range 64..4096")
        lo, hi = self.card_fraction
        if not (0.02 <= lo <= hi <= 0.6):
            raise ValueError(f"card fraction {self.card_fraction} must satisfy 0.02 <= low <= high <= 0.6")
        if self.lens not in LENSES:
            raise ValueError(f"lens must be one of {', '.join(LENSES)}, got {self.lens!r}")
        if not 0.0 <= self.tilt <= 2.0:
            raise ValueError(f"tilt must be within 0..2, got {self.tilt}")

    def card_length(self, rng: np.random.Generator) -> float:
        """A card's length in frame pixels for one scene or game."""
        lo, hi = self.card_fraction
        return min(self.width, self.height) * float(np.exp(rng.uniform(np.log(lo), np.log(hi))))

    def distortion_steps(self, rng: np.random.Generator, strength: float = 1.0) -> int:
        """Barrel distortion in ``camera.K_STEP`` units: mild for the Module 3, strong for the Wide."""
        if strength <= 0:
            return 0
        return int(rng.integers(0, 9)) if self.lens == "module3" else int(rng.integers(18, 36))


#: The hardware guide's mounting: Camera Module 3 at 1280 x 960, cards 9-10 % of the short side.
GUIDE = Geometry(1280, 960, (0.088, 0.10), "module3", 1.0)


def random_geometry(rng: np.random.Generator) -> Geometry:
    """Any mounting a household can manage: 640 x 480 to 1920 x 1080, cards 7-35 % of the short side."""
    w, h = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    lens = "wide" if rng.random() < 0.3 else "module3"
    return Geometry(w, h, (0.07, 0.35), lens, float(rng.uniform(0.3, 1.5)))


def guide_range(rng: np.random.Generator) -> Geometry:
    """The guide's mounting give or take a shelf: 4:3 or 16:9, cards 7-14 % of the short side."""
    w, h = ((1280, 960), (1280, 720), (1640, 1232), (1920, 1080))[int(rng.integers(4))]
    return Geometry(w, h, (0.07, 0.14), "wide" if rng.random() < 0.25 else "module3", float(rng.uniform(0.3, 1.5)))
