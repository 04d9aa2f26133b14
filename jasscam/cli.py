"""The ``jasscam`` command: one subcommand per module in ``jasscam.commands``.

Each command module defines ``NAME``, ``HELP`` and ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only to build the parser, and the heavy
imports (OpenCV, onnxruntime, Flask) happen inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import jasscam.commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jasscam", description="Camera-assisted scoring for Jass.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(jasscam.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"jasscam.commands.{info.name}")
        cmd = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
