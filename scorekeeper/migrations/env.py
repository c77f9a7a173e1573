"""Alembic's environment: run the migrations on the app's database.

No logging set-up here (unlike Alembic's template): the app and its server keep theirs.
"""

from alembic import context
from flask import current_app

db = current_app.extensions["migrate"].db


def run_migrations_online() -> None:
    with db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch migrations copy a table and drop the old one; with foreign keys on, dropping the
            # games table would delete every player and hand. (The pragma only works outside a transaction.)
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(
            connection=connection,
            target_metadata=db.metadata,
            render_as_batch=True,  # SQLite changes tables by copying them
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


if context.is_offline_mode():
    raise SystemExit("Offline migrations are not supported: run them against the database.")
run_migrations_online()
