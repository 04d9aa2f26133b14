"""``python -m benchmarks [name ...]``: run every benchmark module in this folder (or the named ones).

A benchmark module is any ``benchmarks/<name>.py`` that defines ``main()``; it prints its
own report. ``main`` is called with an empty argument list when it takes one (so it does
not parse this command's arguments) and a non-zero integer result counts as a failure.
Modules are discovered, not listed, so adding a file is enough.
One failing module is reported and the others still run; the exit status is then 1.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import time
import traceback
from pathlib import Path


def discover() -> list[str]:
    here = Path(__file__).resolve().parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    names = list(argv if argv is not None else sys.argv[1:]) or discover()
    unknown = sorted(set(names) - set(discover()))
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; available: {', '.join(discover())}", file=sys.stderr)
        return 2
    failed: list[str] = []
    for name in names:
        module = importlib.import_module(f"benchmarks.{name}")
        run = getattr(module, "main", None)
        if not callable(run):
            print(f"== {name}: no main(), skipped")
            continue
        print(f"== {name}", flush=True)
        t0 = time.perf_counter()
        try:
            takes_args = bool(inspect.signature(run).parameters)
            status = run([]) if takes_args else run()
            if isinstance(status, int) and status != 0:
                failed.append(name)
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(f"== {name}: {time.perf_counter() - t0:.1f} s", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
