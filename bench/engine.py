"""Games scored per second: in-process, and through ``python -m scoring``.

    python bench/engine.py [--games 100000]

Both are measured in the same run on the same random legal games; the CLI figure includes
JSON parsing and printing and the process start. The in-process loop is also given per second
of CPU time, which other processes sharing the machine do not change.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.games import archive_game, random_game  # noqa: E402
from scoring import score_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = [random_game(rng) for _ in range(args.games)]

    start, start_cpu = time.perf_counter(), time.process_time()
    for declaration, outcome in games:
        score_game(declaration, outcome)
    in_process = len(games) / (time.perf_counter() - start)
    # CPU time: the engine's own speed when other processes share the cores
    in_process_cpu = len(games) / (time.process_time() - start_cpu)

    lines = "".join(json.dumps(archive_game(d, o, "p1")) + "\n" for d, o in games).encode()
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "scoring"], input=lines, capture_output=True, cwd=ROOT, check=False
    )
    cli = len(games) / (time.perf_counter() - start)
    answers = result.stdout.count(b"\n")
    if result.returncode != 0 or answers != len(games):
        sys.exit(
            f"the CLI failed: exit {result.returncode}, {answers} answers for {len(games)} games"
        )

    print(f"{'games':<28}{len(games):>12,}")
    print(f"{'in-process games/s':<28}{in_process:>12,.0f}")
    print(f"{'in-process games/CPU-s':<28}{in_process_cpu:>12,.0f}")
    print(f"{'CLI games/s':<28}{cli:>12,.0f}")
    print(f"{'CLI / in-process':<28}{cli / in_process:>12.2f}")


if __name__ == "__main__":
    main()
