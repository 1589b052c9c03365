"""The database's own guard: every named constraint refuses a bad direct write."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, models, transaction
from django.db.models import F, ProtectedError
from django.utils import timezone

import scoring
from skatliga import services
from skatliga.models import (
    CheckInClaim,
    CheckInLink,
    Club,
    Division,
    Fine,
    FineKind,
    ForbiddenPair,
    Game,
    GameType,
    GroupTeam,
    League,
    Level,
    LineUp,
    LineUpPlayer,
    ListResult,
    ListSystem,
    MatchDay,
    MatchGroup,
    MatchReport,
    Objection,
    Payment,
    Player,
    Purse,
    RatingChange,
    RefereeCall,
    Registration,
    ReportAnswer,
    RosterEntry,
    RuleSetName,
    Season,
    Seat,
    SecondEntry,
    Series,
    Signature,
    Table,
    TableLink,
    Team,
    TeamLink,
    Tournament,
    Transfer,
)
from tests.web.factories import make_player, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def lists() -> SimpleNamespace:
    """Series 1 of a tournament with a 4-table and a 3-table."""
    four = make_table(size=4)
    three = make_table(four.series.tournament, size=3)
    emil = make_player("Emil")
    return SimpleNamespace(four=four, three=three, series=four.series, emil=emil)


def game(table: Table, **fields: Any) -> Game:
    """A valid declared game (game 1, grand with 2, 78 points) with ``fields`` changed."""
    values = {
        "table": table,
        "table_size": table.size,
        "number": 1,
        "passed": False,
        "declarer": 2,
        "game": "grand",
        "bid": 20,
        "matadors": 2,
        "card_points": 78,
        "tricks": 7,
        **fields,
    }
    return Game.objects.create(**values)


def result(table: Table, **fields: Any) -> ListResult:
    seat = table.seats.get(position=1)
    values = {
        "table": table,
        "series": table.series,
        "tournament": table.series.tournament,
        "player": seat.player,
        "position": 1,
        **fields,
    }
    return ListResult.objects.create(**values)


def twice(write: Callable[[], object]) -> None:
    write()
    write()


def objection(x: SimpleNamespace, **fields: Any) -> Objection:
    """An objection of seat 1 of the 4-table against its game 1, with ``fields``."""
    played = Game.objects.get_or_create(
        table=x.four,
        number=1,
        defaults={"table_size": 4, "passed": True},
    )[0]
    return Objection.objects.create(
        game=played, seat=x.four.seats.get(position=1), reason="Bube", **fields
    )


def pair_of(x: SimpleNamespace, low: int, high: int) -> ForbiddenPair:
    first, second = x.series.tournament.registrations.order_by("pk")[:2]
    ids = {0: first.pk, 1: second.pk}
    return ForbiddenPair.objects.create(first_id=ids[low], second_id=ids[high])


def rating_change(x: SimpleNamespace, **fields: Any) -> RatingChange:
    """A rating row of emil at the 4-table, as a rated list writes it, ``fields`` changed."""
    tournament = x.four.series.tournament
    values: dict[str, Any] = {
        "player": x.emil,
        "table": x.four,
        "tournament": tournament,
        "played_on": tournament.date,
        "series_number": 1,
        "table_number": x.four.number,
        "players": 4,
        "points": 0,
        "place": 1,
        "mu_before": 25.0,
        "sigma_before": 8.0,
        "mu_after": 25.0,
        "sigma_after": 8.0,
        "rating_before": 1.0,
        "rating_after": 1.0,
        "lists": 1,
    }
    return RatingChange.objects.create(**(values | fields))


def league(x: SimpleNamespace) -> SimpleNamespace:
    """A league with a level, a division of one team, a match day with a group and a
    line-up of series 1."""
    found = League.objects.get_or_create(name="Liga", slug="liga")[0]
    level = Level.objects.get_or_create(league=found, rank=1, defaults={"name": "Oberliga"})[0]
    season = Season.objects.get_or_create(
        name="Liga 2026", slug="liga-2026", year=2026, league=found
    )[0]
    division = Division.objects.get_or_create(season=season, level=level, name="Nord")[0]
    team = Team.objects.get_or_create(season=season, division=division, name="Kreuz Bube")[0]
    day = MatchDay.objects.get_or_create(
        division=division, number=1, defaults={"date": datetime.date(2026, 3, 21)}
    )[0]
    group = MatchGroup.objects.get_or_create(match_day=day, number=1, defaults={"date": day.date})[
        0
    ]
    line_up = LineUp.objects.get_or_create(group=group, team=team, series=1)[0]
    return SimpleNamespace(
        league=found,
        level=level,
        season=season,
        division=division,
        team=team,
        day=day,
        group=group,
        line_up=line_up,
        player=x.emil,
    )


def report(x: SimpleNamespace) -> MatchReport:
    """The report of :func:`league`'s group."""
    return MatchReport.objects.get_or_create(
        group=league(x).group,
        defaults={
            "content": {},
            "written_at": timezone.now(),
            "binding_on": datetime.date(2026, 4, 4),
        },
    )[0]


