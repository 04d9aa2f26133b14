"""What the trick tracker's collaborators share: the tracks, the knobs, the table, the
frame and the round ledger.

Why one object: the tracker's parts (``seats``, ``partial``, ``misreads``, ``collection``)
each weigh the same cards on the same table. Handing each the one ``TableState`` the
façade (``tracker.TrickTracker``) keeps up to date lets them stay plain objects that never
hold a copy of anything that could go stale, and keeps what they may look at in one list.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

from scoring.events import Event
from vision.tracker.config import TrackerConfig
from vision.tracker.layout import TableLayout
from vision.tracker.ledger import Laid, RoundLedger
from vision.tracker.reread import CardReread, CardWithdrawn
from vision.tracker.tracks import Track

#: What the tracker returns: schema events, and its second thoughts on a card it reported.
TrackerEvent = Event | CardReread | CardWithdrawn
#: The share of its vote a card's leading read needs to be called clear.
CLEAR_SHARE = 0.8
#: Seconds of frames' arms kept in ``TableState.arm_log``: longer than a counted card stays
#: out of sight before it is judged taken back (``LONG_GONE_FRAMES`` frames and a hand's lay).
ARM_LOG_SECONDS = 4.0


@dataclass
class TableState:
    """The tracker's state as its collaborators see it (the façade updates it each frame)."""

    layout: TableLayout
    config: TrackerConfig
    ledger: RoundLedger = field(default_factory=RoundLedger)
    #: The cards on the table being followed (replaced, not changed in place, each frame).
    tracks: list[Track] = field(default_factory=list)
    #: The last frame's width and height (pixels).
    size: tuple[int, int] = (0, 0)
    #: Time between the last two frames (seconds); 0.1 until two frames have come.
    frame_dt: float = 0.1
    #: Frames in which an arm reached in from each edge since the last card counted.
    turn_arms: dict[str, int] = field(default_factory=dict)
    #: When an arm first reached in from each edge since the last card counted.
    turn_arms_since: dict[str, float] = field(default_factory=dict)
    #: When an arm last reached in from each edge since the last card counted.
    turn_arms_last: dict[str, float] = field(default_factory=dict)
    #: (time, arms) of the last ``ARM_LOG_SECONDS`` (at least ``config.arm_lead``) of
    #: frames: which hands were over the table while a counted card was out of sight.
    arm_log: deque[tuple[float, frozenset[str]]] = field(default_factory=deque)

    @property
    def arm_history(self) -> list[tuple[float, frozenset[str]]]:
        """(time, arms) of the last ``config.arm_lead`` seconds of frames, for the arm that
        brought a card first seen now."""
        if not self.arm_log:
            return []
        since = self.arm_log[-1][0] - self.config.arm_lead
        return [entry for entry in self.arm_log if entry[0] >= since]

    def saw_arms(self, t: float, arms: frozenset[str]) -> None:
        """Keep the arms a frame at ``t`` shows in mind."""
        self.arm_log.append((t, arms))
        while self.arm_log[0][0] < t - max(ARM_LOG_SECONDS, self.config.arm_lead):
            self.arm_log.popleft()
        for edge in arms:
            self.turn_arms[edge] = self.turn_arms.get(edge, 0) + 1
            self.turn_arms_since.setdefault(edge, t)
            self.turn_arms_last[edge] = t

    def card_counted(self) -> None:
        """A card counted: the arms seen from now on reach in for the next one."""
        self.turn_arms = {}
        self.turn_arms_since = {}
        self.turn_arms_last = {}

    def track(self, track_id: int) -> Track | None:
        """The track ``track_id``, None once it is forgotten."""
        for tr in self.tracks:
            if tr.id == track_id:
                return tr
        return None

    def carried_in_from(
        self, origin: tuple[float, float], place: tuple[float, float], size: float
    ) -> tuple[str, float] | None:
        """The edge a hand clearly carried a card in from, and how squarely: the card was
        first seen at ``origin``, ``approach_distance`` cards or more from ``place`` where it
        lies, squarely (``evidence_margin``) on that edge's side; None when it was first seen
        nearer, or from no side clearly."""
        way_in = (origin[0] - place[0], origin[1] - place[1])
        if math.hypot(*way_in) < self.config.approach_distance * max(size, 1.0):
            return None
        edge, margin = self.layout.squareness(way_in)
        return (edge, margin) if margin >= self.config.evidence_margin else None

    def left_its_place(self, laid: Laid) -> bool:
        """Has the counted card ``laid`` gone from where it lay (moved off, or unseen long
        enough to be gone)?"""
        track = self.track(laid.track_id)
        if track is None or track.missed >= self.config.collect_after_frames:
            return True
        moved = ((track.centre[0] - laid.placed[0]) ** 2 + (track.centre[1] - laid.placed[1]) ** 2) ** 0.5
        return moved > self.config.left_distance * laid.size
