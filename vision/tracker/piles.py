"""A card laid squarely on a counted card: one outline, two cards.

Why apart: tricks laid close about the centre sometimes get a card laid right on top of
one already counted, turned a little or not at all. The detector then draws one outline
where both lie, at the counted card's own outline, and reads it as a third card (a Nell
under an Ober read as the Six of the Nell's suit). Taken for the counted card misread
(what a half-covered card looks like, ``tracks.at_own_outline``), the new card is never
counted and its trick closes with the sweep's blur. What tells the two apart is the hand:
a card laid on top came in and vanished, in flight, the moment the counted card's reads
changed, and no other card came to rest anywhere; a counted card merely misread has no
card vanishing into it (the next card lies elsewhere and shows there).

The same holds for a trick left lying: its winner leads the next trick squarely onto
one of its cards, turn or no turn of the old trick's players.

The new card is then followed on its own track where both lie, and the covered card
keeps its count but takes no detections while the new one lies on it. The reads where the
two lie are of both in one crop, so the new card is named from its reads on the way in,
while it was clear of every other card; they are few, and where they disagree the card
counts unsure, with its runners-up for the table to check.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from vision.detection import Detection
from vision.tracker.identity import resolve
from vision.tracker.state import CLEAR_SHARE, TableState
from vision.tracker.tracks import CLEAR_OTHER_READ, Track, TrackState, at_own_outline, names

#: A card seen coming in that vanished at most this many frames before the counted card's
#: reads changed is the one laid on it.
LANDING_FRAMES = 4
#: ... if its reads on the way in name a card not yet played with at least this share of
#: their vote: a hand carrying only a blur read as old cards may be hiding the next card
#: on its way to lie beside the counted one, which the reads there then only mistook.
LANDING_SHARE = 0.25
#: A counted card not read as another card at its own outline for more than this many
#: frames starts a new streak when it is again: a read before it lay hidden (a second or
#: more, under the cards of a trick left lying or a hand) tells nothing of when a card
#: was laid on it, and dated that card to before the hand that laid it came.
STREAK_GAP_FRAMES = 4


@dataclass
class _Streak:
    """A counted card read as another card at its own outline, frame after frame."""

    start: float
    #: Its vote when the streak began: what it was read as before a card lay on it.
    votes: dict[str, float]
    frames: int = 0
    #: When it was last seen read so.
    seen: float = 0.0
    last: Detection | None = None
    #: What it was read as since (the recogniser's confidence summed per card).
    reads: dict[str, float] = field(default_factory=dict)
    #: The views of a card seen coming in that vanished just before it began.
    incoming: list[Track] = field(default_factory=list)

    def leader(self) -> str | None:
        """The card it was read as most since the streak began."""
        return max(sorted(self.reads), key=self.reads.__getitem__) if self.reads else None


def _summed_votes(views: list[Track]) -> dict[str, float]:
    """The votes of the views of one card seen coming in, as one."""
    votes: dict[str, float] = {}
    for view in views:
        for card, vote in view.votes.items():
            votes[card] = votes.get(card, 0.0) + vote
    return votes


class Piles:
    """Cards laid squarely on counted cards of the trick, from ``state``'s tracks."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        #: Counted cards read as another card at their own outline, by track id.
        self._streaks: dict[int, _Streak] = {}

    def follow(self, t: float, matched: list[tuple[Track, Detection]], new_id: Callable[[], int]) -> list[Track]:
        """Weigh this frame's detections of the trick's counted cards (``matched``, after
        each track observed its detection); returns the tracks of cards found laid
        squarely on one of them, to be followed from now on."""
        ledger = self.state.ledger
        in_trick = {laid.track_id for laid in ledger.trick}
        for track, det in matched:
            if track.id not in in_trick or track.state is not TrackState.PLAYED or track.card is None:
                continue
            if names(det, track.card) or not at_own_outline(track, det):
                self._streaks.pop(track.id, None)
                continue
            streak = self._streaks.get(track.id)
            if streak is not None and t - streak.seen > STREAK_GAP_FRAMES * self.state.frame_dt + 1e-6:
                streak = None
            if streak is not None and streak.last is not None and det.card != streak.last.card:
                # Read as yet another card the moment a card coming in vanished: that card
                # was laid on it (a counted card already misread, a Eight counted as the
                # Nine, read as both cards in one crop once the Ten lies on it).
                vanished = self._vanished(track, t)
                if vanished:
                    streak = self._streaks[track.id] = _Streak(t, dict(track.votes), incoming=vanished)
            if streak is None:
                streak = self._streaks[track.id] = _Streak(t, dict(track.votes), incoming=self._vanished(track, t))
            streak.frames += 1
            streak.seen = t
            streak.last = det
            streak.reads[det.card] = streak.reads.get(det.card, 0.0) + det.confidence
        for track_id in [k for k in self._streaks if k not in in_trick]:
            del self._streaks[track_id]
        self._uncover()
        out: list[Track] = []
        for track_id, streak in list(self._streaks.items()):
            under = self.state.track(track_id)
            if under is None or under.covered_by is not None or streak.last is None:
                continue
            if streak.frames < self.state.config.maximum_decision_frames or under.last_t != t:
                continue
            incoming = self._landed(under, streak)
            if incoming or self._laid_by_turns_hand(streak, t):
                out.append(self._lay_on(under, streak, incoming, new_id()))
                del self._streaks[track_id]
        return out

    def _vanished(self, under: Track, t: float) -> list[Track]:
        """Cards seen coming in, never at rest, that vanished (into ``under``?) at most
        ``LANDING_FRAMES`` before ``t``."""
        state = self.state
        window = LANDING_FRAMES * state.frame_dt + 1e-6
        return [
            tr
            for tr in state.tracks
            if tr.state is TrackState.CANDIDATE
            and tr.missed > 0
            and tr.arrived_t is None
            and tr.id not in state.ledger.shown
            and tr.first_t > under.arrival
            and t - window <= tr.last_t < t
            and tr.leading_identity()[0] != under.card
        ]

    def _landed(self, under: Track, streak: _Streak) -> list[Track]:
        """The views of the card that came in and vanished into ``under`` just before its
        reads changed (none if another card came to rest since or shows this very frame,
        or it shows again: that one is the card laid, and ``under`` is half covered and
        misread)."""
        state = self.state
        incoming = [tr for tr in streak.incoming if tr.state is TrackState.CANDIDATE and tr.missed > 0]
        if not incoming or len(incoming) < len(streak.incoming):
            return []  # the card that came in shows again elsewhere
        if streak.leader() in {tr.leading_identity()[0] for tr in incoming}:
            return []  # read as the card coming in: laid half over it, it will show on its own
        reading = resolve(_summed_votes(incoming), state.ledger.played, replay_share=2.0)
        if reading is None or reading.confidence < LANDING_SHARE:
            return []
        since = min(tr.first_t for tr in incoming)
        for other in state.tracks:
            if (
                other.state in (TrackState.CANDIDATE, TrackState.PLAYED)
                and other not in incoming
                and (other.first_t >= since or (other.arrived_t is not None and other.arrived_t >= since))
                and (other.rest_frames >= 2 or other.missed == 0)
                and state.layout.in_play_area(other.anchor, *state.size)
            ):
                return []
        return incoming

    def _laid_by_turns_hand(self, streak: _Streak, t: float) -> bool:
        """Did the hand of the player whose turn it is lay a card on the counted card whose
        reads changed (``streak``), though the card was never followed on its way in (seen
        a moment near the edge, then hidden in the hand)?

        That hand was over the table as the reads changed and has gone since, carrying no
        counted card off (``_carrying``), the reads still name one card not yet played,
        clearly and frame after frame, and no other card came to rest or showed anywhere
        since. A counted card misread under a hand reads as itself again once the hand has
        gone; one whose next card lay beside it has that card showing there."""
        state = self.state
        ledger = state.ledger
        cfg = state.config
        leader = streak.leader()
        # (On a trick left lying, the next card is its winner's lead, laid on one of its cards.)
        expected = ledger.upcoming_seat() if ledger.contract is not None else None
        if leader is None or leader in ledger.played or expected is None or not streak.frames:
            return False
        edge = state.layout.edges[expected]
        window = LANDING_FRAMES * state.frame_dt + 1e-6
        reached, last = state.turn_arms_since.get(edge), state.turn_arms_last.get(edge)
        if reached is None or last is None or not (reached <= streak.start + window and last >= streak.start - window):
            return False  # the turn's hand was not over the table as the reads changed
        if t - last < cfg.minimum_consecutive_frames * state.frame_dt - 1e-6:
            return False  # still there: what shows may be the counted card under it
        if self._carrying(streak, window):
            return False  # that hand was taking a counted card back, not laying one
        read = streak.reads[leader]
        # As sure as a read of another card on a counted one must be (``CLEAR_OTHER_READ``),
        # not as a resting card's own reads: a card laid over another often reads a little
        # less surely than one lying alone, and its reads here name that one card.
        if read < CLEAR_SHARE * sum(streak.reads.values()) or read < CLEAR_OTHER_READ * streak.frames:
            return False
        return not any(
            other.state in (TrackState.CANDIDATE, TrackState.PLAYED)
            and other.first_t >= streak.start - window
            and (other.rest_frames >= 2 or other.missed == 0)
            and state.layout.in_play_area(other.anchor, *state.size)
            for other in state.tracks
        )

    def _carrying(self, streak: _Streak, window: float) -> bool:
        """Was a counted card of the trick seen carried well off its place since just
        before ``streak`` began? A hand taking a card back lays none meanwhile; passing
        over the counted card beside it, it makes that card read as another."""
        state = self.state
        for laid in state.ledger.trick:
            track = state.track(laid.track_id)
            if (
                track is not None
                and track.last_t >= streak.start - window
                and math.dist(track.centre, laid.placed) > state.config.left_distance * laid.size
            ):
                return True
        return False

    def _lay_on(self, under: Track, streak: _Streak, incoming: list[Track], track_id: int) -> Track:
        """Follow the card laid on ``under`` (seen coming in as ``incoming``, or not seen
        before it lay there) from now on."""
        assert streak.last is not None
        track = Track.start(track_id, streak.last, streak.start)
        track.last_t = under.last_t
        if incoming:
            first = min(incoming, key=lambda tr: (tr.first_t, tr.id))
            track.first_t, track.origin = first.first_t, first.origin
            track.votes, track.reads, track.arm_frames = _summed_votes(incoming), 0, {}
            for view in incoming:
                for edge, n in view.arm_frames.items():
                    track.arm_frames[edge] = track.arm_frames.get(edge, 0) + n
                track.arms_first_seen |= view.arms_first_seen
                track.reads += view.reads
                view.state = TrackState.IGNORED
        else:
            # Named from its reads where it lies: the one clear name they give.
            track.votes, track.reads = dict(streak.reads), streak.frames
        track.rest_frames = track.settled_frames = streak.frames
        track.rest_t = streak.start
        track.arrived_t, track.arrived_corners = streak.start, track.anchor_corners
        track.covers, under.covered_by = under.id, track.id
        under.votes = streak.votes  # what it was read as since a card lay on it was that card
        return track

    def _uncover(self) -> None:
        """A counted card whose cover has gone (swept, lifted, forgotten) shows itself again."""
        cfg = self.state.config
        for track in self.state.tracks:
            if track.covered_by is None:
                continue
            cover = self.state.track(track.covered_by)
            if (
                cover is None
                or cover.state in (TrackState.RETIRED, TrackState.IGNORED)
                or math.dist(cover.centre, track.centre) > cfg.left_distance * track.size
            ):
                track.covered_by = None
