"""The `scorekeeper` command: serve, back up, restore, and look after the records."""
