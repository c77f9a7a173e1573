"""Alembic's environment: run the migrations on the app's database.

No logging set-up here (unlike Alembic's template): the app and gunicorn keep theirs.
"""

from alembic import context
from flask import current_app

db = current_app.extensions["migrate"].db


def run_migrations_online() -> None:
    with db.engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=db.metadata,
            render_as_batch=True,  # SQLite changes tables by copying them
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("Offline migrations are not supported: run them against the database.")
run_migrations_online()