def fine(x: SimpleNamespace, *, amount: int = 60, proposed: bool = False) -> Fine:
    """A fine of :func:`league`'s team for its group's match day."""
    found = league(x)
    return Fine.objects.create(
        league=found.league,
        club=Club.objects.get_or_create(name="SC")[0],
        team=found.team,
        group=found.group,
        code="absent",
        amount=amount,
        reason="nicht angetreten",
        proposed=proposed,
        created_at=timezone.now(),
    )


def level_of(x: SimpleNamespace, **fields: Any) -> Level:
    return Level.objects.create(**{"league": league(x).league, "name": "L", "rank": 9, **fields})


CASES: dict[str, list[Callable[[SimpleNamespace], object]]] = {
    "player_number_unique": [
        lambda x: twice(lambda: Player.objects.create(name="A", number="0815"))
    ],
    "purse_amounts_not_negative": [
        lambda x: Purse.objects.create(tournament=x.three.series.tournament, entry_fee=-1)
    ],
    "season_ranking_series_positive": [
        lambda x: Season.objects.create(name="Liga", slug="liga-0", year=2026, ranking_series=0)
    ],
    "team_name_unique_per_season": [
        lambda x: twice(
            lambda: Team.objects.create(
                season=Season.objects.get_or_create(name="Liga", slug="liga", year=2026)[0],
                name="Kreuz Bube",
            )
        )
    ],
    "tournament_rounds_in_range": [
        lambda x, rounds=rounds: Tournament.objects.create(
            name="T", slug=f"t{rounds}", date=datetime.date(2026, 1, 1), rounds_per_series=rounds
        )
        for rounds in (0, 31)
    ],
    "registration_unique": [
        lambda x: Registration.objects.create(
            tournament=x.series.tournament, player=x.four.seats.first().player
        )
    ],
    "series_number_unique": [
        lambda x: Series.objects.create(tournament=x.series.tournament, number=1)
    ],
    "series_number_positive": [
        lambda x: Series.objects.create(tournament=x.series.tournament, number=0)
    ],
    "table_number_unique": [lambda x: Table.objects.create(series=x.series, number=1, size=4)],
    "table_link_one_active": [
        lambda x: [
            TableLink.objects.create(table=x.four, token=f"token-{n}", code=f"CODE{n}")
            for n in range(2)
        ]
    ],
    "table_size_3_to_5": [
        lambda x, size=size: Table.objects.create(series=x.series, number=9, size=size)
        for size in (2, 6)
    ],
    "seat_position_unique": [
        lambda x: Seat.objects.create(
            table=x.four, series=x.series, position=1, player=make_player()
        )
    ],
    "seat_one_table_per_series": [
        lambda x: Seat.objects.create(
            table=x.three, series=x.series, position=4, player=x.four.seats.first().player
        )
    ],
    "seat_substitute_once_per_series": [
        lambda x: [
            Seat.objects.filter(pk=seat.pk).update(substitute=x.emil, substitute_from=2)
            for seat in (x.four.seats.get(position=1), x.three.seats.get(position=1))
        ]
    ],
    "seat_substitute_from_second_game": [
        lambda x: x.four.seats.filter(position=1).update(substitute=x.emil, substitute_from=1),
        lambda x: x.four.seats.filter(position=1).update(substitute=x.emil),
        lambda x: x.four.seats.filter(position=1).update(substitute_from=5),
        lambda x: x.four.seats.filter(position=1).update(substitute=F("player"), substitute_from=5),
    ],
    "seat_position_1_to_5": [
        lambda x: Seat.objects.create(
            table=x.four, series=x.series, position=6, player=make_player()
        )
    ],
    "game_number_unique_per_list": [lambda x: twice(lambda: game(x.four))],
    "game_number_positive": [lambda x: game(x.four, number=0)],
    "game_passed_declared_or_ramsch": [
        lambda x: game(x.four, declarer=None),
        lambda x: game(x.four, game="", matadors=None),
        lambda x: game(x.four, passed=True),
        lambda x: game(x.four, ramsch={"card_points": [40, 40, 40], "tricks": [3, 3, 4]}),
        lambda x: game(
            x.four,
            passed=True,
            declarer=None,
            game="",
            bid=None,
            matadors=None,
            ramsch={"card_points": [40, 40, 40], "tricks": [3, 3, 4]},
        ),
    ],
    "game_bid_at_least_18": [lambda x: game(x.four, bid=17)],
    "game_matadors_where_they_exist": [
        lambda x: game(x.four, matadors=0),
        lambda x: game(x.four, matadors=5),
        lambda x: game(x.four, game="clubs", matadors=12),
        lambda x: game(x.four, game="null", bid=23, matadors=1),
        lambda x: game(x.four, game="clubs", matadors=None),
        lambda x: game(x.four, game="grand", matadors=None),
    ],
    "game_card_points_in_range": [lambda x: game(x.four, card_points=121)],
    "game_tricks_in_range": [lambda x: game(x.four, tricks=11)],
    "game_declarer_at_table": [
        lambda x: game(x.three, declarer=4),
        lambda x: game(x.four, declarer=0),
    ],
    # Game 1 at a 5-table: seat 1 deals, seat 5 (on his right) sits out with him.
    "game_sitters_do_not_declare_at_5_table": [
        lambda x: game(Table.objects.create(series=x.series, number=9, size=5), declarer=1),
        lambda x: game(Table.objects.create(series=x.series, number=9, size=5), declarer=5),
        lambda x: game(
            Table.objects.create(series=x.series, number=9, size=5), number=7, declarer=1
        ),
    ],
    "signature_once_per_seat": [
        lambda x: twice(lambda: Signature.objects.create(table=x.four, position=1))
    ],
    "signature_position_at_a_table": [
        lambda x: Signature.objects.create(table=x.four, position=0),
        lambda x: Signature.objects.create(table=x.four, position=6),
    ],
    "second_entry_number_unique_per_list": [
        lambda x: twice(lambda: SecondEntry.objects.create(table=x.four, number=1, passed=True))
    ],
    "second_entry_number_positive": [
        lambda x: SecondEntry.objects.create(table=x.four, number=0, passed=True)
    ],
    "list_result_unique": [lambda x: result(x.four)],
    "list_result_total_is_sum": [lambda x: result(x.three, game_points=10, bonus=50, total=61)],
    "checkin_link_one_active": [
        lambda x: twice(
            lambda: CheckInLink.objects.create(
                tournament=x.series.tournament, token=str(CheckInLink.objects.count())
            )
        )
    ],
    "checkin_claim_number_unique": [
        lambda x: twice(
            lambda: CheckInClaim.objects.create(
                tournament=x.series.tournament,
                number=1,
                token=str(CheckInClaim.objects.count()),
                name="Gerd Gast",
            )
        )
    ],
    "checkin_claim_player_or_guest": [
        lambda x: CheckInClaim.objects.create(
            tournament=x.series.tournament, number=1, token="t", name=""
        ),
        lambda x: CheckInClaim.objects.create(
            tournament=x.series.tournament,
            number=1,
            token="t",
            name="Gerd Gast",
            player=x.four.seats.first().player,
        ),
    ],
    "forbidden_pair_unique": [lambda x: twice(lambda: pair_of(x, 0, 1))],
    "forbidden_pair_ordered": [lambda x: pair_of(x, 1, 0), lambda x: pair_of(x, 0, 0)],
    "referee_call_one_open_per_table": [
        lambda x: twice(lambda: RefereeCall.objects.create(table=x.four, reason="rule"))
    ],
    "objection_one_open_per_seat": [lambda x: twice(lambda: objection(x))],
    "rating_change_unique": [lambda x: twice(lambda: rating_change(x))],
    "rating_change_place_on_list": [
        lambda x: rating_change(x, place=0),
        lambda x: rating_change(x, place=5),
        lambda x: rating_change(x, players=1, place=1),
    ],
    "objection_decided_with_decision": [
        lambda x: objection(x, decision="kept"),
        lambda x: objection(x, decided_at=datetime.datetime(2026, 11, 27, tzinfo=datetime.UTC)),
    ],
    "level_rank_unique": [lambda x: level_of(x, rank=1)],
    "level_series_2_to_4": [lambda x, n=n: level_of(x, series=n) for n in (1, 5)],
    "level_players_in_range": [
        lambda x: level_of(x, players_least=0),
        lambda x: level_of(x, players=4, players_least=5),
        lambda x: level_of(x, players=9, players_least=3),
    ],
    "division_name_unique": [
        lambda x: Division.objects.create(
            season=league(x).season, level=league(x).level, name="Nord"
        )
    ],
    "roster_player_once": [
        lambda x: twice(lambda: RosterEntry.objects.create(team=league(x).team, player=x.emil))
    ],
    "roster_position_unique": [
        lambda x: [
            RosterEntry.objects.create(team=league(x).team, player=make_player(), position=1)
            for _ in range(2)
        ]
    ],
    "roster_position_positive": [
        lambda x: RosterEntry.objects.create(team=league(x).team, player=x.emil, position=0)
    ],
    "transfer_one_per_day": [
        lambda x: twice(
            lambda: Transfer.objects.create(
                player=x.emil,
                club=Club.objects.get_or_create(name="SC")[0],
                on=datetime.date(2026, 1, 1),
            )
        )
    ],
    "match_day_number_unique": [
        lambda x: MatchDay.objects.create(
            division=league(x).division, number=1, date=datetime.date(2026, 4, 1)
        )
    ],
    "match_day_number_positive": [
        lambda x: MatchDay.objects.create(
            division=league(x).division, number=0, date=datetime.date(2026, 4, 1)
        )
    ],
    "match_group_number_unique": [
        lambda x: MatchGroup.objects.create(
            match_day=league(x).day, number=1, date=league(x).day.date
        )
    ],
    "group_team_once_per_match_day": [
        lambda x: [
            GroupTeam.objects.create(
                group=MatchGroup.objects.get_or_create(
                    match_day=league(x).day, number=n, defaults={"date": league(x).day.date}
                )[0],
                match_day=league(x).day,
                team=league(x).team,
            )
            for n in (1, 2)
        ]
    ],
    "line_up_once_per_series": [
        lambda x: LineUp.objects.create(group=league(x).group, team=league(x).team, series=1)
    ],
    "line_up_series_positive": [
        lambda x: LineUp.objects.create(group=league(x).group, team=league(x).team, series=0)
    ],
    "line_up_player_once": [
        lambda x: [
            LineUpPlayer.objects.create(line_up=league(x).line_up, player=x.emil, position=n)
            for n in (1, 2)
        ]
    ],
    "line_up_position_unique": [
        lambda x: [
            LineUpPlayer.objects.create(line_up=league(x).line_up, player=make_player(), position=1)
            for _ in range(2)
        ]
    ],
    "report_answer_once": [
        lambda x: [
            ReportAnswer.objects.create(
                report=report(x), team=league(x).team, answer="confirmed", at=timezone.now()
            )
            for _ in range(2)
        ]
    ],
    "report_objection_has_reason": [
        lambda x: ReportAnswer.objects.create(
            report=report(x), team=league(x).team, answer="objected", at=timezone.now()
        )
    ],
    "fine_kind_code_once": [
        lambda x: [
            FineKind.objects.create(
                league=league(x).league, code="absent", name=f"nicht angetreten {n}", amount=60
            )
            for n in range(2)
        ]
    ],
    "fine_kind_amount_positive": [
        lambda x: FineKind.objects.create(
            league=league(x).league, code="absent", name="nicht angetreten", amount=0
        )
    ],
    "fine_proposed_once": [
        lambda x: [fine(x, proposed=True) for _ in range(2)],
    ],
    "fine_amount_positive": [lambda x: fine(x, amount=0)],
    "payment_amount_positive": [
        lambda x: Payment.objects.create(
            league=league(x).league,
            club=Club.objects.get_or_create(name="SC")[0],
            amount=0,
            paid_on=datetime.date(2026, 4, 1),
        )
    ],
    "team_link_one_active": [
        lambda x: [
            TeamLink.objects.create(team=league(x).team, token=f"team-{n}", code=f"TEAM{n}")
            for n in range(2)
        ]
    ],
}


