"""Settings for skatliga, read from the environment.

SKATLIGA_DEBUG          1/0, default 1 (local development)
SKATLIGA_SECRET_KEY     required when SKATLIGA_DEBUG is 0
SKATLIGA_ALLOWED_HOSTS  comma-separated host names
SKATLIGA_HTTPS          1/0, default 1: with debug off, redirect to HTTPS and send cookies over
                        HTTPS only (0 only to try the production settings on 127.0.0.1)
SKATLIGA_LOG_LEVEL      DEBUG, INFO (default), WARNING or ERROR: what goes to stderr
SENTRY_DSN              report errors to Sentry too (needs the sentry-sdk package)
DATABASE_URL            default: SQLite db.sqlite3 in the repository root
SKATLIGA_DB_PREPARE     1/0, default 1: PostgreSQL binds parameters on the server and prepares
                        statements a connection repeats (0 behind PgBouncer in transaction mode)
SKATLIGA_API_RATE       API requests per client address, default 120/m
SKATLIGA_PROXY_COUNT    reverse proxies that append to X-Forwarded-For, default 0
SKATLIGA_CACHE_URL      shared page cache: redis://…, memcached://…, file://…; default: local
SKATLIGA_PAGE_LAG       seconds (0 to 5, default 5) a public page summing many lists (standings,
                        hall, players' pages) may be behind the last save; 0: never
SKATLIGA_HSTS           with HTTPS: "" (default: one year, this host only), "subdomains" (also
                        every subdomain) or "preload" (subdomains, and ready for the browsers'
                        preload lists)
SKATLIGA_EMBED_SITES    space-separated origins (https://club.example) whose pages may frame a
                        division's table (/divisions/<id>/embed/); default: none
SKATLIGA_BACKUP_DIR     where the nightly backups go: /healthz and check_backup warn when the
                        newest is older than a day
SKATLIGA_RATING_LISTED  1/0, default 1: a player is in the public rating list unless he asked
                        otherwise (0: only players who asked to be are in it)
"""

import datetime
import os
import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

django_stubs_ext.monkeypatch()  # generic classes such as ModelAdmin[Club] at run time

BASE_DIR = Path(__file__).resolve().parent.parent
VERSION: str = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["project"]["version"]
"""The release (pyproject.toml; CHANGELOG.md says what each one changed), on /healthz."""

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    value = value.strip().lower()
    if value not in _TRUE | _FALSE:
        raise ImproperlyConfigured(f"{name} must be 1 or 0, not {value!r}.")
    return value in _TRUE


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = env_bool("SKATLIGA_DEBUG", default=True)

SECRET_KEY = os.environ.get("SKATLIGA_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SKATLIGA_SECRET_KEY must be set when SKATLIGA_DEBUG is off "
            "(a long random string, e.g. from "
            "python3 -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = "django-insecure-local-development-only"
elif not DEBUG and (
    len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure-")
):
    raise ImproperlyConfigured(
        "SKATLIGA_SECRET_KEY is too weak: use at least 50 random characters (e.g. from "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )

ALLOWED_HOSTS = env_list("SKATLIGA_ALLOWED_HOSTS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "axes",
    "ninja",
    "django_tasks",
    "django_tasks_db",
    "skatliga",
]

# Long work (an archive import) runs as a task of Django's tasks framework, from its database
# queue, in the worker the start command keeps beside gunicorn (skatliga.tasks).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

MIDDLEWARE = [
    "skatliga.ops.stack.OwnFrameStackMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "skatliga.ops.security.ContentSecurityPolicyMiddleware",
    "skatliga.ops.proxies.ProxyCountMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "skatliga.ops.security.PrivateResponsesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

SESSION_ENGINE = "django.contrib.sessions.backends.db"

ROOT_URLCONF = "skatliga.urls"
WSGI_APPLICATION = "skatliga.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Write-ahead logging: readers never wait for the referee who saves, and a commit does not
    # wait for the disk twice. IMMEDIATE takes the write lock when a transaction begins, so
    # two referees saving at once queue instead of failing to upgrade a read lock.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
elif env_bool("SKATLIGA_DB_PREPARE", default=True):
    # A public page runs a dozen small statements that take longer to plan than to run. With
    # the parameters bound on the server, psycopg prepares a statement the second time a
    # connection (kept for CONN_MAX_AGE) runs it; PostgreSQL plans its first five runs with
    # the values, then keeps a generic plan where that costs no more, and stops planning. A
    # pooler that hands each transaction another server connection (PgBouncer in
    # transaction mode) loses the prepared statements: SKATLIGA_DB_PREPARE=0 there.
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "server_side_binding": True,
        "prepare_threshold": 1,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Public pages are cached under revisions read from the database (skatliga/views/caching.py),
# so each process may keep its own cache: local memory unless SKATLIGA_CACHE_URL names a shared
# one (redis://host:6379/0 with the redis package, memcached://host:11211 with pymemcache, or
# file:///var/cache/skatliga, a directory the workers of one machine share).
_CACHE_URL = os.environ.get("SKATLIGA_CACHE_URL", "")
if _CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES: dict[str, dict[str, Any]] = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache"}
    }
    CACHES["default"]["LOCATION"] = _CACHE_URL
elif _CACHE_URL.startswith("memcached://"):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.memcached.PyMemcacheCache"}}
    CACHES["default"]["LOCATION"] = _CACHE_URL.removeprefix("memcached://")
elif _CACHE_URL.startswith("file://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": _CACHE_URL.removeprefix("file://"),
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    }
elif _CACHE_URL:
    raise ImproperlyConfigured(
        "SKATLIGA_CACHE_URL must start with redis://, memcached:// or file://."
    )
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 1000},
        }
    }
