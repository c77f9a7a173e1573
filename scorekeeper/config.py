"""The host's settings, and the one error that stops the app before it serves anything."""


class StartupError(Exception):
    """A setting, the data folder or the database keeps the app from starting.

    The message is one line for the host: what is wrong, where, and what to do.
    The ``scorekeeper`` command prints it and exits non-zero, without a traceback.
    """
