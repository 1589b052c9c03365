#!/usr/bin/env python3
"""Is the version a webmaster reads on /healthz one he can name?

    python3 .ci/version.py [VERSION]       (default: the version in pyproject.toml)

The newest heading of CHANGELOG.md is either a release, ``## 0.2.0 (2026-11-27)``, whose
version this must be and whose tag ``v0.2.0`` must exist, or ``## Unreleased``, and then the
version carries a pre-release suffix (``0.3.0.dev0``): the code between two releases never
calls itself a release. Exit status 1 with the reason otherwise. Standard library only.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRE_RELEASE = re.compile(r"\d+\.\d+\.\d+(?:(?:a|b|rc)\d+)?(?:\.dev\d+)?")
RELEASE = re.compile(r"\d+\.\d+\.\d+")


def newest_heading(changelog: str) -> str:
    for line in changelog.splitlines():
        if line.startswith("## "):
            return line[3:].strip()
    return ""


def problems(version: str, changelog: str, tag_exists: bool | None) -> list[str]:
    """What is wrong with ``version`` against the changelog; ``tag_exists`` None: not asked."""
    heading = newest_heading(changelog)
    if heading == "Unreleased":
        if RELEASE.fullmatch(version) or not PRE_RELEASE.fullmatch(version):
            return [
                f"CHANGELOG.md's newest heading is Unreleased, but the version {version!r} "
                "has no pre-release suffix (such as 0.3.0.dev0)"
            ]
        return []
    released = heading.split(" ", 1)[0]
    if released != version or not RELEASE.fullmatch(version):
        return [f"the version is {version!r}, CHANGELOG.md's newest heading {heading!r}"]
    if tag_exists is False:
        return [f"no tag v{version} for the release {version}: git tag -a v{version}"]
    return []


def tag_exists(version: str) -> bool:
    found = subprocess.run(
        ["git", "rev-parse", "-q", "--verify", f"refs/tags/v{version}"],
        cwd=ROOT,
        capture_output=True,
    )
    return found.returncode == 0


def main(argv: list[str]) -> int:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    version = argv[0] if argv else pyproject
    found = problems(version, (ROOT / "CHANGELOG.md").read_text(), tag_exists(version))
    if version != pyproject:
        found.insert(0, f"the version {version!r} is not pyproject.toml's {pyproject!r}")
    for problem in found:
        print(f"version: {problem}", file=sys.stderr)
    if not found:
        print(f"version {version}: {newest_heading((ROOT / 'CHANGELOG.md').read_text())}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
