"""The baseline for scripts/bench_load.py: the smallest Flask app, on the same server."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello() -> str:
    return "Hello, table!"