def constraint(name: str) -> tuple[type[models.Model], models.BaseConstraint]:
    for model in apps.get_app_config("skatliga").get_models():
        for c in model._meta.constraints:
            if c.name == name:
                return model, c
    raise LookupError(name)


def named_in(message: str, name: str) -> bool:
    """Whether the database's error message names the constraint (SQLite names the columns
    of a unique constraint instead)."""
    model, c = constraint(name)
    if connection.vendor == "sqlite" and isinstance(c, models.UniqueConstraint):
        columns = ", ".join(
            f"{model._meta.db_table}.{model._meta.get_field(f).column}" for f in c.fields
        )
        return f"UNIQUE constraint failed: {columns}" in message
    return name in message


def test_every_named_constraint_has_a_case():
    names = {
        c.name
        for model in apps.get_app_config("skatliga").get_models()
        for c in model._meta.constraints
    }

    assert names == set(CASES)


@pytest.mark.parametrize(
    ("name", "write"),
    [(name, write) for name, writes in CASES.items() for write in writes],
    ids=[f"{name}-{i}" for name, writes in CASES.items() for i in range(len(writes))],
)
def test_a_bad_write_violates_the_constraint(lists, name, write):
    with pytest.raises(IntegrityError) as error, transaction.atomic():
        write(lists)

    assert named_in(str(error.value), name)


def test_the_valid_baseline_game_is_accepted(lists):
    assert game(lists.four).pk is not None


def test_deleting_a_player_with_results_is_refused(lists):
    player = lists.four.seats.first().player

    with pytest.raises(ProtectedError), transaction.atomic():
        player.delete()

    assert Player.objects.filter(pk=player.pk).exists()


def test_delete_player_service_refuses_a_player_with_results(lists):
    player = lists.four.seats.first().player

    with pytest.raises(services.ServiceError) as error:
        services.delete_player(player)

    assert error.value.code == "player_has_results"
    assert Player.objects.filter(pk=player.pk).exists()


def test_delete_player_service_deletes_a_player_without_results():
    player = make_player()

    services.delete_player(player)

    assert not Player.objects.filter(pk=player.pk).exists()


def test_game_types_mirror_the_engine():
    assert GameType.values == [g.value for g in scoring.GameType]


def test_rule_set_names_mirror_the_engine():
    assert RuleSetName.values == list(scoring.RULE_SETS)


def test_list_systems_mirror_the_engine():
    assert ListSystem.values == [s.value for s in scoring.ListSystem]
