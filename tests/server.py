"""Start the real production server (gunicorn, as `make run` does) for a test."""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Server:
    base: str
    process: subprocess.Popen

    def kill(self) -> None:
        """SIGKILL the master and its workers at once, as a power cut would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)


@contextmanager
def running_server(database_url: str, workers: int = 2, threads: int = 4, extra_env: dict | None = None):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "server-test",
        "BIND": f"127.0.0.1:{port}",
        "WORKERS": str(workers),
        "THREADS": str(threads),
        **(extra_env or {}),
    }
    command = [sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py")]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            wait_until_up(base, process, log)
            yield Server(base, process)
        finally:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)


def wait_until_up(base: str, process: subprocess.Popen, log, seconds: float = 20, path: str = "/api/games") -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError("the server stopped: " + log.read().decode())
        try:
            urllib.request.urlopen(base + path, timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {seconds} s")


def call(method: str, url: str, body: object = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")
