"""Date and time formats where Django's differ from what the site writes
(``FORMAT_MODULE_PATH``)."""
