"""Small helpers of the suite: card and suit names in the game's language."""
