"""The tracker's knobs, named for what they do, checked once when made.

Counts are in frames because the recogniser's stability is a per-frame thing; the one
duration (``lost_track_buffer``) is in seconds because a hand resting over a card lasts
a time, not a number of frames. The defaults are for 10 fps: a clearly read card counts
after three frames at rest (0.2-0.3 s after it stops); an unclear or half-hidden one waits
at most seven (0.7 s), inside the 0.5 s median / 1 s p95 latency budget. The thresholds
on recogniser confidence were tuned on the bundled demo recording and six rendered games
(seeds 5000000-5000005) with the early recogniser checkpoint; the collector thresholds
and the rereads (``misreads.py``: MIN_REREAD_SHARE, REREAD_ODDS) on games 5000000-5000045
with the first shipped models. benchmarks/tracker.py measures from seed 5000100 on.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class TrackerConfig:
    #: Frames a card must be seen at rest (same place) before it counts as played.
    minimum_consecutive_frames: int = 3
    #: With an unclear read, wait up to this many frames at rest for a clearer one.
    maximum_decision_frames: int = 7
    #: A read this sure (share of the identity vote) is decided at once.
    decide_confidence: float = 0.75
    #: A card read only as cards already played this round (no read of a card still to
    #: come) waits this many frames at rest for one before it counts as that old card,
    #: which the rules engine flags (four times ``maximum_decision_frames``).
    old_read_frames: int = 28
    #: Reads of a resting card less sure than this on average (the recogniser's own
    #: confidence) make the tracker wait for clearer ones, up to maximum_decision_frames.
    clear_read_confidence: float = 0.7
    #: A card looking smaller than this fraction of the counted cards' usual size is
    #: partly hidden: the tracker waits for the whole card, up to maximum_decision_frames.
    partial_size_ratio: float = 0.85
    #: Below this confidence the event carries its alternatives for the table to check.
    ask_below: float = 0.75
    #: Detections less sure than this are ignored (noise, half-hidden cards).
    min_detection_confidence: float = 0.3
    #: How far (in card sizes) a card may drift and still count as resting. A hand over
    #: one edge moves the outline drawn around what shows by a tenth of the card or more;
    #: a card pushed or straightened moves further (measured: CHANGELOG.md).
    rest_tolerance: float = 0.125
    #: How far (in card sizes) from its predicted place a resting card's detection may be.
    match_distance: float = 0.6
    #: Same for a card still moving (being laid or swept).
    moving_match_distance: float = 2.0
    #: Seconds a played card may stay unseen (a hand over it) before it is forgotten.
    lost_track_buffer: float = 4.0
    #: Frames all cards of a trick must be gone before the trick counts as collected.
    collect_after_frames: int = 3
    #: A played card moved this far (card sizes) from where it lay has left its place.
    left_distance: float = 1.2
    #: The trick's cards must have moved this far together (card sizes) towards a player
    #: before ``TrickCollected`` names that player as the collector.
    collector_move: float = 0.6
    #: A trick card carried away names the collector by the side it went to only once it
    #: is this far (card sizes) from the table centre: gathering the trick in the middle
    #: moves cards towards the opposite seat first.
    collector_out: float = 1.0
    #: Frames a not-yet-counted card must have been seen to be kept when its trick is
    #: swept away before it came to rest (a trick collected early).
    flush_min_frames: int = 2
    #: A card read this surely as one already played this round is that old card seen
    #: again (a collected pile, a peek), not a new play.
    replay_share: float = 0.6
    #: Seats follow the turn order; only clear evidence says a card came from another
    #: player (it is then reported as that player's, and the rules engine flags it out of
    #: turn). Evidence one: the hand brought it in from that player's edge, first seen at
    #: least this far (card sizes) from where it came to rest ...
    approach_distance: float = 1.5
    #: ... evidence two: it lies at least this far (card sizes) out from the table centre
    #: in front of that player. Cards laid close together near the centre are no evidence.
    front_distance: float = 1.2
    #: Either way the direction must point this squarely at that player's edge (1 - the
    #: tangent of its angle off the edge's axis: 0.5 is within 27 degrees).
    evidence_margin: float = 0.5
    #: Evidence three, the clearest: the arm that brought the card in (``vision.arms``).
    #: Arms seen up to this many seconds before the card was first seen count for it: the
    #: hand hides the card for most of its way in (about half a second), while the previous
    #: player's arm has usually left the picture a second before.
    arm_lead: float = 0.8
    #: An edge counts as having reached in for a card only if an arm was seen there in at
    #: least this many frames: a shadow or a flicker at the border in one frame is no hand.
    arm_min_frames: int = 2
    #: Two cards that came to rest within this many seconds of each other were laid
    #: almost together: which of them is whose turn is decided by where they lie and
    #: where their hands came from, not by which settled first.
    together_window: float = 0.5
    #: A read of a card that a card laid after it covers this share of (their outlines'
    #: overlap over its own outline's area) ...
    covered_share: float = 0.1
    #: ... votes with this weight: the later card hides pips and the index, and a 9 with
    #: three pips under the next card reads as a 6.
    covered_vote_weight: float = 0.25

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"{f.name} must be a number, got {value!r}")
        for name in (
            "minimum_consecutive_frames",
            "maximum_decision_frames",
            "old_read_frames",
            "collect_after_frames",
            "flush_min_frames",
            "arm_min_frames",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        if self.maximum_decision_frames < self.minimum_consecutive_frames:
            raise ValueError(
                f"maximum_decision_frames ({self.maximum_decision_frames}) must be >= "
                f"minimum_consecutive_frames ({self.minimum_consecutive_frames})"
            )
        for name in (
            "decide_confidence",
            "ask_below",
            "min_detection_confidence",
            "replay_share",
            "clear_read_confidence",
            "partial_size_ratio",
            "evidence_margin",
            "covered_share",
            "covered_vote_weight",
        ):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
        for name in (
            "rest_tolerance",
            "match_distance",
            "moving_match_distance",
            "left_distance",
            "lost_track_buffer",
            "collector_move",
            "collector_out",
            "approach_distance",
            "front_distance",
            "together_window",
            "arm_lead",
        ):
            value = getattr(self, name)
            if value <= 0:
                raise ValueError(f"{name} must be positive, got {value!r}")
