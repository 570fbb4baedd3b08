"""Run every benchmark module (``bench/bench_*.py``), each printing medians, p99 and its floor."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time
import traceback

import bench


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("only", nargs="*", help="run only the modules whose name contains one of these")
    args = parser.parse_args()
    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if m.name.startswith("bench_"))
    if args.only:
        names = [n for n in names if any(word in n for word in args.only)]
    failures = 0
    for name in names:
        print(f"== {name}", flush=True)
        started = time.perf_counter()
        try:
            importlib.import_module(f"bench.{name}").run()
        except Exception:  # a broken benchmark must not hide the others' results
            failures += 1
            traceback.print_exc()
        print(f"   ({time.perf_counter() - started:.1f} s)", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
