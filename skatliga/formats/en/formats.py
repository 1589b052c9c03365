"""English dates as Django writes them, times on the 24-hour clock as in German ("00:37",
not "12:37 a.m."): a tournament's evening reads the same in both languages."""

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "N j, Y, H:i"
SHORT_DATETIME_FORMAT = "m/d/Y H:i"
