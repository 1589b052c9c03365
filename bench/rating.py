"""The Skat rating on a whole season: every list rated again, one list closed, one corrected.

    python bench/run.py --size large --db sqlite|postgresql --build-only
    python bench/rating.py --size large --db sqlite|postgresql

Takes the bench season of ``bench/league.py`` that an earlier ``bench/run.py`` built (with
``--build-only``, or a whole run) and measures :func:`measure_rating`; ``bench/run.py``
measures the same as one of its steps. Writes ``bench/results/rating-<db>-<size>.json``.
The target (docs/benchmarks.md): the whole large season rated again within one minute on
two cores.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import league  # noqa: E402

TARGET_S = 60.0
"""The whole season rated again within this many seconds."""


def measure_rating(reps: int = 3) -> dict[str, Any]:
    """Seconds to rate every closed list again from the first (``rate_everything``, best and
    median of ``reps``); milliseconds to rate one list closed after all the others (the
    season's last list, reopened and closed again: a replay of that list alone), and seconds
    to rate the first list of the season again after a correction (a replay of every later
    list of its players and of those they met, up to the whole season), and the same
    correction made as a request makes it, left to the background job (every list from that
    day on)."""
    import statistics

    from skatliga import services
    from skatliga.models import PlayerRating, RatingChange, Table

    def timed(work: Any) -> tuple[float, Any]:
        start = time.perf_counter()
        done = work()
        return time.perf_counter() - start, done

    services.rate_everything()  # warm: the rows exist, as on a site that rates already
    every = [timed(services.rate_everything) for _ in range(reps)]
    seconds = [took for took, _done in every]
    done = every[-1][1]
    closed = Table.objects.filter(closed_at__isnull=False)
    key = ("-series__tournament__date", "-series__tournament_id", "-series__number", "-number")
    last = closed.order_by(*key).select_related("series__tournament").first()
    first = closed.order_by(*(k.lstrip("-") for k in key)).select_related("series__tournament")[0]
    assert last is not None
    one = []
    pk = last.pk
    for _ in range(reps):
        if last.series.is_published:
            services.withdraw_publication(last.series, reason="bench")
        services.reopen_table(last, reason="bench")
        took, _ = timed(lambda: services.close_table(Table.objects.get(pk=pk)))
        one.append(took)
        last = Table.objects.select_related("series__tournament").get(pk=pk)
    services.publish_series(last.series)
    players = list(first.seats.values_list("player_id", flat=True))
    start = services.rating.list_key(first)
    correction, replayed = timed(lambda: services.rating.replay(start, players, most=None))
    job_s, job = _correct_in_the_background(first.pk, timed)
    return {
        "rating_all_s": round(min(seconds), 2),
        "rating_all_median_s": round(statistics.median(seconds), 2),
        "rating_all_samples_s": [round(s, 2) for s in seconds],
        "rating_lists": done.lists,
        "rating_rows": RatingChange.objects.count(),
        "rating_players": PlayerRating.objects.count(),
        "rating_close_list_ms": round(statistics.median(one) * 1000, 1),
        "rating_correction_s": round(correction, 2),
        "rating_correction_lists": replayed.lists,
        "rating_job_s": round(job_s, 2),
        "rating_job_lists": job.result.get("lists", 0),
        "rating_load": os.getloadavg()[0],
    }


def _correct_in_the_background(pk: int, timed: Any) -> tuple[float, Any]:
    """Seconds the background recompute takes after the first list of the season was
    reopened and closed again as a request does it (the request leaves the replay to the
    job: every list from that list's day on), and the job."""
    from skatliga import services
    from skatliga.models import Job, Table
    from skatliga.tasks import jobs
    from skatliga.tasks.rating import KIND, _rate

    table = Table.objects.select_related("series__tournament").get(pk=pk)
    if table.series.is_published:
        services.withdraw_publication(table.series, reason="bench")
    services.reopen_table(table, reason="bench")
    services.close_table(Table.objects.get(pk=pk))
    job = Job.objects.get(kind=KIND, state=Job.State.WAITING)
    took, _ = timed(lambda: jobs.run(str(job.pk), _rate))
    services.publish_series(Table.objects.select_related("series").get(pk=pk).series)
    job.refresh_from_db()
    assert job.state == Job.State.DONE, job.result
    return took, job


def main() -> None:
    from bench.run import (
        NAME,
        analyze,
        build_record,
        database_version,
        existing_database,
        machine,
        setup_django,
    )

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=league.SIZES, default="large")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--name", default=NAME, help=f"scratch database name (default {NAME})")
    args = parser.parse_args()
    if not build_record(args.db, args.size, args.name).exists():
        sys.exit(
            f"no season built yet: python bench/run.py --size {args.size} --db {args.db} "
            f"--name {args.name} --build-only"
        )
    setup_django(existing_database(args.db, args.size, args.name))
    analyze()
    about = machine()
    result = {
        "size": args.size,
        "db": args.db,
        "database": database_version(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": about,
        **measure_rating(args.reps),
    }
    result["machine"]["load_after"] = os.getloadavg()[0]
    result["target_met"] = result["rating_all_s"] <= TARGET_S
    print(
        f"{args.db} · {args.size} · {result['database']}: every list rated again "
        f"{result['rating_all_s']:.1f} s (median {result['rating_all_median_s']:.1f} s; "
        f"{result['rating_lists']:,} lists, {result['rating_rows']:,} rows; target ≤ "
        f"{TARGET_S:.0f} s: {'met' if result['target_met'] else 'MISSED'}); one list closed "
        f"{result['rating_close_list_ms']:.0f} ms; the first list corrected "
        f"{result['rating_correction_s']:.1f} s ({result['rating_correction_lists']:,} lists), "
        f"in the background job {result['rating_job_s']:.1f} s ({result['rating_job_lists']:,} "
        "lists); "
        f"load {about['load_before']:.1f} → {result['machine']['load_after']:.1f}"
    )
    output = ROOT / "bench" / "results" / f"rating-{args.db}-{args.size}.json"
    output.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"written to {output.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
