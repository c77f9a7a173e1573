"""The production server's settings: gunicorn reads this module (``--config python:scorekeeper.serving``).

``scorekeeper serve`` and ``make run`` start gunicorn with it; BIND, WORKERS and
THREADS in the environment change the defaults, ``--bind`` and ``--workers`` win
over both.
"""

import os
from pathlib import Path
from typing import Any

wsgi_app = "scorekeeper:create_app()"
bind = os.environ.get("BIND", "0.0.0.0:5000")
workers = int(os.environ.get("WORKERS", "2"))
threads = int(os.environ.get("THREADS", "4"))
# The schema is created once, before the workers fork.
preload_app = True
# Phones poll every second: keep their connections open between polls.
keepalive = 10
accesslog = "-" if os.environ.get("ACCESS_LOG") else None


def when_ready(server: Any) -> None:
    from .lan import phone_urls
    from .qr import qr_text

    app = server.app.wsgi()
    uri = app.config.get("SQLALCHEMY_DATABASE_URI")  # absent from the load benchmark's hello-world app
    if uri:
        print(f"\nData folder: {app.instance_path}\nDatabase: {database_name(uri, app.instance_path)}", flush=True)
    host, port = server.LISTENERS[0].sock.getsockname()[:2]  # the port bound, also when BIND asks for 0
    urls = phone_urls(host, port)
    print("\nHearts Scorekeeper is running. On the phones at this table, open:", flush=True)
    for url in urls:
        print(f"    {url}", flush=True)
    print(f"or scan this code:\n{qr_text(urls[0])}(Ctrl+C stops the server.)\n", flush=True)


def database_name(uri: str, instance: str) -> str:
    """The database as a host reads it: a SQLite file's full path, a server's URL without its password.

    >>> database_name("sqlite:///scorekeeper.sqlite", "/srv/hearts")
    '/srv/hearts/scorekeeper.sqlite'
    >>> database_name("postgresql+psycopg://ann:secret@db/hearts", "/srv/hearts")
    'postgresql+psycopg://ann:***@db/hearts'
    """
    from sqlalchemy.engine import make_url

    url = make_url(uri)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return str(Path(instance, url.database))  # Flask-SQLAlchemy reads a relative file in the instance folder
    return url.render_as_string(hide_password=True)
