"""The baseline for scripts/bench_load.py: the smallest Flask app, on the server and settings of `scorekeeper serve`.

BIND=127.0.0.1:0 python scripts/hello_app.py
"""

import os

from flask import Flask

from scorekeeper import config
from scorekeeper.cli.lan import url
from scorekeeper.server import serving

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "Hello, table!"


if __name__ == "__main__":
    bind = os.environ.get("BIND", "127.0.0.1:0")
    server = serving.listening_server(app, bind, config.THREADS)
    print(f"Listening on {url(*server.addresses()[0])}", flush=True)
    serving.run(server)
