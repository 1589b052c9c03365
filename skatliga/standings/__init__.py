"""Standings: the queries that rank players and teams (``queries``) and the django-tables2
tables that show them on the pages and in the spreadsheets (``tables``)."""
