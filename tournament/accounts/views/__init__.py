"""The account pages (login) and a tournament's Scorers page and invitations (scorers)."""
