import secrets

PRODUCTION = {
    "SKATLIGA_DEBUG": "0",
    "SKATLIGA_ALLOWED_HOSTS": "example.org",
}


def test_debug_off_without_secret_key_is_improperly_configured(run_manage):
    result = run_manage("check", env={**PRODUCTION, "SKATLIGA_SECRET_KEY": None})

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SKATLIGA_SECRET_KEY" in result.stderr


def test_check_deploy_passes_with_production_variables(run_manage):
    env = {**PRODUCTION, "SKATLIGA_SECRET_KEY": secrets.token_urlsafe(50)}

    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)

    assert result.returncode == 0, result.stdout + result.stderr


def test_debug_setting_rejects_unknown_values(run_manage):
    result = run_manage("check", env={"SKATLIGA_DEBUG": "maybe"})

    assert result.returncode != 0
    assert "SKATLIGA_DEBUG" in result.stderr


def database_options(run_manage, env: dict[str, str | None]) -> str:
    result = run_manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(sorted(settings.DATABASES['default']['OPTIONS']))",
        env=env,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_postgresql_binds_on_the_server_and_prepares_unless_switched_off(run_manage):
    url = {"DATABASE_URL": "postgres://skatliga@127.0.0.1:5432/skatliga"}

    assert database_options(run_manage, url) == "['prepare_threshold', 'server_side_binding']"
    assert database_options(run_manage, {**url, "SKATLIGA_DB_PREPARE": "0"}) == "[]"
    assert "init_command" in database_options(run_manage, {"DATABASE_URL": None})


def hsts(run_manage, value: str | None) -> str:
    env = {**PRODUCTION, "SKATLIGA_SECRET_KEY": secrets.token_urlsafe(50), "SKATLIGA_HSTS": value}
    code = (
        "from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
    )
    result = run_manage("shell", "--no-imports", "-c", code, env=env)
    return result.stdout.strip() or result.stderr


def test_hsts_covers_subdomains_and_preload_only_when_asked(run_manage):
    assert hsts(run_manage, None) == "31536000 False False"
    assert hsts(run_manage, "subdomains") == "31536000 True False"
    assert hsts(run_manage, "preload") == "31536000 True True"
    assert "SKATLIGA_HSTS must be subdomains or preload" in hsts(run_manage, "always")


def test_english_times_use_the_24_hour_clock_like_german():
    import datetime

    from django.utils import formats, translation

    at = datetime.datetime(2026, 11, 21, 0, 37)
    with translation.override("en"):
        short = formats.date_format(at, "SHORT_DATETIME_FORMAT")
        time = formats.time_format(at.time())
    assert (short, time) == ("11/21/2026 00:37", "00:37")


def test_page_lag_is_seconds_up_to_the_halls_shortest_refresh(run_manage):
    for wrong in ("6", "-1", "soon", "nan"):
        result = run_manage("check", env={"SKATLIGA_PAGE_LAG": wrong})
        assert result.returncode != 0, wrong
        assert "SKATLIGA_PAGE_LAG" in result.stderr
    assert run_manage("check", env={"SKATLIGA_PAGE_LAG": "0"}).returncode == 0
