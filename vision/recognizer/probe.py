"""How a frame's card length is chosen from the detector read at several scales (``DetectorStage.find_card_length``).

Kept apart from the network so the choice can be pinned with plain numbers: the detector
reads a frame at scales for ever smaller cards, largest first, and each scale's cards
inside the detector's band are one ``Probe``. Which scale to believe is the hard part on
real photos: a coarse scale can outline a fan of cards as one card, a fine one turns a
carpet's weave into cards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognizer.geometry import quad_lengths

#: The peak at which a card is sure (the search stops at the first such scale), and the
#: least peak a card found at some scale must reach to be believed at all. A whole card at
#: its right scale can peak a hair under 0.8 on one CPU and over it on another (the
#: runtime's kernels differ), and a sure mark there hands a photo to a finer scale that
#: outlines only the part of a card left in view; 0.78 was chosen on the real photos'
#: training split (models/README.md).
PROBE_SURE = 0.78
PROBE_LEAST = 0.4
#: Without a sure card, the largest cards whose best peak comes within this of the highest
#: win: on real photos a whole card read at a coarse scale and a blob of carpet weave read
#: at a fine one peaked alike (0.6-0.7), and the weave is never a card.
PROBE_TIE = 0.1
#: A scale's length is the median of its cards peaking within this of its best.
PROBE_NEAR = 0.2
#: Without a sure card, a scale whose best card the outline verifier covers under this is
#: no card but a blob of the background: on real photos a card filling most of the picture,
#: read at its coarse scale, peaked under 0.5, and wood grain or carpet weave read at the
#: finest scale over 0.6; the verifier covered the card 0.7-0.8 and the blob 0.2-0.6.
#: Chosen on the real photos' training split (0.4 / 0.5 / 0.6; models/README.md).
PROBE_COVERED = 0.5
#: A scale's best card is a group when a finer scale finds at least two cards with their
#: centres inside its outline, each ``GROUP_LEAST``-``GROUP_SHARE`` of its length and
#: peaking within ``GROUP_PEAK`` of it (and at least ``PROBE_LEAST``): cards fanned or laid
#: side by side, read at too coarse a scale, come out as one card-shaped blob over all of
#: them. Smaller blobs inside a card are its print (pips, a face), not cards.
GROUP_SHARE = 0.8
GROUP_LEAST = 0.5
GROUP_PEAK = 0.1


@dataclass(frozen=True)
class Probe:
    """The cards inside the detector's band at one scale, in frame pixels."""

    quads: np.ndarray  # (K, 4, 2)
    scores: np.ndarray  # (K,) the detector's peak
    lengths: np.ndarray  # (K,) long side

    @property
    def best(self) -> int:
        """The index of the card peaking highest."""
        return int(np.argmax(self.scores))

    @property
    def top(self) -> float:
        return float(self.scores.max())

    @property
    def length(self) -> float:
        """The median length of the cards peaking within ``PROBE_NEAR`` of the best."""
        return float(np.median(self.lengths[self.scores >= self.top - PROBE_NEAR]))


def _centres_inside(
    outline: np.ndarray, length: float, quads: np.ndarray, lengths: np.ndarray, least: float, most: float
) -> list[int]:
    """Which of ``quads`` (their ``lengths`` ``least``-``most`` of ``length``) have their centre inside ``outline``."""
    poly = outline.astype(np.float32).reshape(-1, 1, 2)
    return [
        k
        for k, (quad, card) in enumerate(zip(quads, lengths, strict=True))
        if least * length <= card <= most * length
        and cv2.pointPolygonTest(poly, tuple(float(v) for v in quad.mean(axis=0)), False) >= 0
    ]


def _held_by_best(coarse: Probe, fine: Probe, least_peak: float) -> int:
    """How many of ``fine``'s cards peaking ``least_peak`` or more, ``GROUP_LEAST``-``GROUP_SHARE``
    of ``coarse``'s best card's length, have their centre inside that card."""
    best = coarse.best
    strong = fine.scores >= least_peak
    length = float(coarse.lengths[best])
    return len(
        _centres_inside(coarse.quads[best], length, fine.quads[strong], fine.lengths[strong], GROUP_LEAST, GROUP_SHARE)
    )


