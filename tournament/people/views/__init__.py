"""The register's pages (register) and linking a tournament's players to it (players)."""
