"""``jasscam store check|recover [FILE]``: check the event store, or salvage a damaged one.

Without FILE the configured store (``store.state_dir``/games.db) is used. ``check``
exits 0 for a healthy store and 2 with one line per problem otherwise. ``recover``
salvages every readable event (of the file and of its backup) into a new store: in
place (the damaged files are kept as ``games.db.damaged-<time>*``) or into ``--to``.
Stop the appliance first: recovering a store it still writes to would lose its writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

NAME = "store"
HELP = "check the event store, or salvage every readable event of a damaged one into a new file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("check", "recover"), help="check: report problems; recover: salvage")
    parser.add_argument("file", nargs="?", type=Path, help="the store (default: games.db in the state directory)")
    parser.add_argument("--to", type=Path, help="recover: write the salvaged store here and leave FILE as it is")
    parser.add_argument("--config", metavar="FILE", help="TOML configuration (for the state directory)")
    parser.add_argument("--state-dir", metavar="DIR", help="state directory (overrides store.state_dir)")


def run(args: argparse.Namespace) -> int:
    from jasscam.commands.run import load_config
    from jasscam.config import ConfigError
    from jasscam.store import StoreError
    from jasscam.store_repair import check, recover

    path: Path | None = args.file
    if path is None:
        try:
            path = load_config(args).database_path()
        except ConfigError as exc:
            print(f"jasscam store: {exc}", file=sys.stderr)
            return 2
    assert path is not None
    if args.action == "check":
        report = check(path)
        for problem in report.problems:
            print(f"{path}: {problem}", file=sys.stderr)
        print(
            f"{path}: {len(report.games)} games, {report.events} readable events"
            + (", damaged" if report.problems else ", ok")
        )
        return 2 if report.problems else 0
    try:
        report, out = recover(path, args.to)
    except StoreError as exc:
        print(f"jasscam store: {exc}", file=sys.stderr)
        return 2
    for game in report.games:
        note = f", {game.lost} lost" if game.lost else ""
        print(f"game {game.game_id}: {len(game.events)} events from the {game.source}{note}")
    print(
        f"{out}: {len(report.games)} games, {report.events} events salvaged"
        + (f", {report.lost} lost" if report.lost else "")
    )
    return 0
