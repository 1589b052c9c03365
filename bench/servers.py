"""Past one machine: several app servers behind one proxy, sharing PostgreSQL and Redis.

:func:`start_redis` starts Debian's ``redis-server`` on a port of its own (no disk, no
other clients), :func:`start_proxy` Debian's nginx in front of the app servers (round
robin, as a federation's proxy would spread them), each with its own temporary directory;
:func:`stop` ends what they started. ``bench/evening.py --servers 2`` uses them; the
documentation is docs/scaling.md.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def wait_for_port(port: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def start_redis(port: int, workdir: Path) -> subprocess.Popen[bytes]:
    """``redis-server`` on 127.0.0.1:``port``, in memory only, for this run alone."""
    workdir.mkdir(parents=True, exist_ok=True)
    server = subprocess.Popen(
        [
            REDIS,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ],
        stdout=(workdir / "redis.log").open("w"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    wait_for_port(port)
    return server


PROXY_CONFIG = """\
pid {workdir}/nginx.pid;
error_log {workdir}/error.log;
worker_processes 1;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {workdir}/body;
    proxy_temp_path {workdir}/proxy;
    fastcgi_temp_path {workdir}/fastcgi;
    uwsgi_temp_path {workdir}/uwsgi;
    scgi_temp_path {workdir}/scgi;
    upstream skatliga {{
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://skatliga;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""


def start_proxy(port: int, upstreams: list[str], workdir: Path) -> subprocess.Popen[bytes]:
    """nginx on 127.0.0.1:``port``, spreading requests over ``upstreams`` (host:port each)."""
    workdir.mkdir(parents=True, exist_ok=True)
    servers = "\n".join(f"        server {upstream};" for upstream in upstreams)
    config = workdir / "nginx.conf"
    config.write_text(PROXY_CONFIG.format(workdir=workdir, servers=servers, port=port))
    subprocess.run([NGINX, "-t", "-q", "-c", str(config), "-p", str(workdir)], check=True)
    proxy = subprocess.Popen(
        [NGINX, "-c", str(config), "-p", str(workdir), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=(workdir / "nginx.log").open("w"),  # noqa: SIM115
        start_new_session=True,
    )
    wait_for_port(port)
    return proxy


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a process started here (and its children) and wait for it."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
