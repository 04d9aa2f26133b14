"""``jasscam score GAME.jsonl``: fold a game's event log and print the Jasstafel.

``--prior 640,710`` continues a game from paper: the log (say, the camera's from the
middle of a game) gets the totals written on the Jasstafel before it, per team (Speck:
per player, with ``--prior-games``), as its ``game_configured`` would carry them
(``prior_totals``, ``prior_games``); they are checked like the target (Speck: against
games x 157) and printed as the sheet's first row.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

NAME = "score"
HELP = "print the score sheet (Jasstafel) of a game event log (JSON lines)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", type=Path, help="event log, one JSON event per line")
    parser.add_argument("--json", action="store_true", help="print the sheet as JSON instead of text")
    parser.add_argument("--state", action="store_true", help="with --json: the whole game state, not just the sheet")
    parser.add_argument(
        "--prior",
        metavar="A,B",
        help="totals written on paper before this log, per team (Speck: four, per player), e.g. 640,710",
    )
    parser.add_argument(
        "--prior-games",
        type=int,
        metavar="N",
        help="Speck: how many games of the series those totals come from (they must add up to N x 157)",
    )


def _with_prior(events: list[Any], prior: str, games: int | None = None) -> list[Any]:
    """The log with ``prior_totals`` (and ``prior_games``) set on its game_configured,
    checked as the event is."""
    from scoring.events import EventError, GameConfigured, event_to_dict, parse_event

    try:
        totals = [int(part) for part in prior.split(",")]
    except ValueError:
        raise EventError(f"--prior must be whole numbers separated by commas, e.g. 640,710; got {prior!r}") from None
    first = events[0]
    if not isinstance(first, GameConfigured):
        raise EventError("--prior needs a log that starts with game_configured")
    extra: dict[str, Any] = {"prior_totals": totals}
    if games is not None:
        extra["prior_games"] = games
    return [parse_event({**event_to_dict(first), **extra}), *events[1:]]


def run(args: argparse.Namespace) -> int:
    from scoring.events import EventError, loads
    from scoring.game import RuleError, fold
    from scoring.sheet import format_sheet, sheet_dict

    path: Path = args.game
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"jasscam score: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    events = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(loads(line))
        except EventError as exc:
            print(f"{path}:{number}: {exc}", file=sys.stderr)
            return 2
        lines.append(number)
    if not events:
        print(f"{path}: no events (expected one JSON event per line, starting with game_configured)", file=sys.stderr)
        return 2
    if args.prior_games is not None and args.prior is None:
        print("jasscam score: --prior-games needs --prior, the totals of those games", file=sys.stderr)
        return 2
    if args.prior is not None:
        try:
            events = _with_prior(events, args.prior, args.prior_games)
        except EventError as exc:
            print(f"{path}:{lines[0]}: {exc}", file=sys.stderr)
            return 2
    try:
        state = fold(events)
    except RuleError as exc:
        where = f"{path}:{lines[exc.ref]}" if exc.ref is not None and exc.ref < len(lines) else str(path)
        print(f"{where}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        data = state.to_dict() if args.state else sheet_dict(state)
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(format_sheet(state))
    return 0
