"""The printouts: seating lists and score sheets (printouts) and the rules cards."""
