"""The `scorekeeper` command: serve, back up, restore, and look after the records."""

from ..i18n import click_words

click_words.speak()  # click's own words in the host's language too: before any command's options are made
