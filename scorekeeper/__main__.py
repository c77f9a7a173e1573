"""`python -m scorekeeper`: the command where no `scorekeeper` is on PATH (Windows' `py -m scorekeeper serve`, a venv
not activated)."""

from .cli.main import main

if __name__ == "__main__":  # not when pytest imports the module for its doctests
    main()
