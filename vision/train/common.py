"""Run folders, checkpoints, logging and progress lines shared by both trainers."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import torch

RUNS_DIR = Path("runs")


class Run:
    """``runs/<name>/``: ``log.txt``, ``last.pt`` (resume point) and ``best.pt`` (best validation)."""

    def __init__(self, name: str, root: Path = RUNS_DIR) -> None:
        self.dir = root / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.t0 = time.time()

    def log(self, msg: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {msg}"
        print(line, flush=True)
        with open(self.dir / "log.txt", "a") as f:
            f.write(line + "\n")

    def save(self, state: dict[str, Any], name: str) -> None:
        tmp = self.dir / f".{name}.tmp"
        torch.save(state, tmp)
        tmp.replace(self.dir / name)

    def load(self, name: str) -> dict[str, Any] | None:
        path = self.dir / name
        return torch.load(path, map_location="cpu", weights_only=False) if path.exists() else None


def cosine_lr(step: int, total: int, base: float, warmup: int = 300) -> float:
    if step < warmup:
        return base * (step + 1) / warmup
    p = min(1.0, (step - warmup) / max(1, total - warmup))
    return base * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * p)))


def eta(seconds: float) -> str:
    m, s = divmod(int(max(seconds, 0)), 60)
    return f"{m}m{s:02d}s"
