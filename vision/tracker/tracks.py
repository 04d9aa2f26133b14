"""Card tracks: one per physical card on the table, followed by position across frames.

A track is what lets a hand over a card, a dropped detection or one misread frame pass
without creating or losing a card: the card's place and its identity vote live on in the
track while the detections come and go. Matching is by centre distance in card sizes
(robust for small, rotated cards where box IoU swings with angle), from a constant-velocity
prediction so a card being slid in stays one track, with a penalty when a detection reads
clearly as a different card than the track has settled on, so a card laid half over
another starts its own track instead of stealing the old one.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import Enum

import cv2
import numpy as np

from vision.detection import Detection
from vision.tracker.config import TrackerConfig

PATH_LENGTH = 32
MOVING_VOTE_WEIGHT = 0.5

#: Added to the matching cost when a detection clearly reads as another card.
IDENTITY_PENALTY = 0.35
#: A read this sure of another card where a counted card lies is a new card on top of it,
#: once the counted card has been read as itself this many times since it counted, or as
#: surely as ``SURE_OTHER_READ`` this many times at all. Two: the next card is often laid
#: on one within a few frames of its counting (two cards laid almost together), and a
#: counted card misread off its own outline is rarer than that.
CLEAR_OTHER_READ = 0.6
COVERED_AFTER_READS = 2
#: ... unless its outline lies within this share of the card's size of the counted card's:
#: then it is the counted card, read from the part another card leaves in view.
SAME_OUTLINE = 0.15
#: A runner-up below this share does not name a card: the identifier lists three
#: runners-up for every read, most of them at a share of nothing.
RUNNER_UP = 0.05
#: Frames a counted card must have been unseen to be taken as gone from where it lay: a hand
#: over a card it leaves lying moves on within a second (at the appliance's 10 frames a second).
LONG_GONE_FRAMES = 10
#: A read this sure of a card that a resting card's reads never named is another card.
SURE_OTHER_READ = 0.8
#: A counted card gone ``LONG_GONE_FRAMES``, then read at its own outline at least this
#: surely as a card still to come that does not name it, was taken back and that card laid
#: in its place (``match_cost``). A new card's first read, still in the hand that lays it,
#: is seldom ``SURE_OTHER_READ``; this is surer than most misreads of what shows of a card
#: long hidden.
REPLACED_READ = 0.7
#: A counted card read surely as itself and in view takes no read of another card of this
#: much or more, off its outline, that does not name it (``match_cost``): the next card
#: laid beside or on it.
OFF_OUTLINE_READ = 0.5
#: A resting card read on average less surely than this was never clearly seen: a sure
#: read of another card after it was hidden is a card laid there (``match_cost``; 0.6 and
#: 0.7 measured alike: CHANGELOG.md).
VAGUE_REST_READ = 0.6
#: A counted card gone ``LONG_GONE_FRAMES`` and read as itself less surely than this, with
#: another card a runner-up of at least ``VAGUE_RETURN_OTHER``, is not that card come back
#: (``match_cost``; 0.65 and 0.8 measured alike: CHANGELOG.md).
VAGUE_RETURN_READ = 0.65
VAGUE_RETURN_OTHER = 0.15
#: A resting card whose leading read has at least this share of its vote was read as itself
#: (``match_cost``): a clear read of another card off its outline, once it is hidden, is the
#: next card laid on it. Half, not more: the first frames of a card laid often hold a read
#: of the hand's blur as some other card (measured in models/README.md, "Habits, fourth pass").
SEEN_AS_ITSELF = 0.5
#: ... and so is a read of another card this sure or more, unclear as it is, that lies
#: ``OFF_REST_SHIFT`` of the card's size or more from where it lay still (``match_cost``;
#: 0.2 for either measured alike: CHANGELOG.md).
OFF_REST_READ = 0.3
OFF_REST_SHIFT = 0.3
#: A read at least this sure of another card, off a hidden counted card's outline and not
#: naming it, is the next card laid on it (``match_cost``). Lower than ``SURE_OTHER_READ``:
#: the counted card's own reads say what it is, and a card read this clearly as another,
#: where a hand just hid it, is one.
LAID_ON_READ = 0.6
#: A clear read of another card, outlined whole this share of a card's size off a counted
#: card's whole outline, is the next card laid over it even before the counted card was
#: read as itself again (``COVERED_AFTER_READS``): a nudge moves a card less, and what
#: lay still there was a whole card, not a view of part of one under the hand.
LAID_OVER_SHIFT = 0.35
#: A card outlined this many degrees across a hidden counted card's outline (long side
#: against long side) is another card laid on it (``match_cost``): a card on the table does
#: not turn by itself, a player straightening one turns it well under this (cards lie
#: within about 25 degrees of their player), and past 45 its long side lies nearer the
#: counted card's short side than its long one.
TURNED_ACROSS = 45.0
#: An outline with its long sides less than this many times its short ones shows no long
#: side to compare (a card half under the next, outlined by what shows).
LONG_SIDE_LEAST = 1.25


def names(det: Detection, card: str | None) -> bool:
    """Whether ``det`` reads as ``card``, first or as a runner-up worth the name."""
    return card is not None and (
        det.card == card or any(other == card and share >= RUNNER_UP for other, share in det.alternatives)
    )


def at_own_outline(track: Track, det: Detection) -> bool:
    """Whether ``det`` lies outline for outline where ``track``'s card lay still the longest
    or was last read as itself: that card read again (misread from the part the next card
    leaves in view), not a new one. Players never lay a card exactly on top of another's
    outline. Not merely where it was seen last: a weak read of the next card coming in over
    it may have been taken for it.

    The tolerance is a share of that outline's own size, not of the track's running size:
    a card half covered by the next one is outlined smaller, and the next card laid over
    it shrinks and shifts that outline further, so a tolerance shrinking with it would
    turn the counted card, still misread from what shows, into a new card."""
    return any(_at_outline(ref, det.corners) for ref in (track.settled_corners, track.named_corners))


def _at_outline(ref: Sequence[tuple[float, float]], corners: Sequence[tuple[float, float]]) -> bool:
    """Does ``corners`` lie outline for outline on ``ref`` (within ``SAME_OUTLINE``)?"""
    return len(ref) == 4 and outline_shift(ref, corners) < SAME_OUTLINE * card_size(ref)


def long_side(corners: Sequence[tuple[float, float]]) -> float | None:
    """The direction of an outline's long sides in degrees, in [0, 180); None when it has
    no four corners or is too square to tell (``LONG_SIDE_LEAST``)."""
    if len(corners) != 4:
        return None
    p = np.asarray(corners, float)
    # Opposite sides run opposite ways round an outline: their difference is twice a side.
    a, b = p[1] - p[0] - (p[3] - p[2]), p[2] - p[1] - (p[0] - p[3])
    la, lb = float(np.hypot(*a)), float(np.hypot(*b))
    if max(la, lb) < LONG_SIDE_LEAST * max(min(la, lb), 1e-6):
        return None
    v = a if la >= lb else b
    return math.degrees(math.atan2(v[1], v[0])) % 180.0


def turned_across(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> bool:
    """Whether outline ``b`` lies turned ``TURNED_ACROSS`` or more against outline ``a``."""
    x, y = long_side(a), long_side(b)
    if x is None or y is None:
        return False
    d = abs(x - y)
    return min(d, 180.0 - d) >= TURNED_ACROSS


def outline_shift(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> float:
    """Mean distance between two outlines' corners, in the corner order that fits best
    (an outline has no first corner); infinite when either has none."""
    if len(a) != 4 or len(b) != 4:
        return math.inf
    return min(sum(math.dist(a[i], b[(i + k) % 4]) for i in range(4)) / 4 for k in range(4))


class TrackState(Enum):
    CANDIDATE = "candidate"  # seen, not yet counted
    PLAYED = "played"  # counted as a card of the current trick
    IGNORED = "ignored"  # an already-played card seen again; never counted
    RETIRED = "retired"  # belonged to a collected trick


def card_size(corners: Sequence[tuple[float, float]]) -> float:
    """Mean side length of the card's quadrilateral, in pixels (at least 1)."""
    total = 0.0
    for i in range(4):
        x0, y0 = corners[i]
        x1, y1 = corners[(i + 1) % 4]
        total += math.hypot(x1 - x0, y1 - y0)
    return max(total / 4.0, 1.0)


