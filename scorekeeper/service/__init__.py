"""The service layer: games stored in the database, changed and read through the rules.

Below it: the rules core (``scorekeeper.rules``, pure) and the rows (``models``).
Above it: the pages and the API (``views``), the ``scorekeeper`` command (``main``).
Nothing here imports Flask's request or a view.
"""
