"""Start the real production server (`scorekeeper serve`, as `make run` does) for a test."""

import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scorekeeper.server.serving import listening_server

ROOT = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-m", "scorekeeper.cli.main", "serve"]
SECRET = "server-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc"


@dataclass
class Server:
    base: str
    process: subprocess.Popen
    log: Any

    def said(self) -> str:
        """What the server printed so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        """Kill the server at once, as a power cut would."""
        self.process.kill()
        self.process.wait(timeout=10)


@contextmanager
def serving(command: list[str], cwd: Path = ROOT, env: dict | None = None, path: str = "/api/games"):
    """A server started by ``command`` on a port the system picks, once it announces it and answers ``path``."""
    env = {**os.environ, "BIND": "127.0.0.1:0", **(env or {})}  # a test may ask for a port again
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = wait_until_up(process, log, path)
            yield Server(base, process, log)
        finally:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)


@contextmanager
def running_server(database_url: str, threads: int | None = None, extra_env: dict | None = None, before=()):
    """The app as `make run` serves it (its THREADS unless told), on ``database_url``, with a data folder of its own;
    ``before``: a command it runs under (``taskset -c 0``).

    It is up once it answers the rule book, a page every server has, open to many groups or not."""
    with tempfile.TemporaryDirectory() as data:
        env = {
            "SCOREKEEPER_INSTANCE": data,
            "DATABASE_URL": database_url,
            "SECRET_KEY": SECRET,
            **({"THREADS": str(threads)} if threads else {}),
            **(extra_env or {}),
        }
        with serving([*before, *SERVE], env=env, path="/rules") as server:
            yield server


@contextmanager
def started_at_once(database_url: str, count: int, extra_env: dict | None = None, binds: list[str] | None = None):
    """``count`` servers of an open server on one database, each its own data folder and port (of ``binds``, else
    one the system picks), started in the same instant, as a service manager starts them."""
    with ExitStack() as stack:
        launched = []
        for bind in binds or ["127.0.0.1:0"] * count:
            data = stack.enter_context(tempfile.TemporaryDirectory())
            log = stack.enter_context(tempfile.TemporaryFile())
            env = {**os.environ, "SCOREKEEPER_INSTANCE": data, "DATABASE_URL": database_url, "SECRET_KEY": SECRET,
                   "SCOREKEEPER_GROUPS": "open", "BIND": bind, **(extra_env or {})}  # fmt: skip
            launched.append((subprocess.Popen(SERVE, env=env, stdout=log, stderr=subprocess.STDOUT), log))
        try:
            yield [Server(wait_until_up(process, log, "/rules", seconds=60), process, log) for process, log in launched]
        finally:
            for process, _ in launched:
                process.terminate()
            for process, _ in launched:
                process.wait(timeout=20)


def wait_until_up(process: subprocess.Popen, log, path: str, seconds: float = 60, starting: float = 900) -> str:
    """The server's address, once it has said where it listens and answers there.

    Whatever comes first (a block of the README installs the app) may take minutes on a busy machine: the
    server has ``starting`` seconds to say where it listens, as a cap on a hang, then ``seconds`` to answer.
    """
    said_by, answer_by = time.monotonic() + starting, None
    while True:
        log.seek(0)
        output = log.read().decode(errors="replace")
        if process.poll() is not None:
            raise RuntimeError("the server stopped: " + output)
        listening = re.search(r"Listening on (http://127\.0\.0\.1:\d+)", output)
        if listening:
            answer_by = answer_by or time.monotonic() + seconds
            try:
                urllib.request.urlopen(listening.group(1) + path, timeout=1).close()
                return listening.group(1)
            except OSError:
                pass
        if answer_by is not None and time.monotonic() > answer_by:
            raise RuntimeError(f"the server did not answer within {seconds} s of saying where it listens")
        if answer_by is None and time.monotonic() > said_by:
            raise RuntimeError(f"the server did not say where it listens within {starting} s: " + output[-2000:])
        time.sleep(0.1)


def call(method: str, url: str, body: object = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


@contextmanager
def served_here(app, threads=2):
    """The production server in this process (a thread of its own), for a test that sets its limits small: its
    base URL."""
    with running_here(app, threads) as server:
        yield f"http://127.0.0.1:{server.addresses()[0][1]}"


@contextmanager
def running_here(app, threads=2):
    """The production server in this process, running: a test may look at its ASGI entry
    (``server.server.config.app``)."""
    server = listening_server(app, "127.0.0.1:0", threads)
    running = threading.Thread(target=server.run)
    running.start()
    try:
        yield server
    finally:
        server.stop()
        running.join()


def status_from(base: str, address: str, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> int:  # fmt: skip
    """A request to the server at ``base`` from ``address`` (any of 127/8 is this machine), its answer read whole:
    its status."""
    where = urlsplit(base)
    phone = http.client.HTTPConnection(where.hostname, where.port, timeout=30, source_address=(address, 0))
    with closing(phone):
        phone.request(method, path, body, headers or {})
        answer = phone.getresponse()
        answer.read()
        return answer.status
