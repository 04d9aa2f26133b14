"""Frames to game events: which card each player laid, and when a trick was collected.

The tracker is a plain, deterministic object: feed it one ``FrameDetections`` at a time
and it returns the events that frame completed (usually none). It keeps no clock and does
no I/O; event times are the times of the frames that decided them.

Per frame it (1) follows each card on the table with a track (``tracks``), (2) counts a
card as played once its track has lain still for a few frames and its identity vote is
clear enough or has waited long enough (``identity``), giving it the seat whose turn it
is (where it lies, where the hand came from and whose arm brought it, read against the
table's ``layout``, only say when a card was clearly laid out of turn), and (3) counts the trick as
collected once all its cards have left their places. A card its player took back before
the next card is withdrawn (``CardWithdrawn``). A trick swept with one or two cards never
read is collected with those seats' cards ``unseen`` when the next trick's first card is
counted (or at once, for the round's last trick), so a card the camera missed costs one
trick, not every later one: the rules engine keeps that trick open for the card. The rules
engine decides who won each trick (the leader of the next one); a card clearly laid out
of turn or by the wrong player is reported as seen and left for the rules engine to flag.

``TrickTracker`` is a façade: it follows the tracks and decides when a card counts, and
asks its collaborators the rest, each a plain object over one shared ``TableState``
(``state``): the round as counted so far (``ledger.RoundLedger``), whose card it is and
the order of cards laid together (``seats.Seats``), second thoughts on counted cards
(``misreads.Misreads``), views of cards under a hand (``partial.PartialViews``), cards
laid squarely on a counted card (``piles.Piles``), and tricks collected and cards taken
back (``collection.Collection``).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import replace

from scoring.cards import CARD_INDEX
from scoring.events import CardPlayed, Event, RoundStarted, WeisDeclared
from scoring.rules import next_seat
from vision.detection import Detection, FrameDetections
from vision.tracker.collection import Collection
from vision.tracker.config import TrackerConfig
from vision.tracker.identity import Reading, among_the_last, resolve
from vision.tracker.layout import TableLayout
from vision.tracker.ledger import TRICKS_PER_ROUND, Count, Laid
from vision.tracker.misreads import MIN_REREAD_READ, MIN_REREAD_SHARE, REREAD_FLOOR, REREAD_ODDS, Misreads
from vision.tracker.partial import PUSHED_SIZE_RATIO, WAIT, PartialViews, look_alike
from vision.tracker.piles import Piles
from vision.tracker.reread import CardReread
from vision.tracker.seats import Seats
from vision.tracker.state import CLEAR_SHARE, TableState, TrackerEvent
from vision.tracker.tracks import (
    SAME_OUTLINE,
    Track,
    TrackState,
    associate,
    card_size,
    covered_share,
    outline_shift,
)

#: Seconds after a card of a trick left lying was last seen where it lay in which a track read
#: firmly as it may be that card, swept off after the next lead (``_may_be_old_card``).
SWEPT_AFTER_LEAD = 2.0
#: A track read firmly as a card already played that turned up where it lies within this
#: many seconds after a trick was collected may be that old card: the trick gathered into a
#: pile that still lies in view, its top card read (``_may_be_old_card``). A new lead slid
#: in from an edge is seen coming.
GATHERED_WITHIN = 0.5
#: A card of a trick left lying that the next trick's cards partly cover is outlined by
#: what still shows of it: its outline's corners move off where it lay by up to about a
#: fifth of its size (``SAME_OUTLINE``, the shift within which two outlines are one card,
#: is too strict for it; measured: CHANGELOG, "Fewer tricks lost to cards laid close together").
LEFT_LYING_SHIFT = 0.24
#: A track that turned up where a card of the trick collected last lay, its outline within
#: this share of the card's size of that card's, corner for corner, and read as a card like
#: it, is that card seen again even while a hand of a player still to lay is in view
#: (``_old_card_misread``): a card laid by hand seldom lands so exactly on a card already
#: lying, and then it is mostly read as itself.
CORNER_FOR_CORNER = 0.06
#: A track read firmly as a card of the trick collected last, whose reads give a card still
#: to come less than this share, names no new card by that faint read
#: (``_left_lying_seen_again``; and ``_decide`` for a track read mostly as an old card that
#: may be seen again). A single misread frame among a few seconds of reads of the old card
#: holds about a tenth of the vote, so the bar sits a little above that (measured values in
#: CHANGELOG.md).
FAINT_UNPLAYED = 0.15
#: ... when its outline lies across at least this share of where that card lay ...
OVER_ITS_PLACE = 0.3
#: ... and that card counted at least this surely: a count less sure may be the misread,
#: and this track the real card (``Misreads.doubt_earlier_read`` weighs the two).
SURE_COUNT = 0.95
#: ... or its reads named it at least this many times as often as any other card: each read
#: of a card lists runners-up, and faint ones spread over many cards take a tenth of the
#: vote from a card read as itself in every frame, which is as sure a count as any.
SURE_OVER_RUNNER_UP = 20.0
#: Seconds since the winner's hand was last over the table within which a sure read of
#: another card on the winner's own card of the full trick is the lead laid on it
#: (``_lead_on``; at 0.5 the lead it was found on was read surely too late, and without
#: the hand the real recogniser's reads lost tricks: CHANGELOG.md).
LEAD_HAND_SECONDS = 1.0

__all__ = [
    "CLEAR_SHARE",
    "MIN_REREAD_READ",
    "MIN_REREAD_SHARE",
    "PUSHED_SIZE_RATIO",
    "REREAD_FLOOR",
    "REREAD_ODDS",
    "TRICKS_PER_ROUND",
    "TableInputs",
    "TrackerEvent",
    "TrickTracker",
]


#: The table's own inputs a tracker takes as the dashboard enters them (``TrickTracker.table_input``).
TABLE_INPUTS = (RoundStarted, WeisDeclared)
#: Seconds by which an input's time may exceed a frame's and still come before that frame:
#: the two stamps of one moment, rounded apart.
INPUT_SLACK_S = 1e-9

#: How many of the times a counted card went from view where it lay are kept in mind: a
#: card of the last trick misread flickers between its own read and another's
#: (``TrickTracker._old_card_misread``).
LAID_GONE_KEPT = 8


class TrickTracker:
    """Turns a stream of per-frame detections into ``CardPlayed`` / ``TrickCollected`` events.

    Call :meth:`start_round` with the round's ``RoundStarted`` (it carries the contract and
    who leads), then :meth:`update` for every frame in time order, and :meth:`finish` when
    the stream ends.
    """

    def __init__(self, layout: TableLayout | None = None, config: TrackerConfig | None = None) -> None:
        self._state = TableState(layout or TableLayout(), config or TrackerConfig())
        self._ledger = self._state.ledger
        self._seats = Seats(self._state)
        self._misreads = Misreads(self._state, self._seats)
        self._partial = PartialViews(self._state, self._misreads)
        self._collection = Collection(self._state, self._partial)
        self._piles = Piles(self._state)
        self._next_id = 0
        self._last_t: float | None = None
        self._last_detections: tuple[Detection, ...] = ()
        self._waiting = False  # set by _decide when a card waits for a clearer read
        #: The cards of the trick collected last, with when each was last seen after that
        #: (a trick left lying while the next is led; ``_may_be_old_card``).
        self._lying_seen: dict[str, float] = {}
        #: Where each card of the trick on the table and of the trick collected last lay,
        #: while it was last seen there (not once it was seen leaving).
        self._laid_outline: dict[str, tuple[tuple[float, float], ...]] = {}
        #: ... and when each was last seen lying there.
        self._laid_seen: dict[str, float] = {}
        #: ... and when a track showing each was last seen before each of the last times it
        #: went from view (``LAID_GONE_KEPT``; seen again since, the card may have shown
        #: meanwhile as another: ``_old_card_misread``).
        self._laid_gone: dict[str, list[float]] = {}

    # -- what the app may inspect -------------------------------------------------------

    @property
    def layout(self) -> TableLayout:
        return self._state.layout

    @property
    def config(self) -> TrackerConfig:
        return self._state.config

    @property
    def contract(self) -> str | None:
        return self._ledger.contract

    @property
    def tricks_done(self) -> int:
        return self._ledger.tricks_done

    @property
    def leader(self) -> int:
        """The seat that led (or leads) the current trick."""
        return self._ledger.leader

    @property
    def current_trick(self) -> list[tuple[int, str]]:
        """(seat, card) of the cards counted in the trick on the table, in the order laid."""
        return [(laid.seat, laid.card) for laid in self._ledger.trick]

    @property
    def round_over(self) -> bool:
        return self._ledger.round_over

    @property
    def tracks(self) -> tuple[Track, ...]:
        return tuple(self._state.tracks)

    @property
    def table_centre(self) -> tuple[float, float] | None:
        """The table centre measured from the tricks so far (pixels), None before the first
        (``RoundLedger.table_centre``)."""
        return self._ledger.table_centre

    # -- input ----------------------------------------------------------------------------

    def start_round(self, event: RoundStarted, history: Sequence[Event] = ()) -> None:
        """Begin a round: its contract, and ``forehand`` leads the first trick.

        Cards still on the table from before are not counted in the new round.
        ``history``: when resuming a round already under way (the appliance restarted),
        the round's events stored so far, after ``event``. The collected tricks among them
        are taken as done (their cards played, the last winner leading); the cards of the
        trick still on the table are left out, because the camera will see them again.
        """
        if not isinstance(event, RoundStarted):
            raise TypeError(f"start_round needs a RoundStarted event, got {type(event).__name__}")
        next_seat(event.forehand)  # validates the seat
        # Face-up cards lying about after the last round ended are that round's cards,
        # turned up to count them: shown, not played. A single one may be this round's
        # lead, laid before the contract was entered, and still counts.
        after_round = [
            tr for tr in self._state.tracks if self.round_over and tr.state is TrackState.CANDIDATE and tr.missed == 0
        ]
        # The one card of the round before that the camera never saw (its last trick went
        # with a card unseen) lying there alone is that card, laid late, not the new lead.
        unseen = set(CARD_INDEX) - self._ledger.played if self.round_over and self._ledger.played else set()
        shown = {tr.id: tr.anchor for tr in after_round} if len(after_round) >= 2 else {}
        for tr in self._state.tracks:
            if tr.state is TrackState.CANDIDATE and tr.leading_identity()[0] in unseen:
                shown[tr.id] = tr.anchor  # hidden a moment (a hand over it) as the round was entered
        self._ledger.start(event, shown=shown)
        for track in self._state.tracks:
            if track.state is not TrackState.CANDIDATE:
                track.state = TrackState.RETIRED
        self._ledger.replay(history)

    def declare(self, event: WeisDeclared) -> None:
        """The table declared a Weis this round (on the dashboard, during the first trick):
        the cards it names are in that player's hand. Two cards laid almost together are
        otherwise told apart only by where they lie and the hands seen; a declared card
        says whose it is (``Seats.fit``, ``Seats.laid_the_other_way``)."""
        if self._ledger.contract is not None:
            self._ledger.declare(event)

    def table_input(self, event: RoundStarted | WeisDeclared) -> None:
        """One of the table's own inputs, as the dashboard enters them: a round started, or
        a Weis declared."""
        if isinstance(event, RoundStarted):
            self.start_round(event)
        else:
            self.declare(event)

    def amend(self, history: Sequence[Event]) -> None:
        """The table corrected this round: ``history`` is the round's events after its
        ``round_started`` as the rules engine counts them now (undo and corrections
        applied, a never-seen card the table named put into its trick).

        Who leads is the winner the rules compute, so a card the table corrects in a
        collected trick can change whose turn the next trick's first card is: the
        collected tricks are taken as the table has them. The trick on the table keeps
        its tracks; its cards take the table's names and seats in the order laid, and a
        card the table took out of it is not counted again.
        """
        if self._ledger.contract is None:
            return
        renamed, dropped = self._ledger.amend(history)
        for track_id, card in renamed:
            if (track := self._state.track(track_id)) is not None:
                track.card = card
        for track_id in dropped:
            if (track := self._state.track(track_id)) is not None:
                track.state = TrackState.IGNORED

    def update(self, frame: FrameDetections, *, repeated: bool | None = None) -> list[TrackerEvent]:
        """Take one frame's detections; return the events it completed, in order.

        ``repeated``: the detections are the previous frame's, handed on because the
        picture did not change (``FrameGate``). They still count as time passing with the
        cards where they were, but not as new reads in the identity vote, so one unlucky
        read is not multiplied by the frames it was repeated for. By default a frame whose
        detections are the very same objects as the previous frame's is taken as repeated.
        """
        if self._last_t is not None and frame.t < self._last_t:
            raise ValueError(f"frames must come in time order: t={frame.t} after t={self._last_t}")
        if repeated is None:
            repeated = (
                bool(frame.detections)
                and all(a is b for a, b in zip(frame.detections, self._last_detections, strict=False))
                and len(frame.detections) == len(self._last_detections)
            )
        self._last_detections = frame.detections
        if self._last_t is not None and frame.t > self._last_t:
            self._state.frame_dt = frame.t - self._last_t
        self._last_t = frame.t
        self._state.size = (frame.width, frame.height)
        self._follow(frame, vote=not repeated)
        if self._ledger.contract is None or self.round_over:
            return []
        events: list[TrackerEvent] = []
        self._note_lying(frame.t)
        self._collection.note_carried(frame.t)
        events += self._collection.check_collected(frame.t, self._count_swept)
        events += self._misreads.check_counted_reads(frame.t)
        ready = [
            tr
            for tr in self._state.tracks
            if tr.state is TrackState.CANDIDATE and tr.rest_frames >= self.config.minimum_consecutive_frames
        ]
        ready.sort(key=lambda tr: (tr.rest_t, tr.id))
        if ready and not self.round_over:
            # A card come to rest while one of the trick was carried off: that one was
            # taken back (before the turn of the cards now down is weighed).
            events += self._collection.withdraw_taken_back(ready[0], frame.t)
        while ready:
            ready = self._seats.order_together(ready)
            track = ready.pop(0)
            if self.round_over:
                break
            self._waiting = False
            if self._seats.awaits_partner(track):
                break
            if self._seats.awaits_earlier(track):
                continue  # the card laid before it may be among the ready ones: it goes first
            if self._seats.no_hand_laid(track):
                if track.missed == 0:
                    break  # cards count in the order they came to rest: the later ones wait
                continue  # gone again (the next card over its place): later cards need not wait
            if self._seats.turn_card_hidden(track):
                # The turn's card laid hidden counts first, once it shows; until then wait.
                showing = self._seats.shown_in_place(track, ready)
                if not showing:
                    break
                ready = [track, *(tr for tr in ready if tr is not showing[0])]
                track = showing[0]
            for hidden in [*self._partial.glimpsed_under(track), *self._partial.overlooked(track)]:
                events += self._decide(hidden, frame.t, forced=True)
            before = len(self._ledger.trick)
            events += self._decide(track, frame.t, forced=False)
            if len(self._ledger.trick) == before + 1 and self._ledger.trick[-1].track_id == track.id:
                events = self._swap_if_together(events, frame.t)
            if self._waiting and track.missed == 0:
                # Cards count in the order they came to rest: one laid later but read
                # sooner waits for this one (a bounded wait, maximum_decision_frames).
                break
        return events

    def finish(self, t: float | None = None) -> list[TrackerEvent]:
        """The stream ended: count the cards that were about to count.

        A resting card not yet decided is decided now. A complete trick still on the table
        stays uncollected (nobody took it), so no ``TrickCollected`` is invented.
        """
        if self._ledger.contract is None or self.round_over:
            return []
        when = t if t is not None else (self._last_t or 0.0)
        events: list[TrackerEvent] = []
        pending = [
            tr
            for tr in self._state.tracks
            if tr.state is TrackState.CANDIDATE
            and tr.seen >= self.config.flush_min_frames
            and tr.rest_frames >= 2
            and tr.missed == 0  # still on the table at the end
        ]
        pending.sort(key=lambda tr: (tr.rest_t, tr.id))
        for track in pending:
            if len(self._ledger.trick) >= 4:
                break
            events += self._decide(track, when, forced=True)
        return events

    # -- tracking -------------------------------------------------------------------------

    def _covered_weights(self, pairs: list[tuple[int, int]], dets: list[Detection]) -> dict[int, float]:
        """The vote weight of each matched detection that a card laid later lies across.

        Cards of a trick are laid close together and overlap, the later on the earlier:
        the earlier card's reads then show only part of it, and a 9 with a row of pips
        under the next card reads as a 6 (a trick led with it was counted one card off and
        took the round's next tricks with it). Which card lies on top is not seen; the
        one laid later does. A card seen for the first time this frame is the latest.
        """
        cfg = self.config
        first = {di: self._state.tracks[ti].first_t for ti, di in pairs}
        newest = math.inf
        out: dict[int, float] = {}
        for di, t in first.items():
            x0, y0, x1, y1 = dets[di].box
            for dj, det in enumerate(dets):
                if dj == di or first.get(dj, newest) <= t:
                    continue
                if det.box[0] >= x1 or det.box[2] <= x0 or det.box[1] >= y1 or det.box[3] <= y0:
                    continue  # boxes apart: most pairs, answered without the outlines
                if covered_share(dets[di].corners, det.corners) >= cfg.covered_share:
                    out[di] = cfg.covered_vote_weight
                    break
        return out

    def _follow(self, frame: FrameDetections, *, vote: bool = True) -> None:
        cfg = self.config
        dets = [d for d in frame.detections if d.face_up and d.confidence >= cfg.min_detection_confidence]
        pairs = associate(
            self._state.tracks, dets, cfg, self._gone_trick(), self._lead_on(frame.t), self._ledger.played
        )
        matched_tracks = {ti for ti, _ in pairs}
        matched_dets = {di for _, di in pairs}
        self._state.saw_arms(frame.t, frame.arms)
        weights = self._covered_weights(pairs, dets) if vote else {}
        for ti, di in pairs:
            track = self._state.tracks[ti]
            coming_in, was_gone = track.arrived_t is None, track.missed > 0
            track.observe(dets[di], frame.t, cfg, vote=vote, weight=weights.get(di, 1.0))
            if was_gone and track.arrived_t is None and not track.arm_frames:
                self._note_arms_before(track)  # gone and laid anew: by the hand seen just now
            elif coming_in or track.arrived_t is None:
                # Still coming in, or this frame it came to rest. A card first seen with no
                # hand in view came in at the frame's rim ahead of the hand holding it: the
                # first hand seen with it brought it.
                track.note_arms(frame.arms, first_seen=not track.arms_first_seen)
        for ti, track in enumerate(self._state.tracks):
            if ti not in matched_tracks:
                track.miss()
        matched = [(self._state.tracks[ti], dets[di]) for ti, di in pairs]
        for di, det in enumerate(dets):
            if di not in matched_dets:
                track = Track.start(self._new_id(), det, frame.t)
                self._note_arms_before(track)
                self._state.tracks.append(track)
        self._state.tracks += self._piles.follow(frame.t, matched, self._new_id)
        together = [t for t in self._state.tracks if t.last_t == frame.t]  # matched, new and laid on piles
        ids = {t.id for t in together}
        for track in together:
            track.seen_with |= ids - {track.id}
            if not track.moving:
                apart = [
                    other
                    for other in together
                    if other is not track
                    and other.arrived_t is None  # on its way in, not yet laid
                    and math.dist(other.centre, track.centre) >= max(other.size, track.size)
                ]
                track.seen_apart |= {other.id for other in apart}
                track.seen_apart_cards |= {card for other in apart if (card := other.leading_identity()[0])}
        in_trick = {laid.track_id for laid in self._ledger.trick}
        kept: list[Track] = []
        dropped: list[Track] = []
        for tr in self._state.tracks:
            (kept if self._worth_keeping(tr, frame.t, in_trick) else dropped).append(tr)
        # A card that came to rest and was hidden before it lay still long enough to count
        # is kept in mind (it may show again), and is a glimpse of its turn's card from
        # the moment it would be forgotten were it a card only seen in motion.
        glimpsed = [tr for tr in kept if self._glimpsed_now(tr, in_trick)]
        if (dropped or glimpsed) and self._ledger.contract is not None and not self.round_over:
            self._partial.note_dropped([*dropped, *glimpsed], frame.t)
        self._state.tracks = kept

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id - 1

    def _note_arms_before(self, track: Track) -> None:
        """The arms seen over the last ``arm_lead`` seconds, this frame's included, count for
        ``track``, first seen now: the hand hid it on most of its way in."""
        for _, arms in self._state.arm_history:
            track.note_arms(arms, first_seen=True)

    def _lead_on(self, t: float) -> frozenset[int]:
        """The track id of the card the winner of the full trick on the table laid into it,
        while the winner's hand was over the table within ``LEAD_HAND_SECONDS`` of ``t``:
        the winner leads next, at their own spot, where that card lies (``match_cost``)."""
        if len(self._ledger.trick) < 4:
            return frozenset()
        winner = self._ledger.full_trick_winner()
        if winner is None:
            return frozenset()
        edge = self.layout.edges[winner]
        if not any(edge in arms and t - seen <= LEAD_HAND_SECONDS for seen, arms in self._state.arm_log):
            return frozenset()
        return frozenset(laid.track_id for laid in self._ledger.trick if laid.seat == winner)

    def _gone_trick(self) -> frozenset[int]:
        """Track ids of this trick's counted cards if every one has been gone as long as a
        collected trick's (picked up before a card was read, so not collected yet)."""
        trick = [tr for laid in self._ledger.trick if (tr := self._state.track(laid.track_id)) is not None]
        if not trick or len(trick) < len(self._ledger.trick):
            return frozenset()
        if all(tr.missed >= self.config.collect_after_frames for tr in trick):
            return frozenset(tr.id for tr in trick)
        return frozenset()

    def _glimpsed_now(self, track: Track, in_trick: set[int]) -> bool:
        """Is ``track`` a card that came to rest but never lay still two frames, hidden just
        long enough now that a card only seen in motion would be forgotten?"""
        return (
            track.id not in in_trick
            and track.state is TrackState.CANDIDATE
            and track.rest_frames < 2
            and track.arrived_t is not None
            and track.missed == self.config.collect_after_frames + 1
        )

    def _worth_keeping(self, track: Track, t: float, in_trick: set[int]) -> bool:
        """Keep a vanished card in mind only where it may come back: a played card or one
        that had come to rest (a hand over it). A card seen only in motion (being swept,
        a false detection) is forgotten quickly so it cannot steal another card's detections.
        """
        if t - track.last_t > self.config.lost_track_buffer:
            return False
        if track.id in self._ledger.shown and track.missed >= self.config.collect_after_frames:
            return False  # a shown card put away: never to be taken for the card laid there next
        if track.id in in_trick:
            return True
        if track.state is TrackState.CANDIDATE and (track.rest_frames >= 2 or track.arrived_t is not None):
            return True
        return track.missed <= self.config.collect_after_frames

    def _shows_again(self, laid: Laid, track: Track) -> list[TrackerEvent]:
        """The counted card ``laid`` is what ``track`` shows from now on."""
        old = self._state.track(laid.track_id)
        if old is not None:
            old.state = TrackState.RETIRED
        laid.track_id, laid.placed, laid.size = track.id, track.anchor, track.rest_size
        track.state, track.card = TrackState.PLAYED, laid.card
        return []

    def _count_swept(self, track: Track, t: float) -> list[TrackerEvent]:
        """Count ``track``, swept with its trick before it counted, whatever its read."""
        return self._decide(track, t, forced=True)

    def _decide(self, track: Track, t: float, *, forced: bool) -> list[TrackerEvent]:
        """Count ``track`` as played if it is ready (``forced``: decide now, whatever the read)."""
        cfg = self.config
        # A card of this trick that vanished and shows up again elsewhere (nudged far,
        # lifted and put back) is the same card, not a new play.
        leader, _ = track.leading_identity()
        if self._is_shown(track, leader):
            return []
        for laid in self._ledger.trick:
            if (
                laid.card == leader
                and self._state.track(laid.track_id) is not track
                and self._state.left_its_place(laid)
            ):
                return self._shows_again(laid, track)
        taken = self._partial.take_over(track, t, forced=forced)
        if taken == WAIT:
            self._waiting = True
            return []
        if taken is not None:
            return taken
        if (lying := self._partial.lies_on_counted(track)) is not None:
            laid, under = lying
            if under.missed > 0 and (
                self._partial.seen_again(track, under, laid, self._seats.upcoming()[0])
                or self._partial.misread_in_its_place(track, under)
                or self._partial.runner_up_in_its_place(track, under)
                or self._partial.before_the_trick_was_full(track)
            ):
                return self._shows_again(laid, track)
            # Read as another card right where a counted card lies, which is hidden since:
            # the next card laid on top of it, or that card misread for a few frames. A
            # misread ends and the counted card shows again; a card on top stays. A card
            # seen beside the counted one in the same frame is neither, nor the next
            # trick's lead laid on the full trick left lying.
            if (
                under.missed == 0
                and track.missed > 0
                and (not self._partial.clearly_another(track, under) or self._partial.takes_turns(track, under))
                and not self._partial.beside(track, under)
                and not self._partial.leads_over_full_trick(track, under)
                and not self._partial.laid_by_turns_hand(track, under)
            ):
                track.state = TrackState.IGNORED
                return []
            if under.missed > 0 and not forced and track.rest_frames < cfg.maximum_decision_frames:
                self._waiting = True
                return []
        if self._partial.before_the_trick_was_full(track):
            # A full trick's fifth card that showed up before its fourth could count: no lead
            # of the next trick, which comes after the fourth, but a counted card seen anew whose track
            # was lost while it lay hidden (misread from what still shows). It shows that
            # card from now on, so that its reads start no new card.
            lost = [laid for laid in self._ledger.trick if self._state.track(laid.track_id) is None]
            if len(lost) == 1:
                return self._shows_again(lost[0], track)
            track.state, track.card = TrackState.IGNORED, leader
            return []
        place, place_corners = track.settled, track.settled_corners
        if forced and track.settled_frames < 2 and track.path:
            # Never lay still: it was laid where it came nearest the middle before the sweep.
            place, place_corners = min(track.path, key=lambda pc: self.layout.radius(pc[0], *self._state.size))
        if not self.layout.in_play_area(place, *self._state.size):
            # Held cards, the Bodentrumpf, a stack at the rim: not a card laid into the trick.
            return []
        if self._old_card_misread(track):
            # Keeps its read as its name, so that its own detections stay with it.
            track.state, track.card = TrackState.IGNORED, leader
            return []
        seat_guess = self._seats.assign(place, place_corners, track=track)
        reading = resolve(
            track.votes,
            self._ledger.played,
            replay_share=cfg.replay_share,
            not_held=self._ledger.not_held[seat_guess.seat],
        )
        if reading is None:
            track.state = TrackState.IGNORED
            return []
        if reading.replay and not self._may_be_old_card(track, reading.card):
            # Read firmly as a card of an earlier trick, yet it appeared during this one:
            # a misread new card. Strike the old card and take the best remaining read.
            struck = reading.card
            reading = resolve(
                track.votes, self._ledger.played, replay_share=2.0, not_held=self._ledger.not_held[seat_guess.seat]
            )  # a share never reaches 2: no replay
            if reading is None:
                return []
            if self._left_lying_seen_again(track, struck, reading.confidence):
                track.state, track.card = TrackState.IGNORED, struck
                return []
        guessed = among_the_last(track.votes, self._ledger.played, reading)
        if guessed is not reading and self._may_be_old_card(track, reading.card):
            # Every read names a card already played, and the best may be that old card
            # seen again (``_may_be_old_card``: a card of the last trick lying where it lay,
            # outlined anew after a hand hid it): it is that card, not one of the cards
            # still to come guessed from nothing.
            guessed = Reading(reading.card, 0.0, (), replay=True)
        reading = guessed
        if (
            not reading.replay
            and leader is not None
            and leader != reading.card
            and leader in self._ledger.played
            and reading.confidence < FAINT_UNPLAYED
            and self._may_be_old_card(track, leader)
        ):
            # Read mostly as a card already played that may be that old card seen again
            # (``_may_be_old_card``), and only faintly as any card still to come: the old
            # card, not a new one named by a stray read (an old card of the trick left lying,
            # misread once as a card still to come, counted on that read alone).
            reading = Reading(leader, 0.0, (), replay=True)
        if reading.replay:
            if not forced and track.rest_frames < cfg.maximum_decision_frames:
                return []  # an old card seen again is rare: make sure before ignoring it
            track.state = TrackState.IGNORED
            track.card = reading.card
            return []
        doubted, reread = self._misreads.doubt_earlier_read(track, reading)
        if (
            not forced
            and reading.confidence == 0.0
            and reading.card in self._ledger.played
            and not reread
            and track.rest_frames < cfg.old_read_frames
        ):
            # Every read names a card already played this round, none a card still to come:
            # mostly a card of the last trick passing under a hand, or a shape between
            # overlapping cards, which goes again; or a new card whose true read comes once
            # the hand has left it. Counted now, it would take the turn's seat, and the
            # real card would take the next. (Unless the earlier card's own reads would
            # rather name another card: then the earlier one was the misread.)
            self._waiting = True
            return []
        if (
            not forced
            and reading.confidence == 0.0
            and reading.card in self._ledger.played
            and not reread
            and self._may_be_old_card(track, reading.card)
        ):
            # Read only as played cards for as long as a new card's true read takes to come,
            # and lying where a card of the last trick it is read as lay: that card, seen anew.
            track.state, track.card = TrackState.IGNORED, reading.card
            return []
        reading = doubted
        if reread and not forced and track.rest_frames < cfg.maximum_decision_frames:
            # Changing a card already reported takes the longest look the latency budget
            # allows: early reads of a card still in the hand are the least reliable.
            self._waiting = True
            return []
        if (
            not forced
            and track.rest_frames < cfg.maximum_decision_frames
            and (
                reading.confidence < cfg.decide_confidence
                or (track.covers is None and track.rest_read_confidence < cfg.clear_read_confidence)
                or (track.covers is None and self._partial.looks_partial(track))
            )
        ):
            # Wait for a clearer read while the latency budget allows: the vote is split,
            # or the recogniser is unsure of every read (a hand still half over the card,
            # whose withdrawal usually shows the card and its true place a moment later).
            self._waiting = True
            return []
        events: list[TrackerEvent] = []
        for was, now in reread:
            events.append(self._misreads.reread(was, now, t))
        if not forced:
            withdrawn = self._collection.withdraw_taken_back(track, t)
            if withdrawn:
                events += withdrawn
                seat_guess = self._seats.assign(place, place_corners, track=track)
        unseen = () if forced else self._collection.unseen_seats(track)  # forced: a card swept with its trick
        if len(self._ledger.trick) >= 4 or unseen:
            # A fifth card: the last trick must have gone unseen (e.g. lifted straight up
            # while a hand hid it). Or the trick was swept with three (or two) cards
            # counted and this card leads the next: the others were never read. Close it
            # before counting the new card.
            events += self._collection.collect(
                t, collector=self._collection.collector() if unseen else None, unseen=unseen
            )
            if self.round_over:
                return events
            seat_guess = self._seats.assign(place, place_corners, track=track)  # a new trick: new leader, no seat taken
        if (over := self._seats.laid_over_hidden(seat_guess, track)) is not None:
            # The card before came from the turn's player, laid over the card before it,
            # hidden since: both keep the turn, and this card is in turn, not out of it.
            events += self._turns_card_over_hidden(over, t)
        events.append(self._play(track, seat_guess.seat, reading, t, place, seat_seen=seat_guess.seen))
        return events

    def _turns_card_over_hidden(self, over: Laid, t: float) -> list[TrackerEvent]:
        """``over``, counted for its seat, was laid by the player whose turn it is now, over
        that seat's card, hidden since (``Seats.laid_over_hidden``).

        If the hidden card came to rest whole and was read clearly before it was covered,
        the card counted for that seat was it: it is reread so, and ``over``'s card counts
        anew for the turn's player, so the log keeps the trick in turn order. Otherwise
        ``over`` is reseated, and the hidden card stays the trick's unseen one.
        """
        expected = self._ledger.expected_seat()
        assert expected is not None
        shown = self._state.track(over.track_id)
        under = self._partial.hidden_under(over)
        hidden = None
        if under is not None:
            not_held = self._ledger.not_held[over.seat]
            hidden = resolve(under.votes, self._ledger.played, replay_share=2.0, not_held=not_held)
        if shown is None or under is None or hidden is None:
            return [*self._seats.reseat(over, expected, t)]
        card = over.card
        events: list[TrackerEvent] = [
            self._misreads.reread(card, hidden.card, t, Count(over.seat, hidden.confidence, dict(under.votes)))
        ]
        over.track_id, over.placed, over.size = under.id, under.settled, under.rest_size
        under.state, under.card = TrackState.PLAYED, hidden.card
        own = resolve(shown.votes, self._ledger.played, replay_share=2.0, not_held=self._ledger.not_held[expected])
        events.append(self._play(shown, expected, own or Reading(card, 0.0, ()), t, shown.settled))
        return events

    def _note_lying(self, t: float) -> None:
        """Keep in mind when each card of the trick collected last was last seen since, and
        where each card of it and of the trick on the table lay. A track set aside as no
        new card (``IGNORED``) lying at such a card's outline shows that card still there."""
        last = {c for _, c in self._ledger.last_trick}
        collected = self._ledger.last_collected_t
        self._lying_seen = {c: v for c, v in self._lying_seen.items() if c in last}
        trick = {laid.track_id for laid in self._ledger.trick}
        self._laid_outline = {c: v for c, v in self._laid_outline.items() if c in self._ledger.played}
        self._laid_seen = {c: v for c, v in self._laid_seen.items() if c in self._laid_outline}
        self._laid_gone = {c: v for c, v in self._laid_gone.items() if c in self._laid_outline}
        for track in self._state.tracks:
            if track.card is not None and track.missed == 1 and track.card in self._laid_outline:
                # A track showing the card (the counted one, or one set aside as that
                # card seen anew or misread) gone from view this frame.
                gone = self._laid_gone.setdefault(track.card, [])
                gone.append(track.last_t)
                del gone[:-LAID_GONE_KEPT]
            if track.card is None or track.missed > 0:
                continue
            if not (track.id in trick or (track.state is TrackState.RETIRED and track.card in last)):
                continue
            if math.dist(track.centre, track.settled) <= self.config.match_distance * track.size:
                self._laid_outline[track.card] = track.settled_corners
                self._laid_seen[track.card] = t
            else:
                self._laid_outline.pop(track.card, None)  # seen leaving its place: swept or taken
        for track in self._state.tracks:
            if track.missed > 0:
                continue
            if track.state is TrackState.PLAYED and track.laid_on is not None and track.under_t == t:
                # A card of the last trick that a counted card was laid on is still there when
                # this frame's read of that counted card names it and not the counted card:
                # shown again (the counted card taken back by its player,
                # ``Collection._read_as_another``), or what shows of it still.
                self._laid_seen[track.laid_on] = t
                continue
            if track.state is not TrackState.IGNORED:
                continue
            # A card of the last trick, outlined anew where it lies and read as another card
            # (a hand near it, a card laid on its neighbour), taken for no new card, is still
            # that card lying there.
            if math.dist(track.origin, track.centre) > self.config.match_distance * track.size:
                continue
            for card in last:
                lay = self._laid_outline.get(card)
                if lay is not None and outline_shift(lay, track.corners) < SAME_OUTLINE * card_size(lay):
                    self._laid_seen[card] = t
        if collected is None:
            return
        for track in self._state.tracks:
            if track.state is TrackState.RETIRED and track.card in last and track.last_t == t and t > collected:
                self._lying_seen[track.card] = t

    def _may_be_old_card(self, track: Track, card: str) -> bool:
        """Could ``track``, read as the already played ``card``, really be that old card?

        Yes if it is a card of the trick on the table (the same card detected twice), if it
        lies outline for outline where that card of the trick collected last lay, if the
        track was already there before the last trick was collected (a card of that trick
        left lying, a pile; not the next lead laid beside the full trick,
        ``_led_beside_the_trick``) or turned up where it lies as the trick was gathered
        (``GATHERED_WITHIN``: the gathered trick lying in view as a pile, its top card
        read), or if ``card`` is of the trick collected last, still seen lying after it was
        collected, and the track turned up as it went (``SWEPT_AFTER_LEAD``): a trick left
        lying is collected when the next lead comes, and swept off only then, and its cards
        on the move start new tracks read as themselves.
        Any other card that turned up during this trick is a new card.
        """
        if self._misreads.seen_twice_in_trick(track, card):
            return True
        collected = self._ledger.last_collected_t
        if collected is None:
            return False
        last = self._ledger.last_trick
        if track.first_t <= collected:
            if not self._led_beside_the_trick(track, card, last):
                return True
        elif (
            track.first_t <= collected + GATHERED_WITHIN
            and math.dist(track.origin, track.settled) < self.config.approach_distance * track.size
        ):
            return True  # turned up where it lies as the trick went: the gathered pile
        if not any(c == card for _, c in last):
            return False
        lay = self._laid_outline.get(card)
        if lay is not None and outline_shift(lay, track.settled_corners) < LEFT_LYING_SHIFT * card_size(lay):
            # Left lying: it lies nearly outline for outline where that card lay when its
            # trick was collected (misread there a moment as the next card was led, or
            # outlined anew by what shows of it under the next trick's cards, so a track of
            # its own began).
            return True
        # Left lying: that card was still seen where it lay after the trick was collected,
        # and this track turned up as it went.
        seen = self._lying_seen.get(card)
        return seen is not None and seen - 2 * self._state.frame_dt <= track.first_t <= seen + SWEPT_AFTER_LEAD

    def _left_lying_seen_again(self, track: Track, card: str, unplayed: float) -> bool:
        """Is ``track``, read firmly as ``card`` of the trick collected last and not taken for
        it by ``_may_be_old_card``, still that card, outlined anew from what shows of it?

        A trick left lying is collected when the next lead counts, and its cards lie on
        under the next trick's. One the next cards hide for longer than a track is kept
        shows again at their edge; the detector outlines what shows, off where the card
        lay by more than ``LEFT_LYING_SHIFT``, and reads it as itself. Struck as a misread
        old card, its faint read of a card still to come (``unplayed``, its share of the
        reads) counted as the turn's card, and the real card came a seat late. It is
        that old card when no more than such a faint read names a new card
        (``FAINT_UNPLAYED``), the outline lies over where the card lay (``OVER_ITS_PLACE``)
        and the card counted surely (``SURE_COUNT``, or ``SURE_OVER_RUNNER_UP``). A card
        counted unsurely is left to the weighing of the two reads
        (``Misreads.doubt_earlier_read``): either may be the real one.
        """
        if unplayed >= FAINT_UNPLAYED:
            return False
        if not any(c == card for _, c in self._ledger.last_trick):
            return False
        count = self._ledger.counted.get(card)
        if count is None:
            return False
        if count.confidence < SURE_COUNT:
            runner_up = max((v for c, v in count.votes.items() if c != card), default=0.0)
            if count.votes.get(card, 0.0) < SURE_OVER_RUNNER_UP * runner_up:
                return False
        lay = self._laid_outline.get(card)
        return lay is not None and covered_share(lay, track.settled_corners) >= OVER_ITS_PLACE

    def _led_beside_the_trick(self, track: Track, card: str, last: list[tuple[int, str]]) -> bool:
        """Is ``track``, there before the last trick was collected, the next trick's lead
        laid beside that trick while it lay full, and read as a card not of that trick?

        The winner often leads before the trick is gathered; the lead then waits, the
        trick full, until the trick goes. If its card was counted earlier in the round (a
        misread of another card), its read is of a card already played, and a track there
        before the collection was taken for a card of a pile: the lead was never counted,
        and that trick and every later one were one card off. Showing up after the trick's
        fourth card could count, and named as none of its cards (``last``, the trick
        collected last), it is a new card.
        """
        full = self._ledger.last_full_t
        if full is None or len(last) != 4 or any(c == card for _, c in last):
            return False
        soon = self.config.minimum_consecutive_frames * self._state.frame_dt
        return track.first_t > full + soon

    def _old_card_misread(self, track: Track) -> bool:
        """Is ``track`` a card of the trick collected last, misread?

        A trick left lying is collected when the next lead counts, and its cards lie on
        until someone gathers them. A hand over one of them (the winner's, reaching to
        gather) hides it a moment, and what shows again is often read as another card, one
        not yet played, so no rule for old cards holds it back. ``track`` is such a card
        when it showed up just after that card was last seen where it lay (``_laid_seen``),
        or just after it went from view there before (``_laid_gone``: an old card misread
        shows by turns as itself and as the other card, at one outline), lies outline for
        outline where it lay (``_laid_outline``), and no hand in view belonged to a player
        still to lay a card of this trick (the leader's hand, whose card has counted, often
        still hovers). A new card comes in a hand, and is seen on its way before the card
        under it goes. With such a hand in view it is still that card when it lies corner
        for corner where the card lay (``CORNER_FOR_CORNER``) and reads as a card like it
        (``look_alike``): a card laid by hand seldom lands so exactly on another, and one
        that does reads as itself. And it is still that card when it lies where it lay
        (``SAME_OUTLINE``) and its reads name that card more than any other: a new card laid
        there reads as itself, not as the card under it (an old card outlined anew under a
        passing hand was read once as a card still to come, then as itself, and counted as
        the faint read for the turn's seat).
        """
        last = {c for _, c in self._ledger.last_trick}
        if not last:
            return False
        hands = {self.layout.seat_of_edge(edge) for edge in track.arms(self.config.arm_min_frames)}
        # A hand in view whose player has yet to lay a card of this trick may be laying one on it.
        coming = bool(hands - {card.seat for card in self._ledger.trick})
        dt = self._state.frame_dt
        for card in last:
            lay, last_seen = self._laid_outline.get(card), self._laid_seen.get(card)
            seen = [*self._laid_gone.get(card, ()), *([last_seen] if last_seen is not None else [])]
            if lay is None or not any(s < track.first_t <= s + 2.5 * dt for s in seen):
                continue
            shift = outline_shift(lay, track.settled_corners) / card_size(lay)
            if shift < SAME_OUTLINE and not coming:
                return True
            if shift < CORNER_FOR_CORNER and look_alike(track.leading_identity()[0], card):
                return True
            if shift < SAME_OUTLINE and track.leading_identity()[0] == card:
                return True
        return False

    def _is_shown(self, track: Track, leader: str | None) -> bool:
        """A card shown, not played: it lies where it was when it was shown.

        Shown are the Speck Bodentrumpf turned up before the first trick, and the cards
        left face up from the round before when this one started (the last trick turned
        up to count). It stays "shown" while it lies where it was first seen at rest;
        should it later be laid from there into a trick, it moves, settles elsewhere and
        counts.
        """
        shown = self._ledger.shown.get(track.id)
        if shown is not None:
            return ((track.anchor[0] - shown[0]) ** 2 + (track.anchor[1] - shown[1]) ** 2) ** 0.5 <= track.size
        if self._ledger.bodentrumpf is None or leader != self._ledger.bodentrumpf or self._ledger.played:
            return False
        self._ledger.shown[track.id] = track.anchor
        return True

    def _swap_if_together(self, events: list[TrackerEvent], t: float) -> list[TrackerEvent]:
        """``events`` with the card just counted and the one counted before it given each
        other's seats, when the two were laid almost together and each lies in front of
        the other's player (``Seats.laid_the_other_way``).

        Two cards laid at once are ordered by where they lie when both wait to count
        (``Seats.order_together``). But the first of them may vanish under the second's
        hand, be taken for a view of that card, and show again only once the second has
        counted: then it counted second, in the wrong seat. Both keep their places in the
        log (the first seat's entry is corrected to the card now known to be its, a
        correction the table sees), so the turn order stays as the rules engine checks it.
        """
        ledger = self._ledger
        if len(ledger.trick) < 2 or not events:
            return events
        played = events[-1]
        first, second = ledger.trick[-2], ledger.trick[-1]
        if not isinstance(played, CardPlayed) or played.card != second.card:
            return events
        if not self._seats.laid_the_other_way():
            return events
        earlier = next(
            (i for i, e in enumerate(events[:-1]) if isinstance(e, CardPlayed) and e.card == first.card), None
        )
        if earlier is not None:
            # Both counted in this frame: reported in turn order, each with its own read.
            before = events[earlier]
            assert isinstance(before, CardPlayed)
            out = list(events)
            out[earlier], out[-1] = replace(played, seat=first.seat), replace(before, seat=second.seat)
            ledger.swap_last_two()
            return out
        count = ledger.counted[first.card]
        if count.confidence < self.config.ask_below or played.alternatives:
            # The table is (or would be) asked about one of them where it was logged; a
            # correction would move the card away from its question.
            return events
        seat = second.seat
        ledger.swap_last_two()
        return [
            *events[:-1],
            CardReread(was=first.card, card=second.card, t=t),
            replace(played, seat=seat, card=first.card, confidence=round(count.confidence, 3)),
        ]

    def _laid_on(self, track: Track) -> str | None:
        """The card of the trick collected last whose place ``track``, just counted, covers
        most, if it lies across at least ``OVER_ITS_PLACE`` of it: a trick left lying, laid
        on. (Not only outline for outline: a card laid a third of a card off hides most of
        the one under it, which shows again where it lay once the card is taken back.)"""
        best, most = None, 0.0
        for _, card in self._ledger.last_trick:
            lay = self._laid_outline.get(card)
            if lay is not None and (share := covered_share(lay, track.settled_corners)) > most:
                best, most = card, share
        return best if most >= OVER_ITS_PLACE else None

    def _play(
        self, track: Track, seat: int, reading: Reading, t: float, place: tuple[float, float], seat_seen: bool = False
    ) -> CardPlayed:
        assert self._ledger.contract is not None
        track.state = TrackState.PLAYED
        track.card = reading.card
        self._ledger.play(
            Laid(track.id, seat, reading.card, place, track.rest_size, track.first_t),
            Count(seat, reading.confidence, dict(track.votes)),
            seat_seen=seat_seen,
        )
        self._partial.counted(track, place)
        self._state.card_counted()
        track.laid_on = self._laid_on(track)
        ask = reading.confidence < self.config.ask_below
        return CardPlayed(
            seat=seat,
            card=reading.card,
            t=t,
            confidence=round(reading.confidence, 3),
            alternatives=reading.alternatives if ask else (),
            seat_seen=seat_seen,
        )


class TableInputs:
    """The table's inputs among a recorded game's events (``TABLE_INPUTS``), handed to a
    tracker by their time as its frames come, as the dashboard hands them to the live one:
    replay, the benchmarks and the recorded-round tests feed a tracker the same way."""

    def __init__(self, events: Iterable[object]) -> None:
        self._pending: deque[RoundStarted | WeisDeclared] = deque(e for e in events if isinstance(e, TABLE_INPUTS))

    def before(self, tracker: TrickTracker, t: float) -> None:
        """Hand ``tracker`` every input due by ``t``, the time of the frame it gets next."""
        while self._pending and (self._pending[0].t or 0.0) <= t + INPUT_SLACK_S:
            tracker.table_input(self._pending.popleft())
