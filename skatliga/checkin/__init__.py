"""Check-in at the door: the poster's link, the players' own check-in, the referee's desk."""
