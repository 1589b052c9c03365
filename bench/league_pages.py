"""The league's public pages on a cache miss against the home page, in one run.

    DATABASE_URL=sqlite:////tmp/demo-league.sqlite3 python bench/league_pages.py [--reps 9]

The scratch database is migrated and, when empty, given the demo league
(``skatliga.management.demo_league.create_league``: three divisions of 16, 12 and 9 teams,
three of five match days played). Measured: GET with Django's test client of the home page,
the largest division's page, its first team's page and its embeddable table, interleaved,
every cache emptied before each request (``--rows-kept``: only the page cache, the rendered
standing rows kept as on a server that has answered before); the median of ``--reps``, its
ratio to the home page's, and the statements each page runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatliga.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=9)
    parser.add_argument("--rows-kept", action="store_true")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import caches
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from skatliga.management.demo_league import create_league
    from skatliga.models import Division, Team

    settings.ALLOWED_HOSTS.append("testserver")
    call_command("migrate", verbosity=0)
    if not Division.objects.exists():
        create_league(random.Random(7))
    division = Division.objects.annotate(n=Count("teams")).order_by("-n", "pk").first()
    assert division is not None
    team = Team.objects.filter(division=division).order_by("pk").first()
    assert team is not None
    urls = {
        "home": "/",
        "division": f"/divisions/{division.pk}/",
        "team": f"/teams/{team.pk}/",
        "embed": f"/divisions/{division.pk}/embed/",
    }
    client = Client()
    emptied = [caches["default"]] if args.rows_kept else list(caches.all())

    def miss(url: str) -> float:
        for cache in emptied:
            cache.clear()
        start = time.perf_counter()
        response = client.get(url)
        elapsed = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, (url, response.status_code)
        return elapsed

    for url in urls.values():
        miss(url)
    samples: dict[str, list[float]] = {name: [] for name in urls}
    load = os.getloadavg()
    for _ in range(args.reps):
        for name, url in urls.items():
            samples[name].append(miss(url))
    median = {name: statistics.median(values) for name, values in samples.items()}
    for name, url in urls.items():
        for cache in emptied:
            cache.clear()
        with CaptureQueriesContext(connection) as statements:
            client.get(url)
        print(
            f"{name:9s} {median[name]:7.1f} ms  {median[name] / median['home']:5.2f} × home"
            f"  {len(statements)} statements"
        )
    print(f"{connection.vendor}, {division.n} teams, load {load} before, {os.getloadavg()} after")


if __name__ == "__main__":
    main()
