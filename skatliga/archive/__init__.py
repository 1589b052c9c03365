"""The tournament archive ``skatliga-archive/1``: load a document into the database, dump one.

:func:`load_archive` checks a parsed document completely before it writes anything
(``reading``): every problem is collected with the path of the offending value
(``series[1].tables[0].games[17].bid``) and a stable code, and :class:`ArchiveError` carries
them all. A valid document is written in one transaction (``writing``). Games are read and
written in the engine's game shape (``scoring.shape``) and scored once each by the engine,
through ``services``; ``dumping`` writes a tournament back as a document.
"""

from skatliga.archive.document import FORMAT, ArchiveError, ArchiveProblem
from skatliga.archive.dumping import dump_archive, game_json
from skatliga.archive.writing import load_archive

__all__ = ["FORMAT", "ArchiveError", "ArchiveProblem", "dump_archive", "game_json", "load_archive"]
