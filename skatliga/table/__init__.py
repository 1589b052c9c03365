"""Players keep their list at the table: table links (``/t/<token>/``) and short codes."""
