"""The static files' storage (``skatliga.ops.static``): a brotli and a gzip copy beside each
hashed file, written once and kept by the next start; no copies of plain names or of source
maps."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import brotli
from django.core.files.storage import FileSystemStorage

from skatliga.ops.static import StaticFilesStorage

CSS = b"body { color: #222; }\n" + b".table td { padding: 0.25rem 0.5rem; }\n" * 500


def collect(source: Path, target: Path) -> tuple[StaticFilesStorage, list[tuple[str, str]]]:
    """What ``collectstatic`` does with the files of ``source``: copy, hash, compress."""
    found = FileSystemStorage(location=source)
    storage = StaticFilesStorage(location=target, base_url="/static/")
    names = sorted(str(path.relative_to(source)) for path in source.rglob("*") if path.is_file())
    for name in names:
        if storage.exists(name):
            storage.delete(name)
        with found.open(name) as f:
            storage.save(name, f)
    processed = list(storage.post_process({name: (found, name) for name in names}))
    assert not [p for p in processed if isinstance(p[2], Exception)]
    return storage, [(name, hashed) for name, hashed, _ in processed]


def test_a_hashed_file_gets_a_brotli_and_a_gzip_copy_a_plain_name_none(tmp_path):
    source = tmp_path / "source"
    (source / "app").mkdir(parents=True)
    (source / "app" / "site.css").write_bytes(CSS)
    (source / "app" / "bundle.js.map").write_bytes(b'{"mappings": "' + b"AAAA," * 5000 + b'"}')

    storage, _ = collect(source, tmp_path / "static")

    hashed = Path(storage.path(storage.stored_name("app/site.css")))
    assert hashed.name != "site.css"
    assert brotli.decompress(hashed.with_name(hashed.name + ".br").read_bytes()) == CSS
    assert gzip.decompress(hashed.with_name(hashed.name + ".gz").read_bytes()) == CSS
    written = sorted(p.name for p in (tmp_path / "static" / "app").iterdir())
    assert [n for n in written if n.endswith((".br", ".gz"))] == [
        hashed.name + ".br",
        hashed.name + ".gz",
    ]


def test_the_next_start_keeps_the_copies_and_adds_a_missing_brotli_one(tmp_path):
    source = tmp_path / "source"
    (source / "app").mkdir(parents=True)
    (source / "app" / "site.css").write_bytes(CSS)
    storage, _ = collect(source, tmp_path / "static")
    hashed = Path(storage.path(storage.stored_name("app/site.css")))
    br, gz = hashed.with_name(hashed.name + ".br"), hashed.with_name(hashed.name + ".gz")
    os.utime(gz, (1_000_000, 1_000_000))
    os.utime(br, (1_000_000, 1_000_000))

    _, processed = collect(source, tmp_path / "static")

    assert (br.stat().st_mtime, gz.stat().st_mtime) == (1_000_000, 1_000_000)
    assert (f"app/{hashed.name}", f"app/{br.name}") in processed
    br.unlink()  # a copy from before brotli was installed: gzip only
    collect(source, tmp_path / "static")
    assert brotli.decompress(br.read_bytes()) == CSS
