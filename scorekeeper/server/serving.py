"""The production server: uvicorn, as `scorekeeper serve` and `make run` start it, through what it documents.

uvicorn reads each connection in one event loop: a phone, or an attacker, sending a byte at a time holds a
connection, never a thread. The app's pages run on worker threads once their request is whole (reading.py reads the
body first); a phone following a game holds a stream that waits in the loop and is told each change (news.py).
Each connection must send its headers within seconds, in a few kilobytes (watched.py), and one address holds 256
connections at most (connections.py): the phones of a household, or of a club behind one router, are one address,
and stay below it. Behind a proxy every connection is the proxy's: there, the proxy keeps each address to its share.
One process, no fork, so the same command serves from Linux, macOS and Windows.
"""

import errno
import logging
import socket
import sys
from dataclasses import dataclass
from typing import Any

import uvicorn

from . import connections, loop_errors, watched
from .asgi import Entry
from .listening import PortInUse, bound, cannot_listen, in_use, listen_on, on_port

# Open connections at most (each one a file descriptor): past it, a new request is answered 503. Every phone that
# follows a game holds one: 300 tables of four phones hold 1,200, and a laptop's tabs a few each. More than 32
# addresses' shares (connections.PER_ADDRESS each) and the KEPT: a crowd of 32 addresses never fills it.
CONNECTIONS = 10_000
# Connections the system keeps waiting for the server to take them (nginx's own number). The loop takes as many at
# once, each a file before it can be refused, and it closes a refused one two turns later: a burst of new connections
# holds up to three times as many files at once (twenty-fourth and twenty-fifth probes).
BACKLOG = 511
OTHER_FILES = 200  # the database's, the log's, the listening sockets
# Files a process keeps spare besides its connections' two each.
SPARE_FILES = 3 * BACKLOG + OTHER_FILES
IDLE_SECONDS = 30  # a kept-alive connection that sends nothing for this long is closed
STOPPING_SECONDS = 5  # on Ctrl+C, what is under way (a save) has this long; the follow streams end at once


@dataclass
class Server:
    """uvicorn's server for the app, and the sockets it listens on: bound already, so the banner's address answers."""

    server: uvicorn.Server
    sockets: list[socket.socket]

    def addresses(self) -> list[tuple[str, int]]:
        """The hosts and ports bound (the port the system picked, when BIND asks for 0)."""
        return [(str(sock.getsockname()[0]), int(sock.getsockname()[1])) for sock in self.sockets]

    def run(self) -> None:
        """Serve until Ctrl+C, or until ``stop``."""
        self.server.run(sockets=self.sockets)

    def stop(self) -> None:
        """From another thread: end ``run`` as Ctrl+C would."""
        self.server.should_exit = True

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


def create_server(app: Any, listen: str, threads: int, platform: str = sys.platform) -> Server:
    """The app's server, on a socket for each address ``listen`` names."""
    files = room_for_connections(2 * CONNECTIONS + SPARE_FILES)
    most, backlog = connections_within(files), backlog_within(files)
    sockets = bound(listen, platform, backlog)
    behind_proxy = bool(app.config.get("BEHIND_PROXY"))
    held = connections.Connections(None) if behind_proxy else connections.Connections(connections.PER_ADDRESS, most)
    entry = Entry(app, threads, held)
    config = uvicorn.Config(
        entry,
        # uvicorn's own protocol, each connection watched (its address's share, its headers' deadline)
        http=watched.protocol(held),
        h11_max_incomplete_event_size=watched.HEADERS_MOST,
        ws="none",  # the app takes no websocket; an upgrade would take the connection from the watch
        lifespan="on",
        # X-Forwarded-* is the app's to read behind a proxy (werkzeug's ProxyFix); without one, nobody's.
        proxy_headers=False,
        server_header=False,
        access_log=False,
        log_config=None,
        log_level="warning",
        # uvicorn's own limit answers every request 503 once it is reached: without a proxy, ours alone, which closes
        # a waiting connection for a new one (connections.py)
        limit_concurrency=most if behind_proxy else None,
        backlog=backlog,
        timeout_keep_alive=IDLE_SECONDS,
        timeout_graceful_shutdown=STOPPING_SECONDS,
    )
    server = uvicorn.Server(config)
    loop_errors.hush_uvicorn()
    entry.stopping = lambda: bool(server.should_exit)  # the follow streams end as the server stops
    return Server(server, sockets)


def connections_within(files: int) -> int:
    """The connections a process that may open ``files`` files keeps at most: each may hold a second file, its
    request's body on disk (reading.py), and SPARE_FILES are for the rest. Past its files, the process could neither
    take a connection nor keep a body: every group's requests failed (twenty-third probe).

    A process that may open few keeps half of them spare.

    >>> connections_within(2 * CONNECTIONS + SPARE_FILES), connections_within(20_000), connections_within(1_024)
    (10000, 9133, 256)
    """
    return min(CONNECTIONS, (files - spare_files(files)) // 2)


def backlog_within(files: int) -> int:
    """The connections waiting to be taken that a process that may open ``files`` files keeps: three times as many
    fit in its spare files, beside the rest.

    >>> backlog_within(20_000), backlog_within(1_024), backlog_within(512)
    (511, 104, 18)
    """
    return max(1, min(BACKLOG, (spare_files(files) - OTHER_FILES) // 3))


def spare_files(files: int) -> int:
    return min(SPARE_FILES, files // 2)


def room_for_connections(files: int) -> int:
    """Let this process open ``files`` files where the system allows so many (Linux often starts a process at
    1,024, under CONNECTIONS); Windows has no such limit to raise. How many it may open, of ``files``."""
    try:
        import resource
    except ImportError:
        return files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = files if hard == resource.RLIM_INFINITY else min(files, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        soft = wanted
    return files if soft == resource.RLIM_INFINITY else min(files, soft)


def listening_server(app: Any, bind: str, threads: int, ports: int = 1) -> Server:
    """The server, listening already on ``bind``; a StartupError when it cannot.

    ``ports``: how many ports to try, from BIND's up, the first free one taken (for a host who chose none).
    """
    listen = listen_on(bind)
    for tried in range(ports):
        try:
            return create_server(app, on_port(listen, tried), threads)
        except OSError as failed:
            if in_use(failed):
                if tried + 1 < ports and on_port(listen, tried + 1) != listen:
                    continue
                host, _colon, port = listen.split()[0].rpartition(":")
                raise PortInUse(listen, host, int(port) + tried + 1) from None
            if isinstance(failed, socket.gaierror) or failed.errno in (errno.EADDRNOTAVAIL, errno.EACCES):
                raise cannot_listen(listen, failed.strerror or str(failed)) from None
            raise
    raise AssertionError("ports is 1 or more")


def run(server: Server) -> None:
    """Serve until Ctrl+C; the server's warnings (a connection limit reached) go to the log."""
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    server.run()