@dataclass
class Track:
    id: int
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    size: float
    first_t: float
    last_t: float
    velocity: tuple[float, float] = (0.0, 0.0)
    #: Where the card was first seen: still in the hand that lays it, on that player's side.
    origin: tuple[float, float] = (0.0, 0.0)
    #: The image edges an arm reached in from while the card came in (from a moment before
    #: it was first seen until it came to rest), with the frames each was seen in: whose
    #: hand brought it, when the hand hid it until it was nearly laid (``TrickTracker``
    #: fills it from ``FrameDetections.arms``) ...
    arm_frames: dict[str, int] = field(default_factory=dict)
    #: ... and those among them already there when it was first seen: the hand that brings
    #: a card is in the picture before the card is; an arm that came after it did not. With
    #: none in view then, the first seen while it comes in: a card carried in at the
    #: frame's rim shows a frame or two before the arm holding it.
    arms_first_seen: frozenset[str] = frozenset()
    seen: int = 1
    missed: int = 0
    anchor: tuple[float, float] = (0.0, 0.0)
    anchor_corners: tuple[tuple[float, float], ...] = ()
    rest_frames: int = 1
    rest_t: float = 0.0
    #: When it first came to rest (laid down), kept when it is nudged later; None before.
    arrived_t: float | None = None
    #: ... and the outline it lay at then.
    arrived_corners: tuple[tuple[float, float], ...] = ()
    #: Sum of the recogniser's confidences over the reads since the card came to rest:
    #: low while a hand still half covers it.
    rest_confidence: float = 0.0
    rest_reads: int = 0
    #: Sum of the outline sizes since the card came to rest: the size of the card as it
    #: lies, not as it looked in the hand on its way down (nearer the camera, bigger).
    rest_size_sum: float = 0.0
    #: Where the card lay still the longest (earliest on ties): the place it was laid,
    #: even if it was swept away before it settled for long.
    settled: tuple[float, float] = (0.0, 0.0)
    settled_corners: tuple[tuple[float, float], ...] = ()
    settled_frames: int = 0
    #: The most frames it ever lay still in one place: ``settled_frames`` starts again when a
    #: counted card, hidden a moment, shows a little off (the cards laid over it since), but
    #: how long it lay there whole is still known.
    longest_rest: int = 0
    #: The outline of the last read that named the track's card (any read before it has one).
    named_corners: tuple[tuple[float, float], ...] = ()
    #: ... and when that read was.
    named_t: float = 0.0
    #: The card of the trick collected last that this counted card was laid on, over most of
    #: its place (``TrickTracker._laid_on``), and how many reads named that card and not this
    #: one since this one was last read as itself, the last of them when: taken back by its
    #: player, a card laid on a trick left lying leaves its track the reads of the card
    #: under it.
    laid_on: str | None = None
    under_reads: int = 0
    under_t: float = -1.0
    #: Recent places (centre, corners), oldest first, for cards that never settled.
    path: deque[tuple[tuple[float, float], tuple[tuple[float, float], ...]]] = field(
        default_factory=lambda: deque(maxlen=PATH_LENGTH)
    )
    votes: dict[str, float] = field(default_factory=dict)
    #: How many of its reads named each card at least as surely as ``SURE_OTHER_READ``.
    sure_reads: dict[str, int] = field(default_factory=dict)
    reads: int = 0
    #: Reads as its counted card since it counted.
    confirmed: int = 0
    state: TrackState = TrackState.CANDIDATE
    card: str | None = None  # the decided identity once counted (or ignored)
    #: The counted card this one was laid squarely on (``piles``): the reads where it lies
    #: are of both cards in one outline, so only its reads on the way in vote.
    covers: int | None = None
    #: The card laid squarely on this counted one: it takes this card's detections.
    covered_by: int | None = None
    #: A counted card gone from where it lay and taken to be carried off (its player took
    #: it back): a read of another card there is another card (``Collection.note_carried``).
    carried_off: bool = False
    #: Ids of the tracks detected in a frame with this one: two tracks never seen together
    #: where one card lies are that card's reads taking turns, not two cards.
    seen_with: set[int] = field(default_factory=set)
    #: Ids of the tracks detected on their way in (not yet laid), at least a card's size
    #: away, in a frame while this one lay still: two cards for certain, whatever the
    #: detector later makes of either, and this one was there first.
    seen_apart: set[int] = field(default_factory=set)
    #: What those tracks were read as then: the card in the hand may be lost and found
    #: again as a new track where it is laid, and is known there only by its name.
    seen_apart_cards: set[str] = field(default_factory=set)

    @classmethod
    def start(cls, track_id: int, det: Detection, t: float) -> Track:
        centre = det.center
        track = cls(
            id=track_id,
            centre=centre,
            corners=tuple(det.corners),
            size=card_size(det.corners),
            first_t=t,
            last_t=t,
            origin=centre,
            anchor=centre,
            anchor_corners=tuple(det.corners),
            rest_t=t,
            rest_confidence=det.confidence,
            rest_reads=1,
            rest_size_sum=card_size(det.corners),
            settled=centre,
            settled_corners=tuple(det.corners),
            settled_frames=1,
            longest_rest=1,
            named_corners=tuple(det.corners),
            named_t=t,
        )
        track.path.append((centre, tuple(det.corners)))
        track.vote(det)
        return track

    @property
    def predicted(self) -> tuple[float, float]:
        return (self.centre[0] + self.velocity[0], self.centre[1] + self.velocity[1])

    @property
    def arrival(self) -> float:
        """When the card was laid down (came to rest), or the latest time if it never was yet."""
        return self.arrived_t if self.arrived_t is not None else self.rest_t

    @property
    def moving(self) -> bool:
        return self.rest_frames < 2

    def vote(self, det: Detection, weight: float = 1.0) -> None:
        """Add one frame's read (its best id and alternatives, by confidence) to the vote."""
        self.votes[det.card] = self.votes.get(det.card, 0.0) + det.confidence * weight
        for card, conf in det.alternatives:
            if card != det.card:
                self.votes[card] = self.votes.get(card, 0.0) + conf * weight
        self.reads += 1

    def leading_identity(self) -> tuple[str | None, float]:
        """The card the vote favours so far and its share of the vote."""
        total = sum(self.votes.values())
        if total <= 0:
            return None, 0.0
        best = max(sorted(self.votes), key=self.votes.__getitem__)
        return best, self.votes[best] / total

    def observe(self, det: Detection, t: float, cfg: TrackerConfig, *, vote: bool = True, weight: float = 1.0) -> None:
        """One frame's detection of this card: where it is, whether it rests, and its read.

        ``weight`` scales the read's vote (``Track.vote``): a read of a card partly under a
        card laid after it counts for less (``TrickTracker._follow``).
        """
        centre = det.center
        self.velocity = (centre[0] - self.centre[0], centre[1] - self.centre[1])
        if self.missed:
            # After a gap the step is not one frame's motion; do not extrapolate it.
            self.velocity = (0.0, 0.0)
        self.centre = centre
        self.corners = tuple(det.corners)
        if self.card is None or names(det, self.card):
            self.named_corners, self.named_t = self.corners, t
            self.under_reads = 0
        elif names(det, self.laid_on):
            self.under_reads += 1
            self.under_t = t
        self.size = 0.7 * self.size + 0.3 * card_size(det.corners)
        self.last_t = t
        self.seen += 1
        back = self.missed > 0
        self.missed = 0
        if math.dist(centre, self.anchor) <= cfg.rest_tolerance * self.size:
            self.rest_frames += 1
            # The resting place is the running mean of the reads, so detector jitter
            # averages out instead of adding up to a false "it moved".
            k = 1.0 / self.rest_frames
            self.anchor = (
                self.anchor[0] + (centre[0] - self.anchor[0]) * k,
                self.anchor[1] + (centre[1] - self.anchor[1]) * k,
            )
            if vote:
                self.rest_confidence += det.confidence
                self.rest_size_sum += card_size(det.corners)
                self.rest_reads += 1
        else:
            if back and self.state is TrackState.PLAYED:
                # A counted card gone a moment and back a little off: the cards laid over it
                # since change the outline drawn around what shows, or a hand moved it. The
                # hand that laid it stays the evidence of whose it is: the arm in view now
                # is the one laying the next card.
                self.settled, self.settled_corners, self.settled_frames = centre, tuple(det.corners), 0
            elif back and not _at_outline(self.arrived_corners, det.corners):
                # Gone, and back elsewhere: laid anew, from a hand that was not seen. (Back
                # at the outline where it came to rest, it never moved: the outline drawn
                # around the part a passing hand left in view did.)
                self.arrived_t, self.arrived_corners = None, ()
                self.origin = centre
                self.arm_frames, self.arms_first_seen = {}, frozenset()
                self.settled, self.settled_corners, self.settled_frames = centre, tuple(det.corners), 0
            self.anchor = centre
            self.anchor_corners = tuple(det.corners)
            self.rest_frames = 1
            self.rest_t = t
            self.rest_confidence = det.confidence
            self.rest_size_sum = card_size(det.corners)
            self.rest_reads = 1
        if self.arrived_t is None and self.rest_frames >= 2:
            self.arrived_t, self.arrived_corners = self.rest_t, self.anchor_corners
        self.longest_rest = max(self.longest_rest, self.rest_frames)
        if self.rest_frames > self.settled_frames:
            self.settled = self.anchor
            self.settled_corners = self.anchor_corners
            self.settled_frames = self.rest_frames
        self.path.append((centre, tuple(det.corners)))
        if vote and det.confidence >= SURE_OTHER_READ:
            self.sure_reads[det.card] = self.sure_reads.get(det.card, 0) + 1
        if self.state is TrackState.PLAYED and det.card == self.card:
            self.confirmed += 1
        if vote and self.covers is None:
            # A card in motion is blurred, tilted, half in a hand: its reads count half.
            self.vote(det, (1.0 if self.rest_frames >= 2 else MOVING_VOTE_WEIGHT) * weight)

    def note_arms(self, edges: frozenset[str], *, first_seen: bool = False) -> None:
        """Count one frame's arms (``FrameDetections.arms``) as reaching in for this card
        (``first_seen``: a frame from before it was first seen, or that one; or, for a card
        first seen with no hand in view, the first frame a hand shows while it comes in)."""
        for edge in edges:
            self.arm_frames[edge] = self.arm_frames.get(edge, 0) + 1
        if first_seen:
            self.arms_first_seen |= edges

    def arms(self, min_frames: int = 1) -> frozenset[str]:
        """The edges an arm reached in from while the card came in: in at least
        ``min_frames`` frames, and already when it was first seen (or, with none in view
        then, when the first showed: ``note_arms``)."""
        return frozenset(e for e, n in self.arm_frames.items() if n >= min_frames and e in self.arms_first_seen)

    @property
    def rest_read_confidence(self) -> float:
        """Mean recogniser confidence of the reads since the card came to rest."""
        return self.rest_confidence / self.rest_reads if self.rest_reads else 0.0

    @property
    def last_as_itself(self) -> float:
        """When this card was last seen as itself: reads since then that named the card it
        was laid on (``under_reads``) were that card showing where it lay, not this one."""
        return self.named_t if self.under_reads else self.last_t

    @property
    def rest_size(self) -> float:
        """Mean outline size (pixels) of the reads since the card came to rest."""
        return self.rest_size_sum / self.rest_reads if self.rest_reads else self.size

    def miss(self) -> None:
        self.missed += 1
        self.velocity = (0.0, 0.0)

    def displacement(self) -> float:
        """How far (card sizes) the card now is from where it lay still the longest."""
        return math.dist(self.centre, self.settled) / self.size


