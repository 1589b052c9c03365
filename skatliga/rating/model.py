"""The rating's mathematics: Weng–Lin's Bayesian rating with the Plackett–Luce model.

A player's skill is a normal belief, mean ``mu`` and uncertainty ``sigma`` (Weng & Lin 2011,
"A Bayesian Approximation Method for Online Ranking", JMLR 12; algorithm 4, through the
``openskill`` package). Each list is one match: its players ranked by their points on it,
highest first, players level on points sharing a place. Sitting out as dealer at a 4-table
changes nothing: every seat sits out as often. docs/rating.md states the model and its
parameters, and why.

Before a list, the uncertainty of a player who has not played for ``d`` days grows as in
Glicko (Glickman 1999), bounded by the newcomer's::

    sigma' = min(SIGMA, sqrt(sigma² + IDLE² · d / 365))

with SIGMA = :attr:`Parameters.sigma` and IDLE = :attr:`Parameters.idle_sigma_per_year`; the
update itself adds openskill's ``tau`` as usual. His displayed rating is conservative,
``mu − k · sigma`` (openskill's ``ordinal``), and provisional until he has played
:attr:`Parameters.provisional_lists` lists.

Standard library and ``openskill`` only: no Django. The same inputs give the same figures,
to the last bit, whichever order lists of different players are rated in.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache

from openskill.models import PlackettLuce


@dataclass(frozen=True, slots=True)
class Parameters:
    """The model's settings: docs/rating.md gives each one's reason."""

    mu: float = 25.0
    """A newcomer's mean skill (openskill's default)."""
    sigma: float = 25.0 / 3.0
    """A newcomer's uncertainty (openskill's default), and the most it grows back to."""
    beta: float = 25.0 / 3.0
    """The spread of one list's performance around the skill: how much luck a list holds.
    Twice openskill's default (25/6), for a game with as much luck as Skat."""
    tau: float = 25.0 / 300.0
    """Added to the uncertainty before every list (openskill's default): skill may change."""
    k: float = 3.0
    """The displayed rating is ``mu − k · sigma`` (openskill's ``ordinal``)."""
    provisional_lists: int = 10
    """A rating is provisional until its player has played this many lists."""
    idle_sigma_per_year: float = 2.0
    """How much the uncertainty grows over a year without a list (in quadrature)."""

    def __post_init__(self) -> None:
        positive = ("mu", "sigma", "beta", "tau")
        if any(getattr(self, name) <= 0 for name in positive):
            raise ValueError(f"{', '.join(positive)} must be positive")
        if self.k < 0 or self.provisional_lists < 0 or self.idle_sigma_per_year < 0:
            raise ValueError("k, provisional_lists and idle_sigma_per_year must not be negative")

    def fingerprint(self) -> str:
        """The parameters as one line of JSON: stored with the ratings they made, so that a
        change of them is noticed (and the ratings computed again).

        >>> Parameters().fingerprint()[:24]
        '{"beta": 8.3333333333333'
        """
        return json.dumps(asdict(self), sort_keys=True)


PARAMETERS = Parameters()
"""The parameters the site rates with: the one place to change them."""


@dataclass(frozen=True, slots=True)
class Skill:
    """What the rating knows of a player: the belief about his skill, the lists it rests on
    and the day of his last list (None: none yet)."""

    mu: float
    sigma: float
    lists: int = 0
    last_played: datetime.date | None = None

    def rating(self, parameters: Parameters = PARAMETERS) -> float:
        """The displayed, conservative rating ``mu − k · sigma``.

        >>> Skill(25.0, 25.0 / 3.0).rating()
        0.0
        """
        return self.mu - parameters.k * self.sigma

    def provisional(self, parameters: Parameters = PARAMETERS) -> bool:
        """Whether he has played fewer lists than a settled rating needs."""
        return self.lists < parameters.provisional_lists


def newcomer(parameters: Parameters = PARAMETERS) -> Skill:
    """The belief about a player before his first list."""
    return Skill(parameters.mu, parameters.sigma)


def widened(skill: Skill, on: datetime.date, parameters: Parameters = PARAMETERS) -> float:
    """His uncertainty on ``on``: grown with the days since his last list, bounded by a
    newcomer's (never shrunk by the bound).

    >>> skill = Skill(30.0, 1.5, 40, datetime.date(2025, 1, 1))
    >>> round(widened(skill, datetime.date(2026, 1, 1)), 4)  # sqrt(1.5² + 2²)
    2.5
    >>> widened(skill, datetime.date(2025, 1, 1))
    1.5
    >>> widened(Skill(30.0, 1.5, 40, datetime.date(1900, 1, 1)), datetime.date(2026, 1, 1))
    8.333333333333334
    """
    if skill.last_played is None:
        return skill.sigma
    days = (on - skill.last_played).days
    if days <= 0 or skill.sigma >= parameters.sigma:
        return skill.sigma
    grown = math.sqrt(skill.sigma**2 + parameters.idle_sigma_per_year**2 * days / 365)
    return min(parameters.sigma, grown)


def places(points: Sequence[int]) -> list[int]:
    """Each player's place on a list by his points, highest first; players level on points
    share the place (1, 2, 2, 4).

    >>> places([1332, 1308, 1320, 108])
    [1, 3, 2, 4]
    >>> places([500, 700, 500])
    [2, 1, 2]
    """
    return [1 + sum(other > mine for other in points) for mine in points]


@cache
def _model(parameters: Parameters) -> PlackettLuce:
    return PlackettLuce(
        mu=parameters.mu, sigma=parameters.sigma, beta=parameters.beta, tau=parameters.tau
    )


def rate(
    skills: Sequence[Skill],
    points: Sequence[int],
    on: datetime.date,
    parameters: Parameters = PARAMETERS,
) -> list[Skill]:
    """The players' skills after one list played on ``on``: ``skills`` before it and
    ``points`` on it, in the same order (at least two players).

    Three newcomers: each mean moves by sigma²/c = 3.4023 (sigma² = SIGMA² + TAU², c² the
    sum of sigma² + BETA² over the three) times 1 − 1/3, −1/3 + 1 − 1/2 and −1/3 − 1/2:

    >>> after = rate([newcomer()] * 3, [900, 600, 300], datetime.date(2026, 3, 1))
    >>> [round(skill.mu, 3) for skill in after]
    [27.268, 25.567, 22.165]
    >>> [skill.lists for skill in after], after[0].last_played
    ([1, 1, 1], datetime.date(2026, 3, 1))
    >>> after[0].sigma < newcomer().sigma
    True
    """
    if len(skills) != len(points) or len(skills) < 2:
        raise ValueError("a list needs at least two players, each with his points")
    model = _model(parameters)
    teams = [[model.rating(skill.mu, widened(skill, on, parameters))] for skill in skills]
    rated = model.rate(teams, ranks=[float(place) for place in places(points)])
    return [
        Skill(team[0].mu, team[0].sigma, skill.lists + 1, on)
        for team, skill in zip(rated, skills, strict=True)
    ]
