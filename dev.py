"""Run the site or the tests in a local virtual environment.

    python3 dev.py start [runserver args]   migrate, seed a demo league, serve on 127.0.0.1:8000,
                                            with the background task worker beside it
    python3 dev.py test [pytest args]       run the whole test suite
    python3 dev.py serve [gunicorn args]    the production server (gunicorn, debug off) on
                                            127.0.0.1:8000, over plain HTTP, to try it out;
                                            SKATLIGA_BIND=127.0.0.1:8001 picks another port

Each creates .venv when it is missing. ``start`` and ``serve`` install requirements.txt (what
the site needs) into it, ``test`` requirements-dev.txt too (tests and linters), whenever one
of them changed since its last install. Standard library only: it runs before anything is
installed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
RUNTIME = ROOT / "requirements.txt"
DEVELOPMENT = ROOT / "requirements-dev.txt"  # includes requirements.txt
STAMP = VENV / "requirements.sha256"

ADDRESS = "127.0.0.1:8000"
REFEREE_LOGIN = ("referee", "skat")
TOURNAMENT_MODEL = ("skatliga", "Tournament")

DEV_SECRET_KEY = ROOT / ".dev-secret-key"

USAGE = """usage: python3 dev.py start [runserver args]
       python3 dev.py test [pytest args]
       [SKATLIGA_BIND=127.0.0.1:PORT] python3 dev.py serve [gunicorn args]"""


class Failure(Exception):
    """An expected failure: reported as one line, without a traceback."""


def in_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def installed() -> dict[str, str]:
    """The requirement files installed into .venv, each with the hash it had then."""
    if not STAMP.exists():
        return {}
    return dict(line.split(" ", 1)[::-1] for line in STAMP.read_text().splitlines() if " " in line)


def ensure_venv(requirements: Path) -> None:
    """.venv with ``requirements`` (and the files it includes) installed as they are now."""
    if not VENV_PYTHON.exists():
        print(f"Creating {VENV.name} ...", flush=True)
        run_or_fail(
            [sys.executable, "-m", "venv", "--clear", str(VENV)],
            f"could not create the virtual environment {VENV}",
        )
    files = [RUNTIME] if requirements == RUNTIME else [RUNTIME, requirements]
    wanted = {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}
    done = installed()
    if all(done.get(name) == digest for name, digest in wanted.items()):
        return
    print(f"Installing {requirements.name} into {VENV.name} ...", flush=True)
    STAMP.unlink(missing_ok=True)
    run_or_fail(
        [str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "-r", str(requirements)],
        f"pip could not install {requirements.name}; see pip's messages above",
    )
    done.update(wanted)
    STAMP.write_text("".join(f"{digest} {name}\n" for name, digest in sorted(done.items())))


def run_or_fail(command: list[str], message: str) -> None:
    if subprocess.run(command, cwd=ROOT).returncode != 0:
        raise Failure(message)


def replace_process(command: list[str]) -> None:
    if os.name == "nt":
        sys.exit(subprocess.run(command, cwd=ROOT).returncode)
    os.execv(command[0], command)


def manage(*args: str) -> list[str]:
    return [sys.executable, str(ROOT / "manage.py"), *args]


def manage_output(*args: str) -> str:
    result = subprocess.run(manage(*args), cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise Failure(f"manage.py {' '.join(args)} failed")
    return result.stdout


def has_command(name: str) -> bool:
    return name in manage_output("help", "--commands").split()


def has_tournament() -> bool:
    app_label, model_name = TOURNAMENT_MODEL
    code = (
        "from django.apps import apps\n"
        "try:\n"
        f"    model = apps.get_model({app_label!r}, {model_name!r})\n"
        "except LookupError:\n"
        "    model = None\n"
        "print('yes' if model is not None and model.objects.exists() else 'no')\n"
    )
    lines = manage_output("shell", "--no-imports", "-c", code).split()
    return bool(lines) and lines[-1] == "yes"


def uses_dev_sqlite() -> bool:
    url = os.environ.get("DATABASE_URL", "").strip()
    return not url or url.startswith("sqlite")


def prepare_demo() -> tuple[str, str] | None:
    """Migrate and seed the demo league; the demo login on the local SQLite database."""
    run_or_fail(manage("migrate", "--no-input"), "manage.py migrate failed")
    if has_command("seed_demo") and not has_tournament():
        run_or_fail(manage("seed_demo"), "manage.py seed_demo failed")
    if uses_dev_sqlite():
        run_or_fail(manage("ensure_demo_referee"), "manage.py ensure_demo_referee failed")
        return REFEREE_LOGIN
    return None


def print_login(host_port: str, login: tuple[str, str] | None) -> None:
    print()
    print(f"skatliga runs at http://{host_port}/")
    if login:
        print(f"Referee login: {login[0]} / password {login[1]} (unless changed since)")
    else:
        print("Log in with an account of this database (manage.py createsuperuser makes one).")
    print(flush=True)


def start_task_worker() -> None:
    """The background task worker beside the development server, kept running by
    ``skatliga.tasks.keeper``, which ends with the server (``python -m skatliga.ops.serve``
    starts its own)."""
    subprocess.Popen([sys.executable, "-m", "skatliga.tasks.keeper"], cwd=ROOT)


def start(args: list[str]) -> int:
    login = prepare_demo()
    start_task_worker()
    addrport = next((arg for arg in args if not arg.startswith("-")), None)
    if addrport is None:
        addrport = ADDRESS
        args = [*args, addrport]
    host_port = addrport if ":" in addrport else f"127.0.0.1:{addrport}"
    print_login(host_port, login)
    replace_process(manage("runserver", *args))
    return 0


def dev_secret_key() -> str:
    """A strong secret key for trying the production settings, kept across runs."""
    if not DEV_SECRET_KEY.exists():
        import secrets

        DEV_SECRET_KEY.write_text(secrets.token_urlsafe(50) + "\n")
    return DEV_SECRET_KEY.read_text().strip()


def serve(args: list[str]) -> int:
    """The production start command (README, "Production") with local settings: debug off,
    plain HTTP on 127.0.0.1, the demo league."""
    login = prepare_demo()
    os.environ["SKATLIGA_DEBUG"] = "0"
    os.environ["SKATLIGA_HTTPS"] = "0"
    os.environ.setdefault("SKATLIGA_SECRET_KEY", dev_secret_key())
    os.environ.setdefault("SKATLIGA_ALLOWED_HOSTS", "127.0.0.1,localhost")
    os.environ.setdefault("SKATLIGA_BIND", ADDRESS)
    print_login(os.environ["SKATLIGA_BIND"], login)
    replace_process([sys.executable, "-m", "skatliga.ops.serve", *args])
    return 0


def test(args: list[str]) -> int:
    return subprocess.run([sys.executable, "-m", "pytest", *args], cwd=ROOT).returncode


COMMANDS = {"start": start, "test": test, "serve": serve}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    ensure_venv(DEVELOPMENT if argv[0] == "test" else RUNTIME)
    if not in_venv():
        replace_process([str(VENV_PYTHON), str(Path(__file__).resolve()), *argv])
    os.chdir(ROOT)
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Failure as failure:
        print(f"dev.py: {failure}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
