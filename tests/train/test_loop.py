"""The one training loop every network trains with (``vision.train.common.train_loop``).

Needs torch, which only training machines have: skipped where it is missing (CI).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.train.common import Run, train_loop  # noqa: E402


class Line:
    """y = 3x - 1 with noise, in batches as the trainers' data classes give them."""

    def __init__(self, n: int, seed: int) -> None:
        g = np.random.default_rng(seed)
        self.x = g.uniform(-1, 1, (n, 1)).astype(np.float32)
        self.y = (3 * self.x - 1 + g.normal(0, 0.01, (n, 1))).astype(np.float32)

    def __len__(self) -> int:
        return len(self.x)

    def batch(self, idx: np.ndarray, rng: np.random.Generator | None) -> tuple[Any, Any]:
        return torch.from_numpy(self.x[idx]), torch.from_numpy(self.y[idx])


def _score(model: Any, data: Line) -> dict[str, float]:
    with torch.no_grad():
        err = float(((model(torch.from_numpy(data.x)) - torch.from_numpy(data.y)) ** 2).mean())
    return {"score": -err}


def _run(tmp_path: Path, epochs: int, resume: bool) -> tuple[Run, float, Any]:
    torch.manual_seed(0)
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    run = Run("line", root=tmp_path)

    def step_loss(m: Any, b: tuple[Any, ...]) -> tuple[Any, dict[str, float]]:
        loss = ((m(b[0]) - b[1]) ** 2).mean()
        return loss, {"mse": float(loss.item())}

    best = train_loop(
        run,
        model,
        opt,
        Line(256, 1),
        Line(64, 2),
        batch=16,
        lr=0.1,
        epochs=epochs,
        minutes=None,
        resume=resume,
        init=None,
        step_loss=step_loss,
        evaluate=_score,
        metric="score",
        log_every=8,
    )
    return run, best, model


def test_the_loop_trains_logs_and_keeps_the_best_checkpoint(tmp_path: Path) -> None:
    run, best, model = _run(tmp_path, epochs=40, resume=False)  # past the 200-step warm-up
    assert best > -1e-3  # the line is learnt
    assert abs(float(model.weight.detach()) - 3) < 0.05 and abs(float(model.bias.detach()) + 1) < 0.05
    log = (run.dir / "log.txt").read_text()
    assert "mse" in log and "val step 640" in log
    assert torch.load(run.dir / "best.pt", weights_only=False)["metrics"]["score"] == pytest.approx(best)


def test_a_resumed_run_goes_on_from_its_last_step(tmp_path: Path) -> None:
    _run(tmp_path, epochs=2, resume=False)
    run, _, _ = _run(tmp_path, epochs=4, resume=True)
    log = (run.dir / "log.txt").read_text()
    assert "resumed at step 32/64" in log and "val step 64" in log
