"""Run folders, checkpoints, logging, progress lines and the crop-training loop shared by the trainers."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
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


def cosine_lr(step: int, progress: float, base: float, warmup: int = 200) -> float:
    """Linear warm-up over ``warmup`` steps, then cosine decay to 2 % by ``progress`` = 1."""
    if step < warmup:
        return base * (step + 1) / warmup
    p = min(1.0, max(0.0, progress))
    return base * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * p)))


class Budget:
    """Training length as steps or wall-clock minutes, whichever ends first (time survives resume)."""

    def __init__(self, total_steps: int, minutes: float | None, spent_s: float = 0.0) -> None:
        self.total = total_steps
        self.limit_s = minutes * 60 if minutes else None
        self.spent_before = spent_s
        self.t0 = time.time()

    @property
    def spent_s(self) -> float:
        return self.spent_before + time.time() - self.t0

    def progress(self, step: int) -> float:
        p = step / max(1, self.total)
        if self.limit_s:
            p = max(p, self.spent_s / self.limit_s)
        return p

    def remaining_s(self, step: int, rate_steps_s: float) -> float:
        by_steps = (self.total - step) / max(rate_steps_s, 1e-9)
        return min(by_steps, self.limit_s - self.spent_s) if self.limit_s else by_steps


def eta(seconds: float) -> str:
    m, s = divmod(int(max(seconds, 0)), 60)
    return f"{m}m{s:02d}s"


def checkpoint(
    run: Run,
    model: Any,
    opt: Any,
    step: int,
    best: float,
    budget: Budget,
    metrics: dict[str, float],
    key: str,
) -> float:
    """Log validation ``metrics``, save ``last.pt`` and, when ``metrics[key]`` beats ``best``,
    ``best.pt``; returns the new best. One place, so both trainings resume the same way."""
    run.log(f"val step {step}: " + " ".join(f"{k} {v:.4f}" for k, v in metrics.items()))
    ckpt = {
        "model": model.state_dict(),
        "opt": opt.state_dict(),
        "step": step,
        "best": best,
        "metrics": metrics,
        "spent_s": budget.spent_s,
    }
    if metrics[key] > best:
        best = metrics[key]
        ckpt["best"] = best
        run.save(ckpt, "best.pt")
    run.save(ckpt, "last.pt")
    return best


def start(
    run: Run,
    model: Any,
    opt: Any,
    *,
    total: int,
    minutes: float | None,
    resume: bool,
    init: Path | None,
    best: float,
) -> tuple[int, float, Budget]:
    """(step, best, budget) of a training run: fresh, from ``init``'s weights, or resumed
    from the run's ``last.pt`` (its step, best score, optimiser and spent time)."""
    step, spent = 0, 0.0
    if init is not None:
        model.load_state_dict(torch.load(init, map_location="cpu", weights_only=False)["model"])
        run.log(f"initialised from {init}")
    state = run.load("last.pt") if resume else None
    if state:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        step, best, spent = state["step"], state["best"], state.get("spent_s", 0.0)
        run.log(f"resumed at step {step}/{total}")
    return step, best, Budget(total, minutes, spent)


def train_loop(
    run: Run,
    model: Any,
    opt: Any,
    data: Any,
    val: Any,
    *,
    batch: int,
    lr: float,
    epochs: int,
    minutes: float | None,
    resume: bool,
    init: Path | None,
    step_loss: Callable[[Any, tuple[Any, ...]], tuple[Any, dict[str, float]]],
    evaluate: Callable[[Any, Any], dict[str, float]],
    metric: str,
    unit: str = "crops",
    log_every: int = 50,
    train_mode: Callable[[Any], None] | None = None,
) -> float:
    """The one training loop of every network: shuffled epochs of ``data.batch(idx, rng)``,
    a cosine rate, a progress line every ``log_every`` steps with the mean of each part
    ``step_loss(model, batch) -> (loss, parts)`` names, validation (``evaluate(model, val)[metric]``)
    and a checkpoint every epoch, every 10 minutes and at the end; returns the best score.

    ``train_mode`` puts the model back to training after validation (default
    ``model.train()``; the detector keeps frozen batch norms in eval mode).
    """
    to_train: Callable[[Any], None] = train_mode or (lambda m: m.train())
    steps_per_epoch = max(1, len(data) // batch)
    total = epochs * steps_per_epoch
    step, best, budget = start(run, model, opt, total=total, minutes=minutes, resume=resume, init=init, best=-1e9)
    run.log(
        f"{run.dir.name}: {len(data)} train / {len(val)} val {unit}, {sum(p.numel() for p in model.parameters())} "
        f"params, {total} steps"
    )
    rng = np.random.default_rng(step + 1)
    to_train(model)
    t_last, n_last, t_save = time.time(), 0, time.time()
    agg: dict[str, float] = {}
    while budget.progress(step) < 1.0:
        perm = rng.permutation(len(data))
        for b in range(steps_per_epoch):
            if budget.progress(step) >= 1.0:
                break
            batch_data = data.batch(perm[b * batch : (b + 1) * batch], rng)
            for gr in opt.param_groups:
                gr["lr"] = cosine_lr(step, budget.progress(step), lr)
            loss, parts = step_loss(model, batch_data)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            n_last += len(batch_data[0])
            for k, v in parts.items():
                agg[k] = agg.get(k, 0.0) + v
            if step % log_every == 0:
                rate = n_last / max(time.time() - t_last, 1e-9)
                means = " ".join(f"{k} {v / log_every:.5f}" for k, v in agg.items())
                run.log(
                    f"step {step}/{total} ep {step / steps_per_epoch:.2f} {means} "
                    f"lr {opt.param_groups[0]['lr']:.2e} {rate:.1f} {unit}/s eta "
                    f"{eta(budget.remaining_s(step, rate / batch))}"
                )
                t_last, n_last, agg = time.time(), 0, {}
            last = budget.progress(step) >= 1.0
            if step % steps_per_epoch == 0 or last or time.time() - t_save > 600:
                best = checkpoint(run, model, opt, step, best, budget, evaluate(model, val), metric)
                to_train(model)
                t_save = t_last = time.time()
    return best


def train_on_crops(
    run: Run,
    model: Any,
    opt: Any,
    data: Any,
    val: Any,
    *,
    batch: int,
    lr: float,
    epochs: int,
    minutes: float | None,
    resume: bool,
    init: Path | None,
    loss_fn: Any,
    evaluate: Any,
) -> float:
    """``train_loop`` for the two crop networks (refiner, verifier): ``data.batch`` gives
    ``(x, target)``, the loss is ``loss_fn(model(x), target)``, the score ``evaluate(...)["score"]``."""

    def step_loss(m: Any, b: tuple[Any, ...]) -> tuple[Any, dict[str, float]]:
        loss = loss_fn(m(b[0]), b[1])
        return loss, {"loss": float(loss.item())}

    return train_loop(
        run,
        model,
        opt,
        data,
        val,
        batch=batch,
        lr=lr,
        epochs=epochs,
        minutes=minutes,
        resume=resume,
        init=init,
        step_loss=step_loss,
        evaluate=evaluate,
        metric="score",
    )