def is_group(coarse: Probe, fine: Probe) -> bool:
    """Whether ``coarse``'s best card is an outline over several cards that ``fine`` finds apart."""
    return _held_by_best(coarse, fine, max(PROBE_LEAST, coarse.top - GROUP_PEAK)) >= 2


def is_outlined_large(coarse: Probe, fine: Probe) -> bool:
    """Whether ``coarse``'s best card is a smaller card that ``fine`` is sure of, outlined too large.

    That is, ``fine`` is sure (``PROBE_SURE``) of a card ``GROUP_LEAST``-``GROUP_SHARE`` of
    its length with its centre inside it. A card read at a scale for cards twice its
    length comes out under the detector's band, and the detector, sure there is a card,
    outlines it (with its shadow, or a card beside it) as long as the band allows: at the
    guide's mounting a trick of 90-px cards outlined 117-145 px long. A card outlined at
    its own length, read at the next scale, shows its print a little shorter (a phone
    photo's card of 263 px, its picture 223 px), and that is no smaller card.
    """
    return _held_by_best(coarse, fine, PROBE_SURE) >= 1


#: A photo's outline is a group of cards (``over_groups``) when a reading for smaller cards
#: finds at least two cards ``COVER_GROUP_LEAST``-``COVER_GROUP_MOST`` of its length with
#: their centres inside it, and the verifier covers the best of them better than it covers
#: the outline. Chosen on the real photos' training split (models/README.md): 0.4-0.9 and
#: 0.45-0.85 found the same cards, 0.5-0.8 one fewer at a third of the size.
COVER_GROUP_LEAST = 0.45
COVER_GROUP_MOST = 0.85


def over_groups(coarse: np.ndarray, coarse_cover: np.ndarray, fine: np.ndarray, fine_cover: np.ndarray) -> np.ndarray:
    """Which ``coarse`` outlines lie over several cards that the ``fine`` outlines find apart.

    The length search picks one length per photo, and a row of cards laid overlapping,
    read at it, can come out as one card-shaped outline over two or three of them. The
    detector is sure of such an outline, so it outranks the cards' own outlines read for
    smaller cards; the verifier is not (it covers a row about 0.6, a card about 0.95), and
    that tells the two apart. One card whose print a finer reading outlines as two small
    "cards" is covered better than those, so it stays.
    """
    out = np.zeros(len(coarse), bool)
    if not len(coarse) or not len(fine):
        return out
    lengths = quad_lengths(fine)
    for i, (outline, length) in enumerate(zip(coarse, quad_lengths(coarse), strict=True)):
        held = _centres_inside(outline, float(length), fine, lengths, COVER_GROUP_LEAST, COVER_GROUP_MOST)
        out[i] = len(held) >= 2 and float(coarse_cover[i]) < float(fine_cover[held].max())
    return out


def choose_length(probes: Iterable[Probe | None], cover: Callable[[Probe], float] | None = None) -> float | None:
    """The card length of the first scale with a sure card (``PROBE_SURE``) that the next
    scale does not show to be a group (``is_group``) or a card outlined too large
    (``is_outlined_large``); without one, that of the largest-card scale, neither, whose
    best peaks within ``PROBE_TIE`` of the highest. None if no scale saw a card.

    ``cover``: the outline verifier's coverage of a scale's best card. Without a sure card,
    a scale whose best card it covers under ``PROBE_COVERED`` takes no part, unless no
    scale is covered so (``cover`` is asked only then, for those scales).

    ``probes`` come largest cards first and are read lazily: a sure scale costs one finer
    scale more to check, and no other.
    """
    found: list[Probe] = []
    group: list[bool] = []  # per probe found: its best card is a group
    sure: int | None = None
    for probe in probes:
        if probe is None:
            continue
        group = [
            g or is_group(earlier, probe) or is_outlined_large(earlier, probe)
            for earlier, g in zip(found, group, strict=True)
        ]
        if sure is not None:
            if not group[sure]:
                return found[sure].length
            sure = None
        found.append(probe)
        group.append(False)
        if probe.top >= PROBE_SURE:
            sure = len(found) - 1
    if sure is not None:
        return found[sure].length
    alone = [p for p, g in zip(found, group, strict=True) if not g] or found
    if not alone:
        return None
    if cover is not None:
        alone = [p for p in alone if cover(p) >= PROBE_COVERED] or alone
    best = max(p.top for p in alone)
    return next(p.length for p in alone if p.top >= best - PROBE_TIE)
