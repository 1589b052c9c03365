"""Rosters, seasons and the team league: the pages.

Clubs, players (merging two records, importing a roster from CSV), seasons with their teams
and match days: the referee's pages are ``views`` under ``urls``; every save is a function of
``services.rosters``.

The team league (docs/rules.md section 11): the official's pages (``official``), the
captain's behind the team link (``captain``, ``team_urls``) and the calendar feeds
(``calendar``). Their use cases are in ``skatliga.services``: who may play for a team
(``eligibility``), a league's structure and rosters (``leagues``), a division's schedule
(``fixtures``, over the pure pairing table ``scoring.schedule``) and a group's match day,
line-ups and team links (``matchdays``).
"""
