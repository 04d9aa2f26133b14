"""The one error of the rules: an event that cannot apply to the game at all.

Kept apart from the flags (``scoring.state.Flag``): a flagged event is recorded and the
table decides, a ``RuleError`` makes the store reject the event whole. Its own module
because every part of the fold raises it (resolution, the event handlers, the deduction).
"""

from __future__ import annotations


class RuleError(ValueError):
    """An event that cannot apply; ``ref`` is its position in the list (if known)."""

    def __init__(self, message: str, ref: int | None = None) -> None:
        super().__init__(message if ref is None else f"event {ref}: {message}")
        self.ref = ref


__all__ = ["RuleError"]