def match_cost(
    track: Track,
    det: Detection,
    cfg: TrackerConfig,
    *,
    trick_gone: bool = False,
    lead_on: bool = False,
    played: AbstractSet[str] = frozenset(),
) -> float | None:
    """Cost of explaining ``det`` by ``track``; None when it is out of reach.

    ``trick_gone``: ``track`` is a counted card of a trick whose every counted card has
    been gone as long as a collected trick's (swept, even if too fast to be seen moving).
    ``lead_on``: ``track`` is the card the winner of the full trick left lying laid into
    it, and the winner's hand was just over the table: the next lead may lie on it.
    ``played``: the cards counted this round.
    """
    if (
        lead_on
        and track.state is TrackState.PLAYED
        and track.confirmed >= COVERED_AFTER_READS
        and det.confidence >= SURE_OTHER_READ
        and not names(det, track.card)
    ):
        # Players lay every card at their own spot, so the winner's lead lands on the card
        # they laid into the trick left lying, outline for outline. Read as itself again
        # and again before, and now, with the winner's hand just about, a sure read of a
        # card that does not even name it as a runner-up: the lead. Taken for this card
        # misread at its own outline, the lead would never count, and the next card would
        # take its seat. Its misreads in between may still go to this card; its sure reads
        # do not. (Only the winner's own card, while the winner's hand is about: an old
        # card half covered by the next trick is read surely as another now and then.)
        return None
    if track.state in (TrackState.RETIRED, TrackState.IGNORED) and det.card != track.card:
        # A card that no longer counts must never take over a new card's detections.
        return None
    if track.covered_by is not None:
        return None  # a card lies squarely on it: what shows there is that card
    if track.carried_off and not names(det, track.card):
        return None  # taken back by its player: the right card laid where it lay is another
    if (
        track.state is TrackState.PLAYED
        and track.missed >= LONG_GONE_FRAMES
        and det.card != track.card
        and (
            not at_own_outline(track, det)
            or (
                not lead_on
                and det.confidence >= REPLACED_READ
                and det.card not in played
                and not names(det, track.card)
            )
        )
    ):
        # Gone from where it lay longer than a hand lingers over a card it leaves there: its
        # player took it back (a wrong card), and a card read otherwise, off its outline, is
        # the one laid instead (its runner-ups say little: a new card's first read in the
        # hand is vague). Taken for the gone card, it would hide both the take-back and the
        # card laid in its place. A player lays the right card at their own spot, so it may
        # lie outline for outline where the wrong one lay: there, only a clear read of a card
        # still to come that does not name the gone card at all is the card laid instead
        # (what shows of a card long hidden by a hand is misread now and then, mostly less
        # surely, as a card played already, or with itself a runner-up). Not on the card
        # the winner laid into a full trick left lying (``lead_on``): the winner's lead
        # lands there outline for outline, over a card nobody took back.
        return None
    if (
        track.state is TrackState.PLAYED
        and track.missed >= LONG_GONE_FRAMES
        and det.card == track.card
        and det.confidence < VAGUE_RETURN_READ
        and any(share >= VAGUE_RETURN_OTHER for _, share in det.alternatives)
    ):
        # Gone as long, and now read as itself only vaguely, with another card a clear
        # runner-up: the first read of the card laid in its place, still in the hand (a
        # replacement laid where the wrong card lay, read at first as the card that lay
        # there). Taken for the gone card come back, it would keep the take-back from being
        # seen, and the trick would get a fifth card. A card that lay hidden under a hand
        # mostly comes back read as itself more surely.
        return None
    if (
        track.state is TrackState.CANDIDATE
        and track.missed > 0
        and (track.rest_frames >= 2 or track.arrived_t is not None)
        and (
            det.confidence >= 0.5
            or (det.confidence >= OFF_REST_READ and math.dist(det.center, track.settled) >= OFF_REST_SHIFT * track.size)
        )
        and not at_own_outline(track, det)
    ):
        lead, share = track.leading_identity()
        if lead is not None and share >= SEEN_AS_ITSELF and not names(det, lead):
            # A card lying still, read as itself, hidden since, and now a clear read of
            # another card off its outline: the next card laid on it (two laid almost
            # together), not this one moved. Taken for it, the two cards' reads would mix
            # into one track and one of them would never count. A vague read of another
            # card is another card too once it lies a third of a card from where this one
            # lay still: a hand uncovered a card of the trick left lying there, read
            # unsurely from what showed, and the track of another old card's misreads
            # moved onto it; the two cards' reads counted as a card that was never laid.
            return None
    if (
        track.state is TrackState.CANDIDATE
        and track.missed > 0
        and track.rest_frames >= 2
        and track.rest_reads > 0
        and track.rest_read_confidence < VAGUE_REST_READ
        and det.confidence >= SURE_OTHER_READ
        and not names(det, track.leading_identity()[0])
    ):
        # Lying still but only ever read vaguely, hidden since, and now a sure read of a
        # card it was not read as: a card laid there under the hand that hid it, even
        # outline for outline. Players lay every card at their own spot, so on a trick
        # left lying the next card lands on the one its player laid before, whose vague
        # misreads had started this track. Taken for it, the new card would be dated from
        # those misreads, which showed up where the old card lay as it went, and be struck
        # as that old card misread: it would never count.
        return None
    if (
        track.state is TrackState.CANDIDATE
        and track.missed == 0
        and track.rest_frames >= 3
        and det.confidence >= SURE_OTHER_READ
        and not at_own_outline(track, det)
        and track.votes
    ):
        total = sum(track.votes.values())
        if not any(names(det, card) for card, v in track.votes.items() if v >= 0.2 * total):
            # Lying still, read unsurely as one card or another under the hand that laid
            # it, and now a sure read, off its outline, of a card none of those reads
            # named: the next card laid straight over it. Taken for it, the next card would
            # count in this card's seat and this card never.
            return None
    if (
        track.state is TrackState.PLAYED
        and track.missed > 0
        and det.confidence >= LAID_ON_READ
        and not at_own_outline(track, det)
        and (not names(det, track.card) or (det.card != track.card and _whole_card_far_off(track, det, cfg)))
    ):
        # A counted card hidden under a hand, and now a sure read, off its outline, of a
        # card that does not even name it as a runner-up: the next card, laid on it while
        # the hand hid both (on a trick left lying, or squarely on the card before). Taken
        # for it, the counted card would be reread as the new one and the new card never
        # counted. A read that names the counted card only as a runner-up (a corner of it
        # still shows beside the new card) is the new card too when it outlines a whole
        # card well off the counted card's outline: a card misread where it lies keeps its
        # outline, and a nudge under the hand moves it less.
        return None
    if (
        track.state is TrackState.PLAYED
        and track.missed > 0
        and not at_own_outline(track, det)
        and turned_across(track.settled_corners, det.corners)
    ):
        # A counted card hidden under a hand, and now a card outlined across where it lay:
        # the next card, laid squarely on it and turned toward its own player. Its first
        # reads may name the card beneath (an edge of it still shows), so the read cannot
        # tell them apart; the outline can. Taken for the counted card, the next card
        # would reread it and never count.
        return None
    carried = track.missed > 0 and track.moving  # vanished while moving: swept or lifted, not under a hand
    if (
        track.state is TrackState.PLAYED
        and carried
        and det.card != track.card
        and not at_own_outline(track, det)
        and (track.missed >= cfg.collect_after_frames or (det.confidence >= 0.8 and not names(det, track.card)))
    ):
        # A counted card that vanished (swept, lifted, under a hand): a card read otherwise
        # that shows up where it was is another card, often the next trick's lead coming
        # from the side the trick was swept to. Taken for the gone card, it would keep that
        # card in its place, and the trick would never be collected. Right after it
        # vanished only a sure read that does not even name it as a runner-up counts as
        # another card (a swept card blurs and is misread, and the sweep names the
        # collector); once it has been carried off and gone as long as a collected card,
        # any read that puts another card first does (a flat 6 read with the 8 as
        # runner-up, game flat-swiss 4). A card that vanished lying still was under a hand
        # and keeps its detections: a clearer read of it there rereads it. A read at the
        # card's own outline is that card: half covered by the fourth card, whose outline
        # jumps a little as the hand lets go, so it looks "moving" and is missed for a few
        # weak reads; taken for a new card it would be a fifth, closing the trick early.
        return None
    if (
        track.state is TrackState.PLAYED
        and trick_gone
        and det.card != track.card
        and det.confidence >= 0.5
        and not names(det, track.card)
        and not (track.missed <= cfg.maximum_decision_frames and at_own_outline(track, det))
    ):
        # Its whole trick has gone (swept with a card never read, so not collected yet):
        # a read of another card where it lay, not even a 5 % runner-up for it, is the next
        # trick's card, laid where its player lays every card. Taken for the gone card, it would hold the trick on
        # the table and the next card would become its fourth (four-colour game 6). Not at the card's own
        # outline within the moment a hand takes to lay a card: a lead card that the hand
        # hides while the next card is laid half over it looks gone, and is misread from what
        # still shows (a lead laid anew where the last one lay comes later).
        return None
    gate = cfg.moving_match_distance if track.moving and track.missed < cfg.collect_after_frames else cfg.match_distance
    if track.missed:
        # A card reappearing after a gap may have been nudged meanwhile.
        gate = max(gate, cfg.match_distance * 1.5)
    if track.state is TrackState.PLAYED and not names(det, track.card):
        sure = track.sure_reads.get(track.card or "", 0) >= COVERED_AFTER_READS
        # Read surely as itself and in view until now, even an unsure read of another card
        # (``OFF_OUTLINE_READ``) is the next card: one landed a fifth of a card off it and
        # hiding it, unseen on its way in. Taken for the counted card, its first outlines
        # would drag that card's track onto it; the new card would then never count, or
        # what shows of the counted card once the hand has gone would count in its place.
        least = OFF_OUTLINE_READ if sure and track.missed == 0 else CLEAR_OTHER_READ
        if (
            det.confidence >= least
            and (track.confirmed >= COVERED_AFTER_READS or sure or _whole_card_far_off(track, det, cfg))
            and not at_own_outline(track, det)
        ):
            # A card read clearly as another one where a counted card lies that has been
            # read as itself again and again since it counted, or surely more than once
            # (the next card laid over it within a few frames hides it before it is read
            # again): the next card laid right on top of it (tricks laid close about the
            # centre overlap), not the counted card misread. (A card counted on early
            # misreads is never confirmed nor read surely, and is reread when it shows
            # clearly.) A lone misread starts a track that never comes to rest long enough
            # to count. Not when the outline is the counted card's own: a card laid on top
            # shows its own outline, while a counted card that the next card half covers
            # keeps its outline and is misread from what still shows.
            return None
        # A counted card just nudged is "moving", but a card read as another one a little
        # way off is the next card coming in over it, not the counted card moving on.
        gate = min(gate, cfg.match_distance)
    # A card in motion goes on as it went or stops dead (laid down): either place explains it.
    cost = min(math.dist(track.predicted, det.center), math.dist(track.centre, det.center)) / track.size
    identity = track.card
    if identity is None:
        best, share = track.leading_identity()
        identity = best if share >= 0.6 and track.votes.get(best or "", 0.0) >= 0.5 else None
    if identity is not None:
        if det.card == identity:
            # ... or, read as the same card, slows and comes to rest anywhere on the way
            # between: a card in flight lands short of where its speed would carry it.
            cost = _to_segment(det.center, track.centre, track.predicted) / track.size
            # The same card read again: follow it even when it starts moving fast (swept).
            gate = max(gate, 1.5 * cfg.moving_match_distance)
        elif not names(det, identity) and (track.card is not None or det.confidence >= 0.3):
            # Reads as another card: only a near-perfect position match may explain it as a
            # misread. A counted card's identity is settled, so even a weak read of another
            # card nearby (a new card still in the hand that lays it) is not taken for it.
            # At the counted card's own outline the match is that near-perfect one: it keeps
            # the read against a card coming in whose course happens to point there.
            if not (track.state is TrackState.PLAYED and at_own_outline(track, det)):
                cost += IDENTITY_PENALTY
            if det.confidence >= 0.5:
                # A clear read of another card is not this one moving on, however fast this
                # one moved: cards laid close together would swap tracks.
                gate = min(gate, cfg.match_distance + IDENTITY_PENALTY)
    return cost if cost <= gate else None


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance from ``p`` to the segment from ``a`` to ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 <= 0.0:
        return math.dist(p, a)
    k = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + k * dx, a[1] + k * dy))


