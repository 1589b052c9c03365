"""Behind a reverse proxy, login throttling counts the client's address, not the proxy's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import django
django.setup()
from axes.helpers import get_client_ip_address
from django.test import RequestFactory
request = RequestFactory().get(
    "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.7"
)
print(get_client_ip_address(request))
"""


def client_address(proxies: str) -> str:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "skatliga.settings"}
    env["SKATLIGA_PROXY_COUNT"] = proxies
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_without_a_proxy_the_connection_address_counts():
    assert client_address("0") == "127.0.0.1"


def test_behind_one_proxy_the_address_it_added_counts():
    # The proxy appended the address it saw (198.51.100.7); what came before is the client's
    # own claim and is not trusted.
    assert client_address("1") == "198.51.100.7"


def test_a_bad_proxy_count_is_one_clear_line():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "skatliga.settings"}
    env["SKATLIGA_PROXY_COUNT"] = "zwei"
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "SKATLIGA_PROXY_COUNT must be a whole number" in result.stderr
