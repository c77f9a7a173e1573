"""The production server: waitress, as `scorekeeper serve` and `make run` start it.

Waitress fits a server that the phones reach with nothing in front. Its main
thread reads every request whole (headers, then the body, a large one into a
temporary file) before one of the worker threads sees it: a phone, or an
attacker, sending a byte at a time holds a connection, never a thread, and the
threads only run the app. The request sent most, a following phone's poll of a
board that has not changed, is answered by the main thread itself (its 304,
one indexed query, no worker). One address holds a few dozen connections at most,
so that one client cannot take the 2,000 the server keeps open (connections.py
has waitress's parts as this server changes them). One process, no
fork and no signal handling, so the same command serves from Linux, macOS and
Windows.
"""

import errno
import logging
import socket
import sys
from typing import Any

from waitress.adjustments import Adjustments
from waitress.task import ThreadedTaskDispatcher

from .config import StartupError
from .connections import PER_ADDRESS, Server, Servers, Sockets
from .languages import gettext as _

# Open connections at most (each one a file descriptor); more wait in the kernel's queue. Every phone keeps one
# open while it follows a game (a poll a second): 300 tables of four phones hold 1,200.
CONNECTIONS = 2000
IDLE_SECONDS = 30  # a connection that sends nothing for this long is closed (the phones poll every second)
# Ports tried, from BIND's up, by a server the host gave no BIND: macOS 12 and later hold 5000 (AirPlay Receiver).
PORTS = 10
WSAEACCES, WSAEADDRINUSE = 10013, 10048  # Windows' errors for a port taken (winerror)


def server_settings(bind: str, threads: int, body_max: int | None, behind_proxy: bool) -> dict[str, Any]:
    """Waitress's settings: the same for the app and for the load benchmark's hello-world baseline.

    >>> settings = server_settings("0.0.0.0:5000", 8, 64 * 2**20, behind_proxy=False)
    >>> settings["listen"], settings["connection_limit"], settings["clear_untrusted_proxy_headers"]
    ('0.0.0.0:5000', 2000, True)
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


def in_use(failed: OSError, platform: str = sys.platform) -> bool:
    """Whether a bind failed because the port is taken.

    Windows says WSAEADDRINUSE, or WSAEACCES for a port another program holds exclusively (or that
    Windows keeps for itself, as Hyper-V does with ranges of ports).

    >>> in_use(OSError(errno.EADDRINUSE, "Address already in use")), in_use(OSError(errno.EACCES, "Permission denied"))
    (True, False)
    """
    return failed.errno == errno.EADDRINUSE or (
        platform == "win32" and getattr(failed, "winerror", None) in (WSAEACCES, WSAEADDRINUSE)
    )


class PortInUse(StartupError):
    """The port asked for is taken: the message names a port to try instead (``host``, ``port``)."""

    def __init__(self, bind: str, host: str, port: int) -> None:
        self.bind, self.host, self.port = bind, host, port
        super().__init__(_("%(bind)s is in use already (another server?): pick another port with --bind, e.g. "
                           "--bind %(host)s:%(port)d.", bind=bind, host=host, port=port))  # fmt: skip


def create_server(app: Any, settings: dict[str, Any], per_address: int | None) -> Any:
    """Waitress's own create_server, with ``Server`` for each address listened on."""
    adjustments = Adjustments(**settings)
    dispatcher = ThreadedTaskDispatcher()
    sockets = Sockets()
    servers: list[Server] = []
    try:
        for info in adjustments.listen:
            servers.append(Server(app, sockets, dispatcher=dispatcher, adj=adjustments, sockinfo=info))
    except OSError:
        for server in servers:  # the addresses bound already: free for another try
            server.close()
        raise
    room_for_connections(CONNECTIONS + 100)
    dispatcher.set_thread_count(adjustments.threads)  # once listening: a port in use leaves no thread behind
    for server in servers:
        server.per_address = per_address
    if len(servers) == 1:
        return servers[0]
    listening = [(server.effective_host, server.effective_port) for server in servers]
    return Servers(sockets, adjustments, listening, dispatcher, servers[-1].log_info)


def room_for_connections(files: int) -> None:
    """Let this process open ``files`` files where the system allows so many (Linux often starts a process at
    1,024, under CONNECTIONS); Windows has no such limit to raise."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = files if hard == resource.RLIM_INFINITY else min(files, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def listening_server(app: Any, settings: dict[str, Any], per_address: int | None = PER_ADDRESS, ports: int = 1) -> Any:
    """The server, listening already (so the banner's address answers); a StartupError when it cannot.

    ``per_address``: None behind a proxy, where every connection comes from the proxy's address.
    ``ports``: how many ports to try, from BIND's up, the first free one taken (for a host who chose none).
    """
    bind = settings["listen"]
    for tried in range(ports):
        try:
            return create_server(app, {**settings, "listen": on_port(bind, tried)}, per_address)
        except OSError as failed:
            if in_use(failed):
                if tried + 1 < ports and on_port(bind, tried + 1) != bind:
                    continue
                host, _colon, port = bind.split()[0].rpartition(":")
                raise PortInUse(bind, host, int(port) + tried + 1) from None
            if isinstance(failed, socket.gaierror) or failed.errno in (errno.EADDRNOTAVAIL, errno.EACCES):
                raise cannot_listen(bind, failed.strerror or str(failed)) from None
            raise
    raise AssertionError("ports is 1 or more")


def on_port(listen: str, later: int) -> str:
    """What waitress listens on, ``later`` ports up (where there is such a port; the system's pick stays its pick).

    >>> on_port("0.0.0.0:5000", 1), on_port("[::1]:5000 127.0.0.1:5000", 2), on_port("127.0.0.1:0", 1)
    ('0.0.0.0:5001', '[::1]:5002 127.0.0.1:5002', '127.0.0.1:0')
    """
    moved = []
    for address in listen.split():
        host, _colon, port = address.rpartition(":")
        moved.append(f"{host}:{int(port) + later}" if 0 < int(port) <= 65535 - later else address)
    return " ".join(moved)


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
