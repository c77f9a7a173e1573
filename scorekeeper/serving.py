"""The production server: waitress, as `scorekeeper serve` and `make run` start it.

Waitress fits a server that the phones reach with nothing in front. Its main
thread reads every request whole (headers, then the body, a large one into a
temporary file) before one of the worker threads sees it: a phone, or an
attacker, sending a byte at a time holds a connection, never a thread, and the
threads only run the app. One process, no fork and no signal handling, so the
same command serves from Linux, macOS and Windows.
"""

import errno
import logging
import socket
from typing import Any

from waitress.server import create_server

from .config import StartupError

CONNECTIONS = 500  # open connections at most (each one a file descriptor); more wait in the kernel's queue
IDLE_SECONDS = 30  # a connection that sends nothing for this long is closed (the phones poll every second)


def server_settings(bind: str, threads: int, body_max: int | None, behind_proxy: bool) -> dict[str, Any]:
    """Waitress's settings: the same for the app and for the load benchmark's hello-world baseline.

    >>> settings = server_settings("0.0.0.0:5000", 8, 64 * 2**20, behind_proxy=False)
    >>> settings["listen"], settings["connection_limit"], settings["clear_untrusted_proxy_headers"]
    ('0.0.0.0:5000', 500, True)
    """
    return {
        "listen": bind,
        "threads": threads,
        "connection_limit": CONNECTIONS,
        "channel_timeout": IDLE_SECONDS,
        "cleanup_interval": 5,  # how often idle connections are looked for
        # poll() where the platform has it: select() stops at file descriptor 1024 (waitress falls back on Windows)
        "asyncore_use_poll": True,
        # A body past the largest the app takes is refused before it is read (Flask refuses it again, per page).
        **({"max_request_body_size": body_max} if body_max else {}),
        # X-Forwarded-* is the app's to read behind a proxy (werkzeug's ProxyFix); without one, nobody's.
        "clear_untrusted_proxy_headers": not behind_proxy,
        "ident": "scorekeeper",
    }


def listening_server(app: Any, settings: dict[str, Any]) -> Any:
    """The server, listening already (so the banner's address answers); a StartupError when it cannot."""
    bind = settings["listen"]
    try:
        return create_server(app, **settings)
    except OSError as failed:
        if failed.errno == errno.EADDRINUSE or getattr(failed, "winerror", None) == 10048:
            host, _, port = bind.rpartition(":")
            raise StartupError(f"{bind} is in use already (another server?): pick another port with --bind, "
                               f"e.g. --bind {host}:{int(port) + 1}.") from None  # fmt: skip
        if isinstance(failed, socket.gaierror) or failed.errno in (errno.EADDRNOTAVAIL, errno.EACCES):
            raise StartupError(f"Cannot listen on {bind} ({failed.strerror}): give --bind an address of this "
                               "machine and a port from 1024 up, e.g. --bind 0.0.0.0:5000.") from None  # fmt: skip
        raise
    except ValueError:
        raise StartupError(f"--bind (or BIND) wants HOST:PORT, e.g. 0.0.0.0:5000, not {bind!r}.") from None


def address(server: Any) -> tuple[str, int]:
    """The host and port the server bound (the port the system picked, when BIND asks for 0)."""
    host, port = server.effective_host, server.effective_port
    return str(host), int(port)


def run(server: Any) -> None:
    """Serve until Ctrl+C; waitress's warnings (a full queue, a connection limit reached) go to the log."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    server.run()
