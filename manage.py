#!/usr/bin/env python3
import os
import sys
from pathlib import Path

ENV_FILE = Path(os.environ.get("SKATLIGA_ENV_FILE", "/etc/skatliga/env"))


def settings_left_out() -> str | None:
    """On a server whose settings file names a database, running without them would make and
    use a fresh SQLite file next to the code: say so instead."""
    if os.environ.get("DATABASE_URL"):
        return None
    try:
        lines = ENV_FILE.read_text().splitlines()
    except OSError:
        return None
    named = [line for line in lines if line.strip().startswith("DATABASE_URL=")]
    if not named or named[-1].split("=", 1)[1].strip().strip("'\"").startswith("sqlite"):
        return None
    return (
        f"manage.py: {ENV_FILE} names the site's database but DATABASE_URL is not set; "
        "run it as skatliga-manage …, which loads that file."
    )


def main() -> None:
    refusal = settings_left_out()
    if refusal:
        sys.exit(refusal)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skatliga.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
