"""The rating's mathematics (``skatliga.rating.model``): pure Python, and what every rated
list must do whatever its points."""

from __future__ import annotations

import datetime
import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skatliga.rating.model import (
    PARAMETERS,
    Parameters,
    Skill,
    newcomer,
    places,
    rate,
    widened,
)

REPO = Path(__file__).resolve().parents[2]
DAY = datetime.date(2026, 3, 1)


def test_importing_the_model_loads_no_django():
    code = (
        "import sys, skatliga.rating.model\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True
    )
    assert (result.returncode, result.stdout.strip()) == (0, "[]"), result.stderr


def test_a_list_needs_two_players():
    with pytest.raises(ValueError):
        rate([newcomer()], [100], DAY)


def test_parameters_are_checked():
    with pytest.raises(ValueError):
        Parameters(beta=0)
    with pytest.raises(ValueError):
        Parameters(idle_sigma_per_year=-1)


def test_a_year_away_widens_by_the_yearly_growth_in_quadrature():
    """sigma 1.5 and 365 days: sqrt(1.5² + 2²) = 2.5; 1,460 days (4 × 365):
    sqrt(2.25 + 16) = 4.27200; 20 years: the newcomer's 25/3."""
    skill = Skill(30.0, 1.5, 50, datetime.date(2025, 1, 1))
    assert widened(skill, datetime.date(2026, 1, 1)) == pytest.approx(2.5)
    later = datetime.date(2025, 1, 1) + datetime.timedelta(days=1460)
    assert widened(skill, later) == pytest.approx(4.27200, abs=1e-5)
    assert widened(skill, datetime.date(2045, 1, 1)) == 25.0 / 3.0


skills = st.builds(
    Skill,
    mu=st.floats(0, 50),
    sigma=st.floats(0.5, PARAMETERS.sigma),
    lists=st.integers(1, 500),
    last_played=st.dates(datetime.date(2000, 1, 1), DAY),
)
tables = st.integers(3, 5).flatmap(
    lambda size: st.tuples(
        st.lists(skills, min_size=size, max_size=size),
        st.lists(st.integers(-2000, 3000), min_size=size, max_size=size),
    )
)


@given(tables)
def test_the_first_gains_the_last_loses_and_each_counts_one_list_more(table):
    before, points = table
    after = rate(before, points, DAY)
    place = places(points)
    for old, new, mine in zip(before, after, place, strict=True):
        assert (new.lists, new.last_played) == (old.lists + 1, DAY)
        if mine == 1 and place.count(1) == 1:
            assert new.mu >= old.mu
        if mine == max(place) and place.count(mine) == 1:
            assert new.mu <= old.mu
        # A list only teaches: the uncertainty never passes what the days and tau allow.
        grown = widened(old, DAY)
        assert new.sigma <= (grown**2 + PARAMETERS.tau**2) ** 0.5 + 1e-12


@given(skills, st.integers(0, 20_000), st.integers(0, 20_000))
def test_the_uncertainty_grows_with_the_days_and_stops_at_a_newcomers(skill, a, b):
    near, far = sorted((a, b))
    assert skill.last_played is not None
    sooner = widened(skill, skill.last_played + datetime.timedelta(days=near))
    later = widened(skill, skill.last_played + datetime.timedelta(days=far))
    assert skill.sigma <= sooner <= later <= max(skill.sigma, PARAMETERS.sigma)


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=5))
def test_players_level_on_points_share_a_place_and_move_alike(points):
    after = rate([newcomer()] * len(points), points, DAY)
    place = places(points)
    for i, j in itertools.combinations(range(len(points)), 2):
        if points[i] == points[j]:
            assert place[i] == place[j]
            assert after[i].mu == pytest.approx(after[j].mu)
