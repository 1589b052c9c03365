"""A player's own link to his evening: where he sits, his standing, lists, signatures, money."""
