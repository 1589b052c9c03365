"""The static files as the start command collects them: hashed names, each with a brotli
(``.br``) and a gzip (``.gz``) copy beside it that whitenoise serves to browsers that accept
them, within the few seconds ``collectstatic`` may take on every start.

Brotli at its best quality (11) is slow on large files, and whitenoise compresses every file
twice (its plain and its hashed name) on every run. Measured on two shared cores with
``collectstatic`` of all 333 files (Django's admin, django-ninja's API docs, ours): gzip only
12.8 s; whitenoise with brotli 281 s, of which the API docs' source maps (11 MB) and their
bundles (2.4 MB) took nearly all: 37-43 s for one 3.2 MB map at quality 11, 0.8-1.5 s at 5.
This storage takes 8.5 s on the first start and 2.4 s on every later one, because it

- compresses the hashed names only: pages link nothing else, and a plain name is still
  served, uncompressed;
- keeps the copies a previous run wrote beside a hashed name (its content is in the name),
  so a restart compresses nothing it compressed before (a file with only its ``.gz``, from
  before brotli was installed, is compressed again);
- skips source maps, which only a browser's developer tools fetch;
- uses brotli's quality 11 up to :data:`BEST_QUALITY_UP_TO` (every file of ours), and
  :data:`LARGE_QUALITY` above: about 12 % larger than quality 11 would make them, 5-10 %
  smaller than gzip, and 10 to 40 times faster.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

try:
    import brotli
except ImportError:  # pragma: no cover  (then gzip only, as whitenoise does)
    brotli = None

BEST_QUALITY_UP_TO = 64 * 1024
"""Files up to this many bytes get brotli's best quality (11)."""

LARGE_QUALITY = 5
"""Brotli's quality for larger files: the API docs' bundles, the admin's jQuery."""

SUFFIXES = (".br", ".gz") if brotli is not None else (".gz",)
"""The copies a hashed file gets where compressing pays (whitenoise: 5 % smaller at least)."""


class QuickCompressor(Compressor):  # type: ignore[misc]  # whitenoise has no types
    """whitenoise's compressor with brotli's quality by size, no source maps, and its copies
    written whole or not at all (a killed start leaves no half-written ``.br``)."""

    SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

    def __init__(self, extensions: Iterable[str] | None = None, **kwargs: Any) -> None:
        super().__init__(extensions=extensions or self.SKIP_COMPRESS_EXTENSIONS, **kwargs)

    @staticmethod
    def compress_brotli(data: bytes) -> bytes:
        quality = 11 if len(data) <= BEST_QUALITY_UP_TO else LARGE_QUALITY
        compressed: bytes = brotli.compress(data, quality=quality)
        return compressed

    def write_data(self, path: str, data: bytes, suffix: str, stat_result: Any) -> str:
        filename = path + suffix
        partial = f"{filename}.part"
        with open(partial, "wb") as f:
            f.write(data)
        os.utime(partial, (stat_result.st_atime, stat_result.st_mtime))
        os.replace(partial, filename)
        return filename


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """whitenoise's hashed, compressed storage, compressing each hashed file once."""

    def create_compressor(self, **kwargs: Any) -> QuickCompressor:
        return QuickCompressor(**kwargs)

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        hashed = set(self.hashed_files.values())
        fresh = []
        for path in paths:
            if path not in hashed:
                continue
            done = [path + suffix for suffix in SUFFIXES]
            if all(self.exists(name) for name in done):
                yield from ((path, name) for name in done)
            else:
                fresh.append(path)
        yield from super().compress_files(fresh)
