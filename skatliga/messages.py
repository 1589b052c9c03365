"""The one place that turns error codes into words: engine, services, forms and archive.

The engine and the services raise stable snake_case codes; forms, views and the JSON
preview show them through :func:`message`, in the user's language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrPromise

import scoring

MESSAGES: dict[str, StrPromise] = {
    # The engine's and the command line's (``scoring.messages``), their words in German there.
    **{code: _(words) for code, words in scoring.WORDS.items()},
    # The services.
    "declarer_missing": _("Der Alleinspieler fehlt."),
    "list_closed": _("Die Liste ist abgeschlossen; zum Korrigieren erst wieder öffnen."),
    "list_not_closed": _("Die Liste ist nicht abgeschlossen."),
    "list_incomplete": _(
        "Die Liste ist noch nicht vollständig: %(expected)s Spiele müssen eingetragen sein."
    ),
    "game_number_invalid": _("Diese Spielnummer gibt es auf der Liste nicht."),
    "game_number_gap": _("Erst die Spiele davor eintragen."),
    "only_last_game_deleted": _("Nur das letzte Spiel der Liste kann gelöscht werden."),
    "conflict": _(
        "Dieses Spiel wurde inzwischen von jemand anderem gespeichert. Ihre Eingaben sind "
        "erhalten; erneutes Speichern überschreibt die aktuelle Zeile."
    ),
    "conflict_deleted": _(
        "Dieses Spiel wurde inzwischen gelöscht. Ihre Eingaben sind erhalten; "
        "Speichern trägt es neu ein."
    ),
    "reason_required": _("Bitte einen Grund angeben."),
    "seat_unknown": _("Auf diesem Platz sitzt an diesem Tisch niemand."),
    "seat_code_missing": _("Bitte den Sitzcode des Platzes eingeben (auf der Tischkarte)."),
    "seat_code_wrong": _(
        "Der Sitzcode stimmt nicht. Bitte den Code des eigenen Platzes auf der Tischkarte eingeben."
    ),
    "seat_code_limited": _(
        "Zu viele falsche Sitzcodes für diesen Platz von diesem Gerät: der nächste Versuch "
        "hier in %(seconds)s s. Auf einem anderen Gerät (der Tischlink auf dem eigenen "
        "Telefon) gilt der richtige Code sofort, oder die Turnierleitung bestätigt."
    ),
    "list_changed": _(
        "Die Liste wurde inzwischen geändert. Bitte die aktuelle Liste ansehen und dann "
        "unterschreiben."
    ),
    "unsigned_reason_required": _(
        "Die Liste ist nicht von allen unterschrieben (%(signed)s von %(seats)s): zum "
        "Abschließen bitte einen Grund angeben."
    ),
    "double_entry_off": _("Dieses Turnier hat keine doppelte Erfassung."),
    "entries_differ": _(
        "Erst- und Zweiteingabe stimmen nicht überein (Spiel %(games)s): erst angleichen "
        "oder je Zeile eine Fassung mit Grund wählen."
    ),
    "entry_choice_invalid": _("Bitte die Erst- oder die Zweiteingabe wählen."),
    "second_entry_missing": _("Für dieses Spiel gibt es keine Zweiteingabe."),
    "first_entry_missing": _("Dieses Spiel steht noch nicht auf der Liste."),
    "series_already_published": _("Diese Serie ist schon veröffentlicht."),
    "series_not_published": _("Diese Serie ist nicht veröffentlicht."),
    "series_without_tables": _("Diese Serie hat noch keine Tische."),
    "series_lists_open": _("Erst alle Listen der Serie abschließen: %(count)s noch offen."),
    "series_published": _(
        "Die Serie ist veröffentlicht; zum Korrigieren erst die Veröffentlichung zurückziehen."
    ),
    "players_cannot_be_seated": _(
        "%(players)s Spieler lassen sich nicht an Dreier- und Vierertische setzen "
        "(einen Fünfertisch gibt es nur mit klassischer oder Nullsummen-Liste)."
    ),
    "teammates_cannot_be_separated": _(
        "Mannschaftskameraden lassen sich nicht auf verschiedene Tische verteilen."
    ),
    "series_started": _("Die Serie hat schon begonnen; Plätze können nicht mehr getauscht werden."),
    "same_seat": _("Zwei verschiedene Plätze wählen."),
    "series_drawn": _("Nach der ersten Auslosung können keine Spieler mehr entfernt werden."),
    "player_has_results": _("Der Spieler hat schon gespielt und bleibt erhalten."),
    "draw_method_unknown": _("Unbekannte Art der Auslosung."),
    "lists_open": _(
        "Nicht abgeschlossene Listen der bisherigen Serien: %(open)s. Die nächste Serie "
        "trotzdem auslosen?"
    ),
    "settings_invalidate_games": _(
        "Mit diesen Einstellungen wären erfasste Spiele oder Listen ungültig (%(count)s); "
        "nichts wurde geändert. Erst diese Spiele korrigieren oder die Listen wieder öffnen:"
    ),
    "game_beyond_rounds": _("Mehr Spiele erfasst, als die Liste mit diesen Runden hat."),
    "closed_list_incomplete": _(
        "Die Liste ist abgeschlossen, wäre mit diesen Runden aber unvollständig."
    ),
    "user_unknown": _("Einen aktiven Benutzer „%(username)s“ gibt es nicht."),
    "user_already_referee": _("%(username)s leitet dieses Turnier schon."),
    "not_a_referee": _("Dieser Benutzer leitet das Turnier nicht."),
    "last_referee": _(
        "Der letzte Turnierleiter kann nicht entfernt werden; erst einen weiteren eintragen."
    ),
    "tournament_without_season": _(
        "Das Turnier gehört zu keiner Saison; Mannschaften gibt es nur in einer Saison."
    ),
    "club_name_missing": _("Der Name des Vereins fehlt."),
    "club_name_taken": _("Einen Verein dieses Namens gibt es schon."),
    "player_name_missing": _("Der Name des Spielers fehlt."),
    "player_number_taken": _("Die Mitgliedsnummer %(number)s hat schon ein anderer Spieler."),
    "category_unknown": _("Diese Kategorie gibt es nicht."),
    "merge_same_player": _("Zum Zusammenführen zwei verschiedene Spieler wählen."),
    "players_share_tournament": _(
        "Beide Spieler haben im selben Turnier gespielt (%(tournament)s); sie sind nicht "
        "dieselbe Person."
    ),
    "roster_too_many_fields": _(
        "Mehr als vier Felder: Name; Verein; Mitgliedsnummer; nur Initialen."
    ),
    "roster_initials_invalid": _("Nur Initialen: „ja“ oder „nein“ (oder leer)."),
    "number_known": _("Mitgliedsnummer schon vergeben"),
    "name_and_club_known": _("Name und Verein schon bekannt"),
    "repeated_in_file": _("doppelt in der Datei"),
    "season_name_missing": _("Der Name der Saison fehlt."),
    "prize_invalid": _("Kein Preis: „%(prize)s“ (ein Betrag wie 20,00 oder ein Anteil wie 30%%)."),
    "amount_negative": _("Beträge dürfen nicht negativ sein."),
    "ranking_unknown": _("Diese Wertung gibt es nicht."),
    "match_points_unknown": _("Diese Mannschaftswertung gibt es nicht."),
    "ranking_series_invalid": _("Serien: 1 bis 99."),
    "player_already_withdrawn": _("Diese Anmeldung ist schon zurückgezogen."),
    "player_at_open_table": _(
        "%(player)s sitzt an einer noch offenen Liste: erst die Liste abschließen."
    ),
    "player_unknown": _("Keinen Spieler mit dieser Mitgliedsnummer oder Nr. gefunden."),
    "players_unknown": _("Nicht (eindeutig) gefunden: %(names)s."),
    "roster_csv_empty": _("Eine CSV-Datei wählen oder Zeilen einfügen."),
    "roster_too_large": _("Die Datei ist zu groß (höchstens 2 MB)."),
    "season_year_invalid": _("Kein gültiges Jahr."),
    "team_name_missing": _("Der Name der Mannschaft fehlt."),
    "team_name_taken": _("Eine Mannschaft dieses Namens gibt es in der Saison schon."),
    "team_not_in_season": _("Diese Mannschaft gehört nicht zur Saison des Turniers."),
    "registration_not_in_tournament": _("Dieser Spieler ist im Turnier nicht eingetragen."),
    "seat_invalid": _("Diesen Platz gibt es an diesem Tisch nicht."),
    "substitute_missing": _("Einen Ersatzspieler wählen oder seinen Namen eingeben."),
    "substitute_seated": _(
        "%(player)s spielt in dieser Serie schon (Tisch %(table)s) und kann nicht einspringen."
    ),
    "substitute_game_out_of_range": _(
        "Ab Spiel: von Spiel 2 bis zum letzten Spiel der Liste (%(last)s)."
    ),
    "substitute_seat_invalid": _("diesen Platz gibt es an diesem Tisch nicht"),
    "substitute_seat_taken": _("für diesen Platz ist schon ein Ersatzspieler angegeben"),
    "same_player": _("Zwei verschiedene Spieler wählen."),
    "pair_already_apart": _("Diese beiden werden schon getrennt."),
    # Check-in at the door.
    "search_too_short": _("Mindestens zwei Buchstaben des Namens."),
    "fee_unknown": _("Diese Zahlungsart gibt es nicht."),
    "checkin_too_many_requests": _(
        "Zu viele falsche Links von dieser Adresse; bitte in einer Stunde wieder versuchen."
    ),
    "checkin_searches_limited": _(
        "Zu viele Suchen ohne Treffer von hier. Bitte an der Turnierleitung einchecken "
        "(oder in %(minutes)s Min. wieder suchen)."
    ),
    "checkin_claims_limited": _(
        "Zu viele Check-ins von hier. Bitte an der Turnierleitung einchecken "
        "(oder in %(minutes)s Min. wieder versuchen)."
    ),
    "checkin_player_unknown": _("Diesen Spieler gibt es hier nicht. Bitte neu suchen."),
    "checkin_claimed_often": _(
        "Dieser Spieler ist schon mehrmals gemeldet. Bitte an der Turnierleitung einchecken."
    ),
    "name_invalid": _("Name und Verein dürfen keine Steuerzeichen enthalten."),
    "claim_decided": _("Über diesen Check-in hat die Turnierleitung schon entschieden."),
    # The archive: a document's shape, its players, seats and games.
    "not_a_list": _("muss eine Liste sein"),
    "too_long": _("zu lang (höchstens %(most)s Zeichen)"),
    "empty": _("darf nicht leer sein"),
    "invalid_characters": _("enthält unzulässige Zeichen"),
    "unknown_format": _("unbekanntes Format, erwartet wird „skatliga-archive/1“"),
    "invalid_date": _("kein Datum der Form JJJJ-MM-TT"),
    "invalid_time": _("keine Uhrzeit der Form HH:MM"),
    "invalid_moment": _("kein Zeitpunkt der Form JJJJ-MM-TTTHH:MM:SS+00:00"),
    "objection_minutes_out_of_range": _("Einspruchsfrist: 0 bis 120 Minuten"),
    "unknown_call_reason": _("unbekannter Grund eines Rufs"),
    "call_open_twice": _("ein Tisch hat höchstens einen offenen Ruf"),
    "objection_game_unknown": _("kein Spiel dieser Liste"),
    "objection_decision_invalid": _(
        "Entscheidung: „kept“ oder „corrected“, zusammen mit „decided_at“"
    ),
    "objection_open_twice": _("höchstens ein offener Einspruch je Spiel und Platz"),
    "unknown_scoring": _("unbekannte Listenwertung"),
    "rounds_out_of_range": _("Runden pro Serie: 1 bis 30"),
    "duplicate_player_id": _("diese Spieler-ID kommt schon vor"),
    "duplicate_player": _("derselbe Spieler wie %(other)s"),
    "unknown_player": _("kein Spieler dieser Datei"),
    "series_number_invalid": _("Seriennummer: eine ganze Zahl ab 1"),
    "series_number_taken": _("diese Seriennummer kommt schon vor"),
    "table_number_invalid": _("Tischnummer: eine ganze Zahl ab 1"),
    "table_number_taken": _("diese Tischnummer kommt in der Serie schon vor"),
    "player_already_seated": _("sitzt in dieser Serie schon an Tisch %(table)s"),
    "too_many_games": _("%(count)s Spiele, eine Liste dieses Tisches hat höchstens %(most)s"),
    "already_imported": _(
        "dieses Turnier (gleicher Name, gleiches Datum, gleicher Ort) ist schon importiert "
        "(%(slug)s); zum erneuten Import „Trotzdem noch einmal importieren“ wählen"
    ),
    # The forms.
    "game_missing": _("Spiel wählen."),
    "bid_missing": _("Reizwert fehlt."),
    "passed_with_declaration": _(
        "Eingepasst und doch ein Spiel angegeben: bitte den Alleinspieler wählen oder die "
        "übrigen Felder leeren."
    ),
    "referee_version_stands": _(
        "Die Turnierleitung hat dieses Spiel zuletzt geändert: ihre Fassung gilt. Die Fassung "
        "des Tisches liegt ihr zur Entscheidung vor."
    ),
    "no_dispute": _("Zu diesem Spiel liegt keine Fassung des Tisches vor."),
    "call_reason_unknown": _("Bitte einen Grund für den Ruf wählen."),
    "seat_not_at_table": _("Dieser Platz gehört nicht zu diesem Tisch."),
    "objection_reason_too_long": _("Der Grund ist zu lang (höchstens %(most)s Zeichen)."),
    "objection_window_closed": _(
        "Die Einspruchsfrist ist abgelaufen: die Ergebnisse der Serie sind endgültig."
    ),
    "objection_decided": _("Über diesen Einspruch ist schon entschieden."),
    "signatures_would_clear": _(
        "Die Liste ist unterschrieben: Speichern löscht alle Unterschriften. Zum Bestätigen "
        "noch einmal speichern."
    ),
    "not_a_number": _("Bitte eine ganze Zahl eingeben."),
    "notation_invalid": _(
        "Kurzeingabe nicht verstanden bei „%(part)s“. So geht es: Alleinspieler, Spiel, "
        "Spitzen, Hand, Augen, z. B. 2 k 1 h 61."
    ),
    "matadors_differ_from_cards": _("Die Spitzen passen nicht zu den Karten."),
    "roster_empty": _("Mindestens einen Namen eingeben."),
    "archive_not_json": _("Die Datei ist kein JSON-Dokument."),
    "archive_too_large": _("Die Datei ist zu groß."),
    "archive_too_deep": _("Die Datei ist zu tief verschachtelt."),
    # Background jobs.
    "unexpected": _(
        "Ein unerwarteter Fehler; nichts wurde gespeichert. Das Protokoll des "
        "Hintergrunddienstes nennt ihn."
    ),
    "name_too_long": _("Zeile %(line)s: der Name ist zu lang (höchstens %(most)s Zeichen)."),
    "club_too_long": _("Zeile %(line)s: der Verein ist zu lang (höchstens %(most)s Zeichen)."),
    # The team league (docs/rules.md section 11).
    "league_name_missing": _("Der Name der Liga fehlt."),
    "league_name_taken": _("Eine Liga dieses Namens gibt es schon."),
    "level_name_missing": _("Der Name der Spielklasse fehlt."),
    "level_series_invalid": _("Eine Spielklasse spielt 2, 3 oder 4 Serien je Spieltag."),
    "level_players_invalid": _("Spieler je Serie: 1 bis 8, mindestens höchstens so viele."),
    "level_not_in_league": _("Diese Spielklasse gehört nicht zur Liga der Saison."),
    "division_name_missing": _("Der Name der Staffel fehlt."),
    "division_name_taken": _("Eine Staffel dieses Namens gibt es in der Spielklasse schon."),
    "team_without_division": _("Diese Mannschaft spielt in keiner Staffel."),
    "season_without_league": _("Diese Saison gehört zu keiner Liga."),
    "season_year_not_later": _("Die neue Saison muss in einem späteren Jahr liegen."),
    "team_up_and_down": _("Eine Mannschaft kann nicht zugleich auf- und absteigen."),
    "player_twice_on_roster": _("Ein Spieler steht zweimal im Kader."),
    "captain_not_on_roster": _("Der Mannschaftsführer %(player)s steht nicht im Kader."),
    "transfer_same_day": _("Für diesen Tag ist schon ein Vereinswechsel eingetragen."),
    "player_category_not_allowed": _(
        "%(player)s darf hier nicht spielen: in dieser Liga spielen nur %(category)s."
    ),
    "player_in_other_team": _(
        "%(player)s spielt in dieser Saison und Spielklasse schon für %(team)s: ein Spieler "
        "spielt je Saison und Spielklasse für eine Mannschaft."
    ),
    "player_other_club_this_year": _(
        "%(player)s hat %(year)s schon für %(club)s gespielt oder steht dort im Kader: ein "
        "Spieler spielt je Kalenderjahr für einen Verein."
    ),
    "player_not_in_club": _(
        "%(player)s gehört am %(day)s nicht zu %(club)s (siehe seine Vereinswechsel)."
    ),
    "schedule_needs_dates": _("Mindestens ein Datum für die Spieltage angeben."),
    "schedule_started": _("Der Spielplan wird schon gespielt: neu erzeugen geht nicht mehr."),
    "schedule_too_few_teams": _("Eine Staffel braucht mindestens drei Mannschaften."),
    "schedule_empty": _("Es gibt noch keinen Spielplan zum Veröffentlichen."),
    "team_not_in_match_day": _("Diese Mannschaften spielen an diesem Spieltag nicht."),
    "teams_in_same_group": _("Die beiden Mannschaften sind schon in derselben Gruppe."),
    "group_set_up": _("Der Spieltag dieser Gruppe ist schon angelegt."),
    "group_not_set_up": _("Der Spieltag dieser Gruppe ist noch nicht angelegt."),
    "host_not_in_group": _("Gastgeber ist eine Mannschaft der Gruppe."),
    "team_not_in_group": _("%(team)s spielt nicht in dieser Gruppe."),
    "series_out_of_range": _("Serie %(series)s: diese Spielklasse spielt %(most)s Serien."),
    "line_up_series_drawn": _("Serie %(series)s ist schon ausgelost: ihre Aufstellung steht fest."),
    "player_twice_in_line_up": _("Ein Spieler steht zweimal in der Aufstellung."),
    "line_up_too_few": _("Mindestens %(least)s Spieler aufstellen."),
    "line_up_too_many": _("Höchstens %(most)s Spieler aufstellen."),
    "player_not_on_roster": _("%(player)s steht nicht im Kader der Mannschaft."),
    "line_up_too_many_substitutes": _("Höchstens %(most)s Ersatzspieler je Serie."),
    "line_ups_missing": _("Für Serie %(series)s fehlt noch die Aufstellung von %(teams)s."),
    "report_written": _("Der Spielbericht dieser Gruppe ist schon geschrieben."),
    "match_day_not_complete": _(
        "Der Spieltag ist noch nicht vollständig: es fehlt eine Serie oder eine Liste ist offen."
    ),
    "report_answered": _("Die Mannschaft hat den Spielbericht schon beantwortet."),
    "objection_needs_reason": _("Ein Einspruch braucht eine Begründung."),
    "report_binding": _("Der Spielbericht ist verbindlich: nur der Staffelleiter ändert ihn."),
    "objection_not_open": _("Über diesen Einspruch ist schon entschieden."),
    "decision_needs_reason": _("Bitte die Gründe angeben."),
    "report_released": _("Der Spielbericht ist schon freigegeben."),
    "objection_open": _("Erst über den offenen Einspruch entscheiden."),
    "fine_decided": _("Über diese Strafe ist schon entschieden."),
    "withdrawal_decided": _("Über diesen Rückzug ist schon entschieden."),
    "fine_needs_reason": _("Eine Strafe braucht eine Begründung."),
    "amount_invalid": _("Der Betrag muss größer als null sein."),
    "team_barred": _("%(team)s ist wegen einer unbezahlten Strafe für diesen Spieltag gesperrt."),
    "team_code_unknown": _(
        "Diesen Code gibt es nicht (oder nicht mehr). Bitte beim Staffelleiter nachfragen."
    ),
    # The API.
    "api_not_found": _("Nicht gefunden (oder noch nicht veröffentlicht)."),
    "api_invalid_parameters": _("Ungültige Parameter in der Anfrage."),
    "api_invalid_value": _("ungültiger Wert für %(field)s"),
    "api_too_many_requests": _(
        "Zu viele Anfragen von dieser Adresse; bitte in %(seconds)s Sekunden wieder versuchen."
    ),
    "api_method_not_allowed": _("Die API beantwortet nur GET, HEAD und OPTIONS."),
    "api_server_error": _("Interner Fehler; er wurde protokolliert."),
}

UNKNOWN = _("Fehler: %(code)s")


def message(code: str, **params: Any) -> str:
    """The message for ``code`` in the active language, with ``params`` filled in."""
    template = MESSAGES.get(code)
    if template is None:
        return str(UNKNOWN) % {"code": code}
    text = str(template)
    if "%(" not in text:
        return text
    try:
        return text % params
    except (KeyError, ValueError, TypeError):
        return text


def problem_message(problem: scoring.Problem) -> str:
    """The message for one problem the engine or a service found."""
    return message(problem.code)


SUBSTITUTE_ACTIONS = ("substitute_appointed", "substitute_removed")
"""The changes whose before and after are a seat taken over (``describe_substitute``)."""


def describe_substitute(data: Any, names: Any = None) -> str:
    """A seat taken over, as a change stores it, in words:
    "Platz 2: ab Spiel 10 Emil für Bernd"."""
    if not isinstance(data, dict):
        return "—"
    return str(_("Platz %(seat)s: ab Spiel %(number)s %(name)s für %(player)s")) % {
        "seat": data.get("seat"),
        "number": data.get("from_game"),
        "name": (data.get("substitute") or {}).get("name", ""),
        "player": (data.get("player") or {}).get("name", ""),
    }


DRAW_METHODS: dict[str, StrPromise] = {
    "lot": _("per Los"),
    "standings": _("nach dem Tabellenstand gesetzt"),
    "standings_spread": _("nach dem Tabellenstand gesetzt, die Stärksten verteilt"),
    "rating": _("nach Wertungszahl gesetzt"),
    "rating_spread": _("nach Wertungszahl gesetzt, die Stärksten verteilt"),
}
"""The words for each way to draw (``services.seating.DRAW_METHODS``): the draw form's
choices and the change log's (``change_log``)."""
