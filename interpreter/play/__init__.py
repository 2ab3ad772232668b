"""Playing matches: the match loop (:mod:`.match`) and the bots (:mod:`.bots`)."""
