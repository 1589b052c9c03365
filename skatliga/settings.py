"""Settings for skatliga, read from the environment.

SKATLIGA_DEBUG          1/0, default 1 (local development)
SKATLIGA_SECRET_KEY     required when SKATLIGA_DEBUG is 0
SKATLIGA_ALLOWED_HOSTS  comma-separated host names
DATABASE_URL            default: SQLite db.sqlite3 in the repository root
SKATLIGA_API_RATE       API requests per client address, default 120/m
SKATLIGA_PROXIES        proxies that append to X-Forwarded-For, default 0
"""

import datetime
import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

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
    "skatliga",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

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
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "referee:dashboard"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "de"
LANGUAGES = [
    ("de", _("Deutsch")),
    ("en", _("Englisch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

# The API (skatliga/api): requests per client address, and how many proxies in front of the
# site append to X-Forwarded-For (0: the address is REMOTE_ADDR itself).
API_RATE = os.environ.get("SKATLIGA_API_RATE", "120/m").strip()
if not re.fullmatch(r"[1-9][0-9]*/[0-9]*(s|sec|m|min|h|hour|d|day)", API_RATE):
    raise ImproperlyConfigured(
        f"SKATLIGA_API_RATE must be requests per time, like 120/m or 5000/day, not {API_RATE!r}."
    )
_proxies = os.environ.get("SKATLIGA_PROXIES", "0").strip()
if not _proxies.isdigit():
    raise ImproperlyConfigured(f"SKATLIGA_PROXIES must be 0 or a whole number, not {_proxies!r}.")
NINJA_NUM_PROXIES = int(_proxies)

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 31_536_000
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
