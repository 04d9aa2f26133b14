"""The dashboard's settings file, and the table's settings kept in it besides the PIN.

Why one file: the table PIN with its sessions (web.auth), where seat 1 sits in each game
and whether the Bergpreis counts all have to survive a restart or a power cut, and one
small JSON object written atomically is the simplest thing that does. Why two readers of
it: the PIN guard decides who may write, ``TableSettings`` remembers what the table chose;
neither needs to know the other's keys.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger("jasscam.web")

#: The camera edges seat 1 may sit at, in counter-clockwise order (web.setup turns one into all four).
EDGES = ("bottom", "right", "top", "left")


class SettingsFile:
    """One JSON object in ``path`` (in memory only when ``path`` is None).

    ``lock`` is re-entrant and shared by everyone who changes ``data``, so a save never
    encodes a dict another thread is changing.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.lock = threading.RLock()
        self.data: dict[str, Any] = {}
        if path is not None and path.exists():
            try:
                self.data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ValueError(f"cannot read dashboard settings {path}: {exc}") from exc
            if not isinstance(self.data, dict):
                raise ValueError(f"cannot read dashboard settings {path}: not a JSON object")

    def save(self) -> None:
        """Write the settings atomically (temp file, fsync, rename); OSError when the disk is full."""
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        with self.lock:
            try:
                with open(tmp, "w", encoding="utf-8") as out:
                    out.write(json.dumps(self.data, indent=1))
                    out.flush()
                    os.fsync(out.fileno())
                tmp.replace(self.path)
            except OSError:
                tmp.unlink(missing_ok=True)
                raise

    def save_quietly(self) -> None:
        """Save, or log why not: a full disk must not stop the dashboard, the values live on in memory."""
        try:
            self.save()
        except OSError as exc:
            log.warning("cannot save the dashboard settings %s: %s", self.path, exc)


class TableSettings:
    """What the table chose that is not the PIN: each game's seat-1 edge and the Bergpreis switch."""

    def __init__(self, file: SettingsFile) -> None:
        self.file = file

    def edge(self, game_id: int) -> str:
        """The camera edge seat 1 of ``game_id`` sits at (the set-up's choice; ``bottom`` if none)."""
        return str(self.file.data.get("edges", {}).get(str(game_id), "bottom"))

    def set_edge(self, game_id: int, edge: str) -> None:
        if edge not in EDGES:
            raise ValueError(f"edge must be one of {', '.join(EDGES)}")
        with self.file.lock:
            self.file.data.setdefault("edges", {})[str(game_id)] = edge
            self.file.save_quietly()

    @property
    def bergpreis(self) -> bool:
        """Count the Bergpreis (on unless the table switched it off)."""
        return bool(self.file.data.get("bergpreis", True))

    def set_bergpreis(self, on: bool) -> None:
        """Switch the Bergpreis; OSError when the setting cannot be saved (the phone is told)."""
        with self.file.lock:
            self.file.data["bergpreis"] = on
            self.file.save()
