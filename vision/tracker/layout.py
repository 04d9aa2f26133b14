"""Where each seat sits around the image: which table edge belongs to which player.

The tracker gives a card the seat whose turn it is; the layout says which edge is whose,
so that a hand seen coming in from an edge, a card lying squarely in front of a player,
and a trick swept off an edge can name the player (evidence that a card came out of
turn, and who took the trick). Only when nobody knows whose turn it is (after a trick
with a card never seen) does ``assign`` decide a seat by geometry alone: the player whose
edge the card lies nearest to, seen from the table centre (the configured one, or the
one the tracker measured from the tricks so far). Cards near a diagonal are the hard
case: there the card's
long axis helps, because a player lays a card roughly pointing at themselves (a bottom or
top player's card stands upright in the image, a left or right player's card lies on its
side). The axis is used rather than the artwork's "up" direction so that double-headed
court cards, whose up direction the recogniser cannot know, still vote correctly.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from scoring.events import Event, GameConfigured
from vision.detection import EDGES

#: Unit vector from the table centre towards each edge, in image coordinates (y down).
_EDGE_VECTORS: Final[dict[str, tuple[float, float]]] = {
    "bottom": (0.0, 1.0),
    "right": (1.0, 0.0),
    "top": (0.0, -1.0),
    "left": (-1.0, 0.0),
}

_DIRECTIONS: Final[dict[str, int]] = {
    "counter-clockwise": 1,
    "ccw": 1,
    "clockwise": -1,
    "cw": -1,
}


@dataclass(frozen=True)
class SeatGuess:
    """The seat a card was assigned to, and how sure the geometry was.

    ``margin`` is 0 on a diagonal and 1 on an edge's centre line; ``by`` says what decided
    (``position``, ``orientation`` or ``turn`` when the geometry could not).
    """

    seat: int
    margin: float
    by: str

    @property
    def seen(self) -> bool:
        """Did what the camera saw name the seat (clear evidence against the turn, or the
        geometry when nobody knew whose turn it was), not the turn order?"""
        return self.by != "turn"


@dataclass(frozen=True)
class TableLayout:
    """The table set-up: which image edge each seat (0..3) sits at, and the table centre.

    Seats are decided around the table centre as if the table were square (pixel offsets,
    not offsets scaled to the image's aspect ratio), because trick cards lie about the
    same distance out for every player; the play area is scaled to the image, because
    it is about what the camera can see.

    ``edges[s]`` is the edge of seat ``s``; ``centre`` is the table centre as fractions of
    the image width and height. The default is seat 0 at the bottom and play going
    counter-clockwise (seat 1 right, seat 2 top, seat 3 left), as seen on screen.
    """

    edges: tuple[str, str, str, str] = ("bottom", "right", "top", "left")
    centre: tuple[float, float] = (0.5, 0.5)
    #: Below this position margin the card's axis (then the turn order) decides.
    ambiguity_margin: float = 0.3
    #: Cards count only if they lie this far out from the centre at most (1 = the edge,
    #: measured per axis like the seats): held cards, won-trick stacks and the like lie
    #: at the rim, tricks nearer the middle.
    play_area: float = 0.85

    def __post_init__(self) -> None:
        if len(self.edges) != 4 or sorted(self.edges) != sorted(EDGES):
            raise ValueError(f"edges must name each of {', '.join(EDGES)} once (seat 0 first), got {self.edges!r}")
        cx, cy = self.centre
        if not (0.0 < cx < 1.0 and 0.0 < cy < 1.0):
            raise ValueError(f"centre must be fractions of the image size inside (0, 1), got {self.centre!r}")
        if not 0.0 <= self.ambiguity_margin < 1.0:
            raise ValueError(f"ambiguity_margin must be in [0, 1), got {self.ambiguity_margin!r}")
        if not 0.0 < self.play_area <= 1.5:
            raise ValueError(f"play_area must be in (0, 1.5], got {self.play_area!r}")

    @classmethod
    def from_setting(
        cls, seat0: str = "bottom", direction: str = "counter-clockwise", centre: tuple[float, float] = (0.5, 0.5)
    ) -> TableLayout:
        """The layout from where seat 0 sits and which way play goes round the image."""
        if seat0 not in EDGES:
            raise ValueError(f"seat0 must be one of {', '.join(EDGES)}, got {seat0!r}")
        step = _DIRECTIONS.get(direction)
        if step is None:
            raise ValueError(f"direction must be 'counter-clockwise' or 'clockwise', got {direction!r}")
        start = EDGES.index(seat0)
        edges = tuple(EDGES[(start + step * i) % 4] for i in range(4))
        return cls(edges=edges, centre=centre)  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableLayout:
        """Read a layout from settings or recording metadata.

        Accepts ``{"edges": [...]}`` (seat 0 first), or ``{"seat0": ..., "direction": ...}``,
        or a mapping ``{"0": "bottom", ...}``; ``centre`` is optional in the first two forms.
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a seat layout must be a JSON object, got {type(data).__name__}")
        centre = tuple(data.get("centre", data.get("center", (0.5, 0.5))))
        if len(centre) != 2:
            raise ValueError(f"centre must be two fractions [x, y], got {centre!r}")
        if "edges" in data:
            edges = data["edges"]
            if not isinstance(edges, Sequence) or isinstance(edges, str):
                raise ValueError(f"edges must be a list of four edge names, got {edges!r}")
            return cls(
                edges=tuple(edges),
                centre=(float(centre[0]), float(centre[1])),
                play_area=float(data.get("play_area", 0.85)),
            )
        if "seat0" in data or "direction" in data:
            return cls.from_setting(
                str(data.get("seat0", "bottom")),
                str(data.get("direction", "counter-clockwise")),
                (float(centre[0]), float(centre[1])),
            )
        by_seat = {str(k): v for k, v in data.items()}
        if set(by_seat) == {"0", "1", "2", "3"}:
            edges = tuple(str(by_seat[k]) for k in ("0", "1", "2", "3"))
            return cls(edges=edges)
        raise ValueError(f"cannot read a seat layout from {dict(data)!r}; give 'edges' or 'seat0'/'direction'")

    def to_dict(self) -> dict[str, Any]:
        return {"edges": list(self.edges), "centre": list(self.centre), "play_area": self.play_area}

    def _normalised(self, point: tuple[float, float], width: int, height: int) -> tuple[float, float]:
        if width <= 0 or height <= 0:
            raise ValueError(f"frame size must be positive, got {width}x{height}")
        cx, cy = self.centre[0] * width, self.centre[1] * height
        # Scale by the half-size towards the nearer border on each side, so an off-centre
        # table centre still puts each edge at distance 1.
        dx = point[0] - cx
        dy = point[1] - cy
        sx = (width - cx) if dx >= 0 else cx
        sy = (height - cy) if dy >= 0 else cy
        return dx / max(sx, 1e-9), dy / max(sy, 1e-9)

    def radius(self, point: tuple[float, float], width: int, height: int) -> float:
        """How far out ``point`` lies: 0 at the table centre, 1 on the nearest-edge line."""
        nx, ny = self._normalised(point, width, height)
        return max(abs(nx), abs(ny))

    def in_play_area(self, point: tuple[float, float], width: int, height: int) -> bool:
        """True if a card lying at ``point`` is where tricks are laid (not at the rim)."""
        return self.radius(point, width, height) <= self.play_area

    def seat_of_edge(self, edge: str) -> int:
        return self.edges.index(edge)

    def edge_towards(self, vector: tuple[float, float]) -> str:
        """The edge a direction (image coordinates) points at most."""
        vx, vy = vector
        return max(EDGES, key=lambda e: _EDGE_VECTORS[e][0] * vx + _EDGE_VECTORS[e][1] * vy)

    def squareness(self, vector: tuple[float, float]) -> tuple[str, float]:
        """The edge a direction points at, and how squarely: 1 straight at its middle, 0 on
        the diagonal to the next edge (1 - tan of the angle off the edge's axis)."""
        vx, vy = vector
        scores = sorted(((_EDGE_VECTORS[e][0] * vx + _EDGE_VECTORS[e][1] * vy, e) for e in EDGES), reverse=True)
        (s1, e1), (s2, _) = scores[0], scores[1]
        if s1 <= 0:
            return e1, 0.0
        return e1, 1.0 - max(s2, 0.0) / s1

    def seat_towards(self, vector: tuple[float, float]) -> int:
        """The seat a direction from the centre points at (e.g. where a trick was swept to)."""
        return self.seat_of_edge(self.edge_towards(vector))

    def assign(
        self,
        point: tuple[float, float],
        width: int,
        height: int,
        *,
        corners: Sequence[tuple[float, float]] | None = None,
        expected: int | None = None,
        exclude: Collection[int] = (),
        centre: tuple[float, float] | None = None,
    ) -> SeatGuess:
        """The seat a card lying at ``point`` belongs to.

        Nearest edge relative to the table centre; on a near-diagonal the ``expected``
        seat (whose turn it is) is taken when it is one of the two nearest edges, else the
        card's long axis (from ``corners``) picks between them. Turn before the long axis:
        a card is often first seen at rest still in the hand, turned as the hand holds it
        (a rendered paris game: a card read while in the hand on the diagonal went, by its
        axis, to the seat after the one whose turn it was, and every later card of the
        trick to a wrong seat).
        ``exclude`` names seats that cannot have laid it (they already have a card in the
        trick): then the nearest edge of another seat is taken, by position alone.
        ``centre`` (pixels) overrides the configured table centre, e.g. with the centre
        the tracker has measured from the tricks laid so far.
        """
        if width <= 0 or height <= 0:
            raise ValueError(f"frame size must be positive, got {width}x{height}")
        cx, cy = centre if centre is not None else (self.centre[0] * width, self.centre[1] * height)
        # Trick cards lie about equally far (in card lengths) from the centre whatever the
        # image's aspect ratio, so the comparison is in pixels: a square table.
        nx, ny = point[0] - cx, point[1] - cy
        scores = sorted(((_EDGE_VECTORS[e][0] * nx + _EDGE_VECTORS[e][1] * ny, e) for e in EDGES), reverse=True)
        (s1, e1), (s2, e2) = scores[0], scores[1]
        size = max(abs(nx), abs(ny), 1e-9)
        margin = (s1 - s2) / size if s2 > 0 else 1.0
        if self.seat_of_edge(e1) in exclude:
            for score, edge in scores[1:]:
                if self.seat_of_edge(edge) not in exclude:
                    return SeatGuess(self.seat_of_edge(edge), (s1 - score) / size, "exclusion")
        if margin >= self.ambiguity_margin:
            return SeatGuess(self.seat_of_edge(e1), margin, "position")
        if expected is not None and self.edges[expected] in (e1, e2) and expected not in exclude:
            return SeatGuess(expected, margin, "turn")
        if corners is not None and len(corners) == 4:
            vertical = _long_axis_is_vertical(corners)
            if vertical is not None:
                for edge in (e1, e2):
                    if (edge in ("top", "bottom")) == vertical and self.seat_of_edge(edge) not in exclude:
                        return SeatGuess(self.seat_of_edge(edge), margin, "orientation")
        return SeatGuess(self.seat_of_edge(e1), margin, "position")


def recorded_layout(events: Sequence[Event]) -> TableLayout | None:
    """The table layout the game's ``game_configured`` recorded; None when it recorded
    none (a log from before the layout was logged: the caller's fallback decides)."""
    config = next((e for e in events if isinstance(e, GameConfigured)), None)
    if config is None or config.seat_edges is None:
        return None
    return TableLayout(edges=config.seat_edges)


def _long_axis_is_vertical(corners: Sequence[tuple[float, float]]) -> bool | None:
    """True if the card's long side runs up-down in the image, None when it is about 45 degrees."""
    (x0, y0), (x1, y1), (x2, y2), _ = corners[:4]
    top = (x1 - x0, y1 - y0)  # the artwork's top edge: the card's short side
    side = (x2 - x1, y2 - y1)  # its right edge: the long side
    long_vec = side if math.hypot(*side) >= math.hypot(*top) else top
    angle = abs(math.degrees(math.atan2(long_vec[1], long_vec[0]))) % 180.0
    tilt = min(angle, 180.0 - angle)  # 0 = horizontal, 90 = vertical
    if 35.0 < tilt < 55.0:
        return None
    return tilt >= 55.0
