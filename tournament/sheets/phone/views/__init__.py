"""The pages a phone opens at the table with the table code: the code and the table's page,
one deal, the review, a player who left, and the blind confirmation."""
