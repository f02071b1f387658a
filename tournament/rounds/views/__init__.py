"""The organiser's pages of rounds (rounds) and of a round's clock (clock)."""
