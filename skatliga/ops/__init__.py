"""Running the site: the health check, security headers, start-up checks, backups and the
consistency check of the derived result rows."""
