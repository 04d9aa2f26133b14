"""Cards a hand partly hides: views of part of a card, and cards hidden before they counted.

Why apart: while a hand lays a card the recogniser often sees only part of it, off its
true place and misread, and that view becomes a track of its own; a card laid overlapping
another can be hidden before it lay still long enough to count. Telling such views from
new cards takes how big a whole card looks on this table, which only the cards counted so
far say. This keeps that measure and the judgements that rest on it.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Literal

from vision.tracker.identity import resolve
from vision.tracker.ledger import Count
from vision.tracker.misreads import Misreads
from vision.tracker.state import CLEAR_SHARE, TableState, TrackerEvent
from vision.tracker.tracks import Track, TrackState

#: A counted card that vanished at once, outlined smaller than this share of the card
#: then lying in its place (and of a whole card here), was a view of that card under the
#: hand (``take_over``).
PUSHED_SIZE_RATIO = 0.95
#: What ``take_over`` returns while the whole card's read is not yet clear enough.
WAIT: Literal["wait"] = "wait"


class PartialViews:
    """The size of a whole card here, and the views of cards under a hand."""

    def __init__(self, state: TableState, misreads: Misreads) -> None:
        self._state = state
        self._misreads = misreads
        #: Sizes (pixels) of recently counted cards: how big a whole card looks here.
        self._card_sizes: deque[float] = deque(maxlen=16)

    def looks_partial(self, track: Track) -> bool:
        """The card looks clearly smaller than the cards counted so far: part of it is
        hidden (a hand still over it), so neither its read nor its place can be trusted yet.
        """
        whole = self.whole_card_size()
        return whole is not None and track.rest_size < self._state.config.partial_size_ratio * whole

    def whole_card_size(self, min_cards: int = 1) -> float | None:
        """How big a whole card looks here: the median size of the recently counted cards
        (None with fewer than ``min_cards``)."""
        if len(self._card_sizes) < min_cards:
            return None
        sizes = sorted(self._card_sizes)
        return sizes[len(sizes) // 2]

    def counted(self, track: Track, place: tuple[float, float]) -> None:
        """``track`` counted, lying at ``place``: it measures a whole card, and the views
        of it seen while it was laid are known for what they were."""
        self._card_sizes.append(track.rest_size)
        self._drop_partial_views(track, place)

    def _drop_partial_views(self, counted: Track, place: tuple[float, float]) -> None:
        """Forget vanished candidates that lay where ``counted`` now lies.

        While a hand lays a card, the recogniser often sees only part of it, off its true
        place and misread; that view becomes a track of its own, which vanishes when the
        hand withdraws and the whole card is seen. Once the card counts, such a track is
        known to have been that card, and must never be counted itself later.
        """
        for track in self._state.tracks:
            if track is counted or track.state is not TrackState.CANDIDATE or track.missed == 0:
                continue
            dx, dy = track.settled[0] - place[0], track.settled[1] - place[1]
            if (dx * dx + dy * dy) ** 0.5 <= counted.size:
                track.state = TrackState.IGNORED

    def take_over(self, track: Track, t: float, *, forced: bool) -> list[TrackerEvent] | Literal["wait"] | None:
        """A card counted from a partial view (a hand still over it, so smaller than the
        card) that vanished, with ``track`` now lying whole in its place: it was this card.

        The hand that lays a card can hide most of it for a few frames; that view may
        count (and be misread) before the hand withdraws and the whole card shows. Then
        ``track`` takes the counted card's place and seat, and if it reads as another card
        the counted one is reread. None when ``track`` is no such card; ``WAIT`` while its
        read is not yet clear enough.

        It was such a view when it looked clearly smaller than ``track``, or somewhat
        smaller and it vanished within a moment of coming to rest with ``track`` showing
        up in its place at that very moment: a card resting a few frames under the hand,
        then pushed into place. The outline the detector draws around a card half under a
        hand need not be much smaller (a game's Ober read as Under looked 0.85 of the
        whole card); a whole card that another player's card covers at once is not taken,
        nor one that a card still held above the table (so bigger) is laid over.
        """
        state = self._state
        cfg = state.config
        # Smaller than the card lying there now and, once a trick's worth of cards has
        # been counted (fewer could be mostly this very view), than the cards counted on
        # this table: a card still held above the table looks bigger than the one under it.
        typical = self.whole_card_size(min_cards=4)
        whole = track.rest_size if typical is None else min(track.rest_size, typical)
        for laid in state.ledger.trick:
            old = state.track(laid.track_id)
            if old is track or laid.track_id > track.id or (old is not None and old.missed == 0):
                continue
            dx, dy = track.anchor[0] - laid.placed[0], track.anchor[1] - laid.placed[1]
            near = (dx * dx + dy * dy) ** 0.5 <= cfg.match_distance * track.size
            smaller = laid.size < cfg.partial_size_ratio * whole
            pushed = (
                old is not None
                and laid.size < PUSHED_SIZE_RATIO * whole
                and old.rest_frames <= cfg.maximum_decision_frames
                and old.last_t <= track.first_t <= old.last_t + 2.5 * state.frame_dt
            )
            if not near or not (smaller or pushed) or self.looks_partial(track):
                continue
            reading = resolve(track.votes, state.ledger.played - {laid.card}, replay_share=2.0)
            if reading is None:
                return None
            if (
                not forced
                and track.rest_frames < cfg.maximum_decision_frames
                and reading.confidence < cfg.decide_confidence
            ):
                return WAIT
            if old is not None:
                old.state = TrackState.RETIRED
            events: list[TrackerEvent] = []
            laid.track_id, laid.placed, laid.size = track.id, track.anchor, track.rest_size
            if reading.card != laid.card:
                events.append(
                    self._misreads.reread(
                        laid.card, reading.card, t, Count(laid.seat, reading.confidence, dict(track.votes))
                    )
                )
            track.state = TrackState.PLAYED
            track.card = laid.card
            return events
        return None

    def overlooked(self, track: Track) -> list[Track]:
        """Cards laid before ``track`` and read clearly, that a hand hid before they had lain
        still long enough to count (two cards laid overlapping show in turns, as the detector
        keeps one outline of the two): they were laid first, so they count first."""
        state = self._state
        cfg = state.config
        out = []
        for other in state.tracks:
            if (
                other is track
                or other.state is not TrackState.CANDIDATE
                or other.id in state.ledger.shown
                or other.missed == 0
                or other.rest_frames < 2
                or other.arrival >= track.arrival
                or other.rest_read_confidence < cfg.clear_read_confidence
                or other.leading_identity()[1] < CLEAR_SHARE
                or other.leading_identity()[0] == track.leading_identity()[0]
                or not state.layout.in_play_area(other.settled, *state.size)
                or self.looks_partial(other)  # part of a card under a hand: take_over
                or math.dist(other.settled, track.settled) <= cfg.match_distance * track.size
            ):
                continue
            out.append(other)
        return sorted(out, key=lambda tr: (tr.arrival, tr.id))
