"""The formats of an enrolled deck's prototypes, each with the one step that brings a profile to it.

Why: a profile is kept for years, the enroller learns more about a deck over time, and a
profile made before a part existed must get that part without the player laying the
deck out again. Each format adds one part; a profile's format is the highest one whose
parts it has all (read from the profile itself, so a profile of any age needs no
stored number to be judged). The step to a format is to rebuild the prototypes from the
kept pictures (``Enroller.refresh``), which makes every part at once.

Not a format: prototypes made by another identifier (``probe``) or with their table
views cut and judged by other outline networks (``outlines``) are for other models and
are rebuilt for the same reason (``Enroller.is_current``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from vision.enroll.detail_head import DetailHead
from vision.enroll.head import DeckPrototypes
from vision.enroll.profile import DeckProfile


class Capabilities(Protocol):
    """What the enroller in use can make: whether it gives the detail head's map, judges outlines, lays tables."""

    @property
    def gives_trunk(self) -> bool: ...

    def judges_outlines(self) -> bool: ...

    def table_views(self, views: int) -> int: ...


@dataclass(frozen=True)
class Format:
    """One format: its number, the part it adds (why it exists), and whether a profile has that part."""

    version: int
    adds: str
    has: Callable[[DeckProfile, Capabilities], bool]


def _head_on_current_features(p: DeckProfile, e: Capabilities) -> bool:
    protos = p.prototypes
    return not (isinstance(protos, DeckPrototypes) and protos.head_weights is not None and not protos.has_head)


def _verified(p: DeckProfile, e: Capabilities) -> bool:
    return not (p.prototypes.verified is None and p.views > 0 and e.judges_outlines())


def _outline(p: DeckProfile, e: Capabilities) -> bool:
    return not (p.prototypes.outline is None and e.table_views(p.views) > 0)


def _detail(p: DeckProfile, e: Capabilities) -> DetailHead | None | bool:
    """The profile's detail head; False where it has no deck head to go with one (nothing to add)."""
    protos = p.prototypes
    return protos.detail if isinstance(protos, DeckPrototypes) and protos.head_weights is not None else False


def _detail_head(p: DeckProfile, e: Capabilities) -> bool:
    return not (_detail(p, e) is None and e.gives_trunk)


def _detail_on_fine_map(p: DeckProfile, e: Capabilities) -> bool:
    detail = _detail(p, e)
    return not (isinstance(detail, DetailHead) and not (e.gives_trunk and detail.fits_map))


#: Every format after the first (prototypes of the pictures' views, with the identifier's probe).
FORMATS: tuple[Format, ...] = (
    Format(2, "a deck head on the crop's gradients and a paper-balanced thumbnail", _head_on_current_features),
    Format(3, "the cards the outline verifier knows (Prototypes.verified)", _verified),
    Format(4, "where the networks outline the deck's cards (Prototypes.outline)", _outline),
    Format(5, "a detail head on the identifier's map", _detail_head),
    Format(
        6,
        "the detail head on the identifier's finer map (192x12x8), readable by the identifier in use",
        _detail_on_fine_map,
    ),
)
FORMAT_VERSION = FORMATS[-1].version


def profile_format(profile: DeckProfile, enroller: Capabilities) -> int:
    """The highest format whose parts ``profile`` has all, for what ``enroller`` can make."""
    version = 1
    for f in FORMATS:
        if not f.has(profile, enroller):
            break
        version = f.version
    return version


def missing_parts(profile: DeckProfile, enroller: Capabilities) -> list[str]:
    """What a rebuild would add: the parts of every format ``profile`` lacks."""
    return [f.adds for f in FORMATS if not f.has(profile, enroller)]
