"""The production server: waitress, as `scorekeeper serve` and `make run` start it.

Waitress fits a server that the phones reach with nothing in front. Its main
thread reads every request whole (headers, then the body, a large one into a
temporary file) before one of the worker threads sees it: a phone, or an
attacker, sending a byte at a time holds a connection, never a thread, and the
threads only run the app. One address holds a few dozen connections at most,
so that one client cannot take the 500 the server keeps open. One process, no
fork and no signal handling, so the same command serves from Linux, macOS and
Windows.
"""

import errno
import logging
import socket
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from .config import StartupError
from .languages import gettext as _

CONNECTIONS = 500  # open connections at most (each one a file descriptor); more wait in the kernel's queue
# Open connections from one address at most: a browser keeps 6 to a server, a few phones behind one router
# (a guest network, a phone hotspot) a few dozen. Past it, the address's new connection is closed at once.
PER_ADDRESS = 32
IDLE_SECONDS = 30  # a connection that sends nothing for this long is closed (the phones poll every second)


def server_settings(bind: str, threads: int, body_max: int | None, behind_proxy: bool) -> dict[str, Any]:
    """Waitress's settings: the same for the app and for the load benchmark's hello-world baseline.

    >>> settings = server_settings("0.0.0.0:5000", 8, 64 * 2**20, behind_proxy=False)
    >>> settings["listen"], settings["connection_limit"], settings["clear_untrusted_proxy_headers"]
    ('0.0.0.0:5000', 500, True)
    """
    return {
        "listen": listen_on(bind),
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


def listen_on(bind: str) -> str:
    """BIND as waitress listens: every address its host names (``localhost``: 127.0.0.1 and ::1), on its port.

    >>> listen_on("127.0.0.1:5000"), listen_on("[::1]:0")
    ('127.0.0.1:5000', '[::1]:0')
    """
    host, port = host_and_port(bind)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as failed:
        raise cannot_listen(bind, str(failed)) from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if port == 0:
        addresses = addresses[:1]  # a port the system picks is picked per address: serve on one
    return " ".join(f"[{address}]:{port}" if ":" in address else f"{address}:{port}" for address in addresses)


def host_and_port(bind: str) -> tuple[str, int]:
    """BIND's one HOST:PORT, or a StartupError that says what is wrong with it.

    >>> host_and_port("0.0.0.0:5000"), host_and_port("[::1]:8000"), host_and_port("localhost:0")
    (('0.0.0.0', 5000), ('::1', 8000), ('localhost', 0))
    """
    if len(bind.split()) > 1:
        raise StartupError(_("--bind (or BIND) takes one HOST:PORT, not several (%(bind)s): to serve on every "
                             "address of this machine, give 0.0.0.0:5000.", bind=bind))  # fmt: skip
    host, colon, port = bind.strip().rpartition(":")
    bracketed = host.startswith("[") and host.endswith("]")
    if not colon or not host or not (port.isascii() and port.isdigit()) or (":" in host and not bracketed):
        raise StartupError(_("--bind (or BIND) wants HOST:PORT, e.g. 0.0.0.0:5000 (an IPv6 address in brackets: "
                             "[::1]:5000), not %(bind)s.", bind=repr(bind)))  # fmt: skip
    if int(port) > 65535:
        raise StartupError(_("The port in --bind (or BIND) goes from 1 to 65535, not %(port)s: e.g. %(host)s:5000.",
                             port=port, host=host))  # fmt: skip
    return host.removeprefix("[").removesuffix("]"), int(port)


class Server(TcpWSGIServer):  # type: ignore[misc]  # waitress ships no types
    """Waitress's server on one socket, with at most ``per_address`` connections open from one address."""

    per_address: int | None = PER_ADDRESS

    def accept(self) -> tuple[socket.socket, Any] | None:
        accepted: tuple[socket.socket, Any] | None = super().accept()
        if accepted is not None and self.per_address and self.open_from(accepted[1][0]) >= self.per_address:
            accepted[0].close()  # before waitress reads from it: the address's other connections go on
            return None
        return accepted

    def open_from(self, address: str) -> int:
        """The connections this address holds open now, on every socket of the server (they share one map)."""
        return sum(
            1 for channel in self._map.values() if isinstance(channel, HTTPChannel) and channel.addr[0] == address
        )


def create_server(app: Any, settings: dict[str, Any], per_address: int | None) -> Any:
    """Waitress's own create_server, with ``Server`` for each address listened on."""
    adjustments = Adjustments(**settings)
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adjustments.threads)
    sockets: dict[int, Any] = {}
    servers = [
        Server(app, sockets, dispatcher=dispatcher, adj=adjustments, sockinfo=info) for info in adjustments.listen
    ]
    for server in servers:
        server.per_address = per_address
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return MultiSocketServer(sockets, adjustments, listening, dispatcher, servers[-1].log_info)


def listening_server(app: Any, settings: dict[str, Any], per_address: int | None = PER_ADDRESS) -> Any:
    """The server, listening already (so the banner's address answers); a StartupError when it cannot.

    ``per_address``: None behind a proxy, where every connection comes from the proxy's address.
    """
    bind = settings["listen"]
    try:
        return create_server(app, settings, per_address)
    except OSError as failed:
        if failed.errno == errno.EADDRINUSE or getattr(failed, "winerror", None) == 10048:
            host, _colon, port = bind.split()[0].rpartition(":")
            in_use = _("%(bind)s is in use already (another server?): pick another port with --bind, e.g. --bind "
                       "%(host)s:%(port)d.", bind=bind, host=host, port=int(port) + 1)  # fmt: skip
            raise StartupError(in_use) from None
        if isinstance(failed, socket.gaierror) or failed.errno in (errno.EADDRNOTAVAIL, errno.EACCES):
            raise cannot_listen(bind, failed.strerror or str(failed)) from None
        raise


def cannot_listen(bind: str, why: str) -> StartupError:
    return StartupError(_("Cannot listen on %(bind)s (%(why)s): give --bind an address of this machine and a port "
                          "from 1024 up, e.g. --bind 0.0.0.0:5000.", bind=bind, why=why))  # fmt: skip


def addresses(server: Any) -> list[tuple[str, int]]:
    """The hosts and ports the server bound (the port the system picked, when BIND asks for 0)."""
    listening = getattr(server, "effective_listen", None) or [(server.effective_host, server.effective_port)]
    return [(str(host), int(port)) for host, port in listening]


def run(server: Any) -> None:
    """Serve until Ctrl+C; waitress's warnings (a full queue, a connection limit reached) go to the log."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    server.run()
