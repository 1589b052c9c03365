"""Rosters, seasons and the team league.

Clubs, players (merging two records, importing a roster from CSV), seasons with their teams
and match days: the referee's pages are ``views`` under ``urls``; every save is a function of
``services``.

The team league (docs/rules.md section 11): the pure pairing table (``schedule``), who may
play for a team (``eligibility``), the use cases of a league's structure and rosters
(``structure``), of a division's schedule (``fixtures``) and of a group's match day, line-ups
and team links (``matchdays``); the official's pages (``official``), the captain's behind the
team link (``captain``, ``team_urls``) and the calendar feeds (``calendar``).
"""