# A standing's body rows, rendered (templates/django_tables2/standings.html): each process
# keeps its own, under everything a row shows (its figures, rank, the table's columns, the
# language), so that a page built anew after a save renders only the rows that changed.
CACHES["rows"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "standing-rows",
    "TIMEOUT": 3600,
    "OPTIONS": {"MAX_ENTRIES": 30000},
}

# A running tournament's standings are built at most once in PAGE_LAG seconds per process,
# not on every save (skatliga/views/caching.py); at most the hall display's shortest refresh.
_lag = os.environ.get("SKATLIGA_PAGE_LAG", "5").strip() or "5"
try:
    PAGE_LAG = float(_lag)
except ValueError:
    PAGE_LAG = -1.0
if not 0 <= PAGE_LAG <= 5:
    raise ImproperlyConfigured(f"SKATLIGA_PAGE_LAG must be seconds from 0 to 5, not {_lag!r}.")

# The public rating list (docs/rating.md): whether a player who has not chosen is in it.
RATING_LISTED_DEFAULT = env_bool("SKATLIGA_RATING_LISTED", default=True)
EMBED_SITES = os.environ.get("SKATLIGA_EMBED_SITES", "").split()
"""The origins whose pages may frame a division's embeddable table (its frame-ancestors)."""
for _site in EMBED_SITES:
    if not re.fullmatch(r"https?://[A-Za-z0-9.*-]+(:[0-9]+)?", _site):
        raise ImproperlyConfigured(
            f"SKATLIGA_EMBED_SITES takes origins such as https://club.example, not {_site!r}."
        )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed logins are throttled per user name and address together (django-axes): after 5
# wrong passwords that pair waits 15 minutes; the referee sees why (views.auth.locked_out).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "skatliga.views.auth.locked_out"
# Behind a reverse proxy every request comes from the proxy's address: the client's is the
# right-most entry the proxies added to X-Forwarded-For (SKATLIGA_PROXY_COUNT proxies).
_proxies = os.environ.get("SKATLIGA_PROXY_COUNT", "0").strip() or "0"
if not _proxies.isdigit():
    raise ImproperlyConfigured(f"SKATLIGA_PROXY_COUNT must be a whole number, not {_proxies!r}.")
PROXY_COUNT = int(_proxies)
AXES_CLIENT_IP_CALLABLE = "skatliga.views.auth.client_address"
AXES_USERNAME_CALLABLE = "skatliga.views.auth.login_name"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "referee:dashboard"

