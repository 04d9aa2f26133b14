"""The trick tracker: per-frame card detections in, game events (cards played, tricks
collected) out. Pure Python and numpy plus the rules engine; no threads, no I/O, no
clock; deterministic.

Use::

    tracker = TrickTracker(TableLayout.from_setting(seat0="bottom"), TrackerConfig())
    tracker.start_round(round_started)            # contract and forehand (Speck: Bodentrumpf)
    tracker.declare(weis_declared)                # each Weis the table enters: whose cards
    for frame in frames:                          # FrameDetections, in time order
        events += tracker.update(frame)           # CardPlayed / TrickCollected, t = frame time
    events += tracker.finish()                    # stream ended: count cards about to count

``FrameGate`` (``vision.tracker.gate``) tells which frames need the recogniser at all;
``vision.tracker.evaluate`` compares a run's events with a recording's ground truth.
"""

from vision.tracker.config import TrackerConfig
from vision.tracker.layout import SeatGuess, TableLayout
from vision.tracker.tracker import TrickTracker

__all__ = ["SeatGuess", "TableLayout", "TrackerConfig", "TrickTracker"]
