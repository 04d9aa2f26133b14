"""How a frame's card length is chosen from the detector read at several scales (``DetectorStage.find_card_length``).

Kept apart from the network so the choice can be pinned with plain numbers: the detector
reads a frame at scales for ever smaller cards, largest first, and each scale's cards
inside the detector's band are one ``Probe``. Which scale to believe is the hard part on
real photos: a coarse scale can outline a fan of cards as one card, a fine one turns a
carpet's weave into cards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

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
    def top(self) -> float:
        return float(self.scores.max())

    @property
    def length(self) -> float:
        """The median length of the cards peaking within ``PROBE_NEAR`` of the best."""
        return float(np.median(self.lengths[self.scores >= self.top - PROBE_NEAR]))


def is_group(coarse: Probe, fine: Probe) -> bool:
    """Whether ``coarse``'s best card is an outline over several cards that ``fine`` finds apart."""
    best = int(np.argmax(coarse.scores))
    outline = coarse.quads[best].astype(np.float32).reshape(-1, 1, 2)
    length = float(coarse.lengths[best])
    floor = max(PROBE_LEAST, coarse.top - GROUP_PEAK)
    inside = 0
    for quad, score, card in zip(fine.quads, fine.scores, fine.lengths, strict=True):
        if score < floor or not GROUP_LEAST * length <= card <= GROUP_SHARE * length:
            continue
        cx, cy = (float(v) for v in quad.mean(axis=0))
        inside += cv2.pointPolygonTest(outline, (cx, cy), False) >= 0
    return inside >= 2


def choose_length(probes: Iterable[Probe | None]) -> float | None:
    """The card length of the first scale with a sure card (``PROBE_SURE``) that the next
    scale does not show to be a group; without one, that of the largest-card scale, no group,
    whose best peaks within ``PROBE_TIE`` of the highest. None if no scale saw a card.

    ``probes`` come largest cards first and are read lazily: a sure scale costs one finer
    scale more to check, and no other.
    """
    found: list[Probe] = []
    group: list[bool] = []  # per probe found: its best card is a group
    sure: int | None = None
    for probe in probes:
        if probe is None:
            continue
        group = [g or is_group(earlier, probe) for earlier, g in zip(found, group, strict=True)]
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
    best = max(p.top for p in alone)
    return next(p.length for p in alone if p.top >= best - PROBE_TIE)
