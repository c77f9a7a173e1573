"""Where the server listens: BIND's addresses and port, the listening sockets, and what to say when a port is
taken or no address of this machine (serving.py makes the server on them)."""

import errno
import socket
import sys

from ..config import StartupError
from ..i18n.languages import gettext as _

# Ports tried, from BIND's up, by a server the host gave no BIND: macOS 12 and later hold 5000 (AirPlay Receiver).
PORTS = 10
WSAEACCES, WSAEADDRINUSE = 10013, 10048  # Windows' errors for a port taken (winerror)


def listening_options(platform: str) -> list[tuple[str, int]]:
    """The listening socket's options (their names in ``socket``), chosen so that a port in use is an error.

    Windows lets a second server bind a port in use, silently, when it sets SO_REUSEADDR: there the port is taken
    with SO_EXCLUSIVEADDRUSE instead. Elsewhere SO_REUSEADDR only lets a restarted server have its port back while
    its last connections close; a port in use stays refused.

    >>> listening_options("win32"), listening_options("linux"), listening_options("darwin")
    ([('SO_EXCLUSIVEADDRUSE', 1)], [('SO_REUSEADDR', 1)], [('SO_REUSEADDR', 1)])
    """
    return [("SO_EXCLUSIVEADDRUSE", 1)] if platform == "win32" else [("SO_REUSEADDR", 1)]


def listen_on(bind: str) -> str:
    """BIND as the server listens: every address its host names (``localhost``: 127.0.0.1 and ::1), on its port.

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


def bound(listen: str, platform: str, backlog: int) -> list[socket.socket]:
    """A listening socket for each ``HOST:PORT`` of ``listen``; all closed again when one cannot be bound."""
    sockets: list[socket.socket] = []
    try:
        for address in listen.split():
            host, _colon, port = address.rpartition(":")
            host = host.removeprefix("[").removesuffix("]")
            family = socket.AF_INET6 if ":" in host else socket.AF_INET
            # TCP named: asyncio sets TCP_NODELAY on the connections of a TCP socket alone, and without it an
            # answer sent in two writes waits 40 ms for the phone's delayed acknowledgement.
            sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
            sockets.append(sock)
            set_options(sock, platform)
            sock.bind((host, int(port)))
            sock.listen(backlog)
    except OSError:
        for sock in sockets:  # the addresses bound already: free for another try
            sock.close()
        raise
    return sockets


def set_options(sock: socket.socket, platform: str) -> None:
    """This platform's options for a listening socket; an IPv6 one takes IPv6 alone (127.0.0.1 is another's)."""
    for name, value in listening_options(platform):
        sock.setsockopt(socket.SOL_SOCKET, getattr(socket, name), value)
    if sock.family == socket.AF_INET6:
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)


def on_port(listen: str, later: int) -> str:
    """What the server listens on, ``later`` ports up (where there is such a port; the system's pick stays its pick).

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
