"""The read-only JSON API under ``/api/v1/`` (django-ninja): open data for club websites,
federations and statisticians.

Every number comes from the same querysets and services as the public pages
(``ListResult.objects…standings()``, ``skatliga.standings.queries``, the sheet built through
``services.list_rows``); only published series are in it.
"""
