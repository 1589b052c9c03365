"""``python -m skatliga.tasks.keeper``: keeps one task worker running beside the site.

The start command (``skatliga.ops.serve``) starts it before it becomes gunicorn, and
``dev.py start`` before it becomes the development server: it runs ``manage.py
task_worker`` and starts it again whenever it ends (after a pause that grows while it keeps
ending at once), so that a worker killed in the middle of a task is back within seconds and
runs the task again. It ends with its parent (gunicorn's master, the development server),
and the worker with it. SIGHUP (gunicorn's reload) is passed on to the worker, which
finishes its task and starts again with the new code; SIGTERM stops the worker and then
itself. Standard library only: it loads no Django.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[2]
PR_SET_PDEATHSIG = 1
QUICK = 30.0
"""Seconds: a worker that ends sooner than this is started again only after a pause."""
FIRST = 10.0
"""Seconds before the first worker starts: gunicorn's workers load first, undisturbed (on
two busy cores a worker loading beside them made a start a few seconds slower)."""


def end_with_parent() -> None:
    """The kernel sends this process SIGTERM when its parent ends (Linux)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def main() -> int:
    parent = os.getppid()
    end_with_parent()
    if os.getppid() != parent:
        return 0  # the parent ended before the line above
    command = [sys.executable, str(ROOT / "manage.py"), "task_worker"]
    worker: subprocess.Popen[bytes] | None = None
    stopping = False

    def stop(number: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        if worker is None or worker.poll() is not None:
            raise SystemExit(0)  # asleep (before the first worker, or between two): end now
        worker.send_signal(signal.SIGTERM)

    def reload(number: int, frame: FrameType | None) -> None:
        if worker is not None and worker.poll() is None:
            worker.send_signal(signal.SIGHUP)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGHUP, reload)
    time.sleep(FIRST)
    pause = 1.0
    while not stopping:
        started = time.monotonic()
        worker = subprocess.Popen(command, cwd=ROOT, preexec_fn=end_with_parent)
        status = worker.wait()
        if stopping:
            break
        pause = 1.0 if time.monotonic() - started > QUICK else min(2 * pause, 30.0)
        print(
            f"skatliga: the task worker ended (status {status}); starting it again in "
            f"{pause:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        time.sleep(pause)
    return 0


if __name__ == "__main__":
    sys.exit(main())
