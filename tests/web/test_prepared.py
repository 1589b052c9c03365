"""PostgreSQL prepares the statements a connection repeats (settings: SKATLIGA_DB_PREPARE);
the public pages' statements run there with parameters bound by the server."""

import pytest
from django.db import connection

from skatliga import statements
from skatliga.models import Season

pytestmark = pytest.mark.django_db


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_statement_run_twice_is_prepared_on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite has no prepared statements to look at")
    sql = "SELECT COUNT(*) FROM skatliga_table WHERE series_id = %s"

    with connection.cursor() as cursor:
        cursor.execute(sql, [1])
        assert not any("skatliga_table" in s for s in prepared_statements())
        cursor.execute(sql, [2])

    assert any("skatliga_table WHERE series_id = $1" in s for s in prepared_statements())


def test_plain_row_reads_name_their_columns():
    """A worker still running while ``migrate`` adds a column (on another connection) keeps
    its prepared statements: with ``SELECT *`` PostgreSQL would refuse them ("cached plan
    must not change result type"), so the plain statements name every column."""
    sql = statements.select_from(Season)
    assert "*" not in sql
    assert all(f.column in sql for f in Season._meta.concrete_fields)
    season = Season.objects.create(name="Liga 2026", slug="liga-2026", year=2026)
    for _ in range(2):  # the second run prepared on PostgreSQL
        assert statements.rows_where(Season, "slug", "liga-2026") == [season]
        assert statements.row_by_pk(Season, season.pk).rules == season.rules