def _whole_card_far_off(track: Track, det: Detection, cfg: TrackerConfig) -> bool:
    """Does ``det`` outline a whole card at least ``LAID_OVER_SHIFT`` of its size off the
    whole outline where the counted ``track`` lay still? A card counted from a view under
    the hand is outlined smaller, and its whole outline lies elsewhere when the hand has
    gone; a whole card's outline that far off is another card's."""
    ref = track.settled_corners
    return card_size(ref) >= cfg.partial_size_ratio * card_size(det.corners) and outline_shift(
        ref, det.corners
    ) >= LAID_OVER_SHIFT * card_size(ref)


def associate(
    tracks: Sequence[Track],
    dets: Sequence[Detection],
    cfg: TrackerConfig,
    gone: frozenset[int] = frozenset(),
    lead_on: frozenset[int] = frozenset(),
    played: AbstractSet[str] = frozenset(),
) -> list[tuple[int, int]]:
    """Pairs (track index, detection index), cheapest first, each used once (greedy);
    ``gone``: ids of the counted cards of a trick that has gone as a whole; ``lead_on``: the
    id of the card the next lead may be laid on; ``played``: the cards counted this round
    (all three ``match_cost``)."""
    pairs: list[tuple[float, int, int]] = []
    for ti, track in enumerate(tracks):
        for di, det in enumerate(dets):
            cost = match_cost(track, det, cfg, trick_gone=track.id in gone, lead_on=track.id in lead_on, played=played)
            if cost is not None:
                pairs.append((cost, ti, di))
    pairs.sort()
    used_t: set[int] = set()
    used_d: set[int] = set()
    out: list[tuple[int, int]] = []
    for _, ti, di in pairs:
        if ti in used_t or di in used_d:
            continue
        used_t.add(ti)
        used_d.add(di)
        out.append((ti, di))
    return out


def covered_share(under: Sequence[tuple[float, float]], over: Sequence[tuple[float, float]]) -> float:
    """The share of outline ``under``'s area that outline ``over`` lies across (0 to 1).

    The same intersection as ``vision.recognizer.geometry.quad_areas``, kept here because
    importing the recogniser package loads onnxruntime, which the tracker does without.
    """
    a = np.asarray(under, np.float32).reshape(-1, 2)
    b = np.asarray(over, np.float32).reshape(-1, 2)
    if a[:, 0].max() <= b[:, 0].min() or b[:, 0].max() <= a[:, 0].min():
        return 0.0
    if a[:, 1].max() <= b[:, 1].min() or b[:, 1].max() <= a[:, 1].min():
        return 0.0
    area = abs(float(cv2.contourArea(a)))
    if area <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(cv2.convexHull(a), cv2.convexHull(b))
    return min(1.0, max(0.0, float(inter)) / area)
