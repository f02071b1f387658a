"""The organiser's pages of players: the list (players) and one player's page (player)."""
