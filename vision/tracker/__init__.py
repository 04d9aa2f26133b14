"""The trick tracker: per-frame card detections in, game events (cards played, tricks
collected) out. Pure Python and numpy, no threads, no I/O, deterministic.
"""

from vision.tracker.config import TrackerConfig
from vision.tracker.layout import SeatGuess, TableLayout
from vision.tracker.tracker import TrickTracker

__all__ = ["SeatGuess", "TableLayout", "TrackerConfig", "TrickTracker"]
