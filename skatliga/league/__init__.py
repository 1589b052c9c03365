"""Rosters and seasons: clubs, players (merging two records, importing a roster from CSV),
seasons with their teams and match days. The referee's pages are ``views`` under
``urls``; every save is a function of ``services``."""
