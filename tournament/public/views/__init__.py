"""The public pages: the standings, the projector and the files (standings), and a
round's results, a player's page, the final results and finding one's seat (pages)."""
