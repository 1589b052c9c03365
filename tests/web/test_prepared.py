"""PostgreSQL prepares the statements a connection repeats (settings: SKATLIGA_DB_PREPARE);
the public pages' statements run there with parameters bound by the server."""

import pytest
from django.db import connection

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