# E-mail, for a referee's password reset: SKATLIGA_EMAIL_URL=smtp://user:password@host:port
# (smtp+tls:// for STARTTLS, port 587 by default; smtps:// for TLS, 465), the sender in
# SKATLIGA_EMAIL_FROM. Without it there is no reset by e-mail: a Ligaleitung sets a new password.
EMAIL_URL = os.environ.get("SKATLIGA_EMAIL_URL", "").strip()
if EMAIL_URL:
    _mail = urlsplit(EMAIL_URL)
    _ports = {"smtp": 25, "smtp+tls": 587, "smtps": 465}
    if _mail.scheme not in _ports or not _mail.hostname:
        raise ImproperlyConfigured(
            "SKATLIGA_EMAIL_URL must look like smtp://user:password@host:port "
            "(or smtp+tls://, smtps://)."
        )
    EMAIL_HOST = _mail.hostname
    EMAIL_PORT = _mail.port or _ports[_mail.scheme]
    EMAIL_HOST_USER = unquote(_mail.username or "")
    EMAIL_HOST_PASSWORD = unquote(_mail.password or "")
    EMAIL_USE_TLS = _mail.scheme == "smtp+tls"
    EMAIL_USE_SSL = _mail.scheme == "smtps"
    EMAIL_TIMEOUT = 20
    DEFAULT_FROM_EMAIL = os.environ.get("SKATLIGA_EMAIL_FROM", "").strip() or (
        f"skatliga@{EMAIL_HOST}"
    )
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "de"
LANGUAGES = [
    ("de", _("Deutsch")),
    ("en", _("Englisch")),
    ("da", _("Dänisch")),
    ("sv", _("Schwedisch")),
    ("nl", _("Niederländisch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["skatliga.formats"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

# The API (skatliga/api): requests per client address; the address behind SKATLIGA_PROXY_COUNT
# proxies as for login throttling (0: the address is REMOTE_ADDR itself).
API_RATE = os.environ.get("SKATLIGA_API_RATE", "120/m").strip()
if not re.fullmatch(r"[1-9][0-9]*/[0-9]*(s|sec|m|min|h|hour|d|day)", API_RATE):
    raise ImproperlyConfigured(
        f"SKATLIGA_API_RATE must be requests per time, like 120/m or 5000/day, not {API_RATE!r}."
    )
NINJA_NUM_PROXIES = PROXY_COUNT

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
if not DEBUG:
    # collectstatic writes hashed, compressed copies (site.3f2a….css); whitenoise serves them
    # with a far-future cache header, so a tablet never keeps an old entry.js after an update.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "skatliga.ops.static.StaticFilesStorage"},
    }

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'self'; object-src 'none'"
)
"""Sent with every response (skatliga.ops.security): no inline scripts or styles anywhere."""

LOG_LEVEL = os.environ.get("SKATLIGA_LOG_LEVEL", "INFO").strip().upper() or "INFO"
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(
        f"SKATLIGA_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {LOG_LEVEL!r}."
    )
LOGGING = {
    # Everything to stderr, where systemd's journal or the container runtime collects it; a
    # failed request is one ERROR record from django.request with its traceback.
    "version": 1,
    "disable_existing_loggers": False,
    # Table tokens are blanked at the handler, which sees the records of every logger
    # (a logger's filter misses its children's: django.security.csrf's warnings).
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "filters": {"table_tokens": {"()": "skatliga.table.redaction.RedactTableTokens"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["table_tokens"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"level": "INFO"},
        # django-axes announces itself at INFO in every process; lockouts are WARNINGs.
        "axes": {"level": "WARNING"},
    },
}

SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    try:
        import sentry_sdk
    except ImportError as error:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: pip install sentry-sdk"
        ) from error
    sentry_sdk.init(dsn=SENTRY_DSN, send_default_pii=False)

if not DEBUG and env_bool("SKATLIGA_HTTPS", default=True):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31_536_000
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# HSTS for other hosts of the domain only when the operator says so: SKATLIGA_HSTS.
HSTS = os.environ.get("SKATLIGA_HSTS", "").strip().lower()
if HSTS not in {"", "subdomains", "preload"}:
    raise ImproperlyConfigured(f"SKATLIGA_HSTS must be subdomains or preload, not {HSTS!r}.")
SECURE_HSTS_INCLUDE_SUBDOMAINS = HSTS in {"subdomains", "preload"}
SECURE_HSTS_PRELOAD = HSTS == "preload"
SILENCED_SYSTEM_CHECKS = [
    *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
    *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
]

_backups = os.environ.get("SKATLIGA_BACKUP_DIR", "").strip()
BACKUP_DIR = Path(_backups) if _backups else None
"""Where the nightly backups go (skatliga-*.backup); None: not watched."""
