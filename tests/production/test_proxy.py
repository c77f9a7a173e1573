"""The internet setup of docs/open-server.md, for real: Debian's nginx with the page's own configuration in front of
two `scorekeeper serve` processes on one PostgreSQL database.

The configuration is read from the page itself (its nginx blocks), with this machine's ports and a certificate of
the test's own filled in, so the page and what runs cannot drift apart.
"""

import http.client
import json
import os
import re
import resource
import select
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path
from typing import IO

import pytest

from conftest import missing
from server import ROOT, started_at_once

pytestmark = pytest.mark.server

DOCS = ROOT / "docs" / "open-server.md"
SITE = "hearts.example.org"
HANDS = [([4, 0, 9, 0], 1), ([0, 13, 0, 0], 1), ([3, 3, 3, 4], 0)]
SLOW_ADDRESSES, SLOW_EACH = 70, 30  # 2,100 connections that never finish their headers, as the probe held
ONE_ADDRESS = 150  # a club's Wi-Fi behind one router, every phone following the game
JOURNAL = "unix:/dev/log"  # where the page's nginx writes its lines: the system's journal
SOCKET = "unix:/run/nginx-scorekeeper.sock"  # where the page's stream listener hands each connection to the site
PLAIN_SOCKET = "unix:/run/nginx-scorekeeper-http.sock"  # and each of port 80, to the site's plain-HTTP half
STREAM_MODULE = Path("/usr/lib/nginx/modules/ngx_stream_module.so")  # where libnginx-mod-stream puts it
TEMPORARY = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")  # nginx's folders for what it keeps on disk


def nginx_blocks() -> dict[str, str]:
    """The page's nginx blocks by what they are: nginx.conf's (its main level's, with ``events``, and its ``http``
    block's), and the site's."""
    blocks = re.findall(r"```nginx\n(.*?)```", DOCS.read_text(), re.DOTALL)
    main = [block for block in blocks if "events {" in block]
    http = [block for block in blocks if block.startswith("access_log ")]
    site = [block for block in blocks if "upstream scorekeeper" in block]
    assert len(main) == len(http) == len(site) == 1, "docs/open-server.md should hold nginx.conf's two and a site"
    return {"main": main[0], "http": http[0], "site": site[0]}


def nginx_config(folder: Path, ports: tuple[int, int], upstreams: list[str], workers: str = "auto") -> str:
    """nginx.conf for an instance of nginx of this test's own (its prefix, its log file, its ports, its sockets, its
    ``workers``), around the page's blocks with only this machine's ports, sockets and a certificate of the test's own
    filled in (``ports``: for 443 and 80), and Debian's stream module loaded as its package does."""
    blocks = nginx_blocks()
    main = blocks["main"].replace("listen 443;", f"listen 127.0.0.1:{ports[0]};")
    main = main.replace("listen 80;", f"listen 127.0.0.1:{ports[1]};")
    main, site = (block.replace(SOCKET, f"unix:{folder / 'site.sock'}") for block in (main, blocks["site"]))
    main, site = (block.replace(PLAIN_SOCKET, f"unix:{folder / 'plain.sock'}") for block in (main, site))
    journal_here = f"unix:{folder / 'journal.sock'}"
    main, http, site = (block.replace(JOURNAL, journal_here) for block in (main, blocks["http"], site))
    assert "proxy_protocol on;" in main and f"listen unix:{folder / 'site.sock'} ssl proxy_protocol;" in site
    site = site.replace("root /var/www/html;", f"root {folder / 'www'};")  # where certbot puts its challenges
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {folder / 'cert.pem'};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {folder / 'key.pem'};", site)
    for documented, running in zip(("127.0.0.1:5001", "127.0.0.1:5002"), upstreams, strict=True):
        assert documented in site
        site = site.replace(documented, running)
    temporary = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in TEMPORARY)
    return (f"load_module {stream_module()};\ndaemon off;\npid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} notice;\nworker_processes {workers};\n{main}\n"
            f"http {{\n{temporary}\n{http}\n{site}\n}}\n")  # fmt: skip


def stream_module() -> Path:
    """Debian's stream module, which the page's stream listener needs."""
    if not STREAM_MODULE.exists():
        missing("no nginx stream module: install it with `apt-get install libnginx-mod-stream` to run the proxy's test")
    return STREAM_MODULE


def free_port() -> int:
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def need(name: str) -> str:
    """A program the test runs."""
    found = shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + "/usr/sbin")
    if not found:
        missing(f"no {name}: install it with `apt-get install {name}` to run the proxy's test")
    return found


@contextmanager
def nginx_in_front(folder: Path, upstreams: list[str], workers: str = "auto"):
    """The page's nginx on a free port, once it answers there; its error log said on failure."""
    port, _plain = nginx_set_up(folder, upstreams, workers)
    with journal(folder), nginx_running(folder, port):
        yield port


@contextmanager
def journal(folder: Path):
    """The system's journal as nginx sees it, at a socket of this test's own: what it was told since the last call."""
    path = folder / "journal.sock"
    with closing(socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)) as listening:
        listening.bind(str(path))
        path.chmod(0o666)  # nginx's workers write to it as nobody when the test runs as root
        listening.setblocking(False)

        def told() -> str:
            lines = []
            while True:
                try:
                    lines.append(listening.recv(65536).decode(errors="replace"))
                except BlockingIOError:
                    return "\n".join(lines)

        yield told


def nginx_set_up(folder: Path, upstreams: list[str], workers: str) -> tuple[int, int]:
    """``folder`` made ready for the page's nginx (its configuration, certificate and folders); the ports it takes,
    for 443 and for 80."""
    subprocess.run([need("openssl"), "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "1", "-subj", f"/CN={SITE}", "-keyout", str(folder / "key.pem"),
                    "-out", str(folder / "cert.pem")], check=True, capture_output=True)  # fmt: skip
    folder.chmod(0o711)  # its workers run as nobody when the test runs as root: they pass through to their folders
    for kind in TEMPORARY:
        (folder / kind).mkdir()
        (folder / kind).chmod(0o777)
    ports = free_port(), free_port()
    while ports[1] == ports[0]:
        ports = ports[0], free_port()
    (folder / "nginx.conf").write_text(nginx_config(folder, ports, upstreams, workers))
    return ports


@contextmanager
def nginx_running(folder: Path, port: int, stderr: IO[bytes] | None = None):
    """nginx as ``folder`` has it set up, once it answers on ``port``: its master, the leader of a session of its own
    with its workers. With ``stderr``, its standard error goes there, and nginx is started as Debian's systemd unit
    starts it, with the error log it was built with (its standard error) unless its configuration names one."""
    command = [need("nginx"), "-p", str(folder), "-c", str(folder / "nginx.conf")]
    if stderr is None:
        command[3:3] = ["-e", str(folder / "error.log")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr or subprocess.STDOUT,
                               start_new_session=True)  # fmt: skip
    try:
        answered_at(port, process, folder)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=20)


def answered_at(port: int, process: subprocess.Popen, folder: Path) -> None:
    """Wait until nginx answers a request on ``port``, whatever it says (or fail with what its log says): it takes
    connections on its port while it still tries to take its socket."""
    while process.poll() is None:
        try:
            Phone(port, "127.0.0.1").ask("GET", "/rules")
            return
        except (ConnectionError, ssl.SSLError):
            process_wait(process)
    log = (folder / "error.log").read_text() if (folder / "error.log").exists() else ""
    raise RuntimeError(f"nginx stopped: {log}")


def process_wait(process: subprocess.Popen) -> None:
    """A short wait on the process itself: it stops (and the caller reads why), or it goes on starting."""
    try:
        process.wait(timeout=0.05)
    except subprocess.TimeoutExpired:
        pass


TLS = ssl.create_default_context()
TLS.check_hostname, TLS.verify_mode = False, ssl.CERT_NONE  # the test's own certificate


class Phone:
    """A phone at ``address`` (a loopback address of its own), talking to the site through the proxy."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address

    def ask(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=30, context=TLS,
                                                 source_address=(self.address, 0))  # fmt: skip
        try:
            connection.request(method, path, body=body, headers={"Host": SITE, **(headers or {})})
            answer = connection.getresponse()
            return answer.status, answer.headers, answer.read()
        finally:
            connection.close()

    def json(self, method: str, path: str, body: object = None):
        data = None if body is None else json.dumps(body).encode()
        status, _headers, said = self.ask(method, path, data, {"Content-Type": "application/json"})
        return status, json.loads(said or b"null")

    def connect(self) -> ssl.SSLSocket:
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=30, source_address=(self.address, 0))
        return TLS.wrap_socket(raw, server_hostname=SITE)


BEHIND = {"SCOREKEEPER_BEHIND_PROXY": "1", "SCOREKEEPER_HOSTS": SITE}  # as docs/hosting.md#https has it


def on_postgresql(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the internet setup runs on PostgreSQL (DATABASE_URL), as docs/open-server.md has it")


@pytest.fixture
def proxied(empty_database_url):
    """The page's setup on this machine: nginx on a free port, two processes on one PostgreSQL behind it."""
    on_postgresql(empty_database_url)
    with ExitStack() as stack:
        servers = stack.enter_context(started_at_once(empty_database_url, 2, BEHIND))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        upstreams = [server.base.removeprefix("http://") for server in servers]
        yield stack.enter_context(nginx_in_front(folder, upstreams))


def table_plays(port: int) -> tuple[str, int]:
    """Four phones at a table, each its own address: a group, a game, three hands each from another phone (nginx
    sends each to either process), the board each phone follows; the group's key and the game's id."""
    phones = [Phone(port, f"127.0.0.{n}") for n in range(2, 6)]
    status, group = phones[0].json("POST", "/api/groups", {"name": "Thursday"})
    assert status == 201 and group["url"] == f"https://{SITE}/g/{group['key']}/", group
    key = group["key"]
    status, game = phones[1].json("POST", f"/g/{key}/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
    assert status == 201, game
    for number, (hearts, queen) in enumerate(HANDS, start=1):
        body = {"hearts": hearts, "queen": queen, "number": number, **({"moon_option": "add"} if 13 in hearts else {})}
        status, game = phones[number % 4].json("POST", f"/g/{key}/api/games/{game['id']}/hands", body)
        assert status == 201, game
    assert game["totals"] == [46, 16, 38, 30]
    board = f"/g/{key}/games/{game['id']}/follow/board"
    status, headers, _said = phones[3].ask("GET", board)
    assert status == 200
    assert phones[2].ask("GET", board, headers={"If-None-Match": headers["ETag"]})[0] == 304
    return key, game["id"]


def test_a_table_plays_through_the_proxy_and_two_processes(proxied):
    table_plays(proxied)


def test_a_process_the_proxy_found_down_is_served_as_soon_as_it_is_up(empty_database_url):
    """Twenty-fifth probe: nginx counted a process that had refused one connection (not started yet, or restarting)
    as down for 10 s, and then let one request at a time try it again. While that one waited for its answer (an
    attacker's export, waiting its turn), the process stayed down, and with both down every phone was answered 502
    ("no live upstreams") for as long as the attack lasted. The page's upstream counts no failures."""
    on_postgresql(empty_database_url)
    binds = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    with tempfile.TemporaryDirectory() as folder, nginx_in_front(Path(folder), binds, workers="1") as port:
        phone = Phone(port, "127.0.6.1")
        assert phone.ask("GET", "/rules")[0] == 502  # neither is up: nginx found both refusing
        with started_at_once(empty_database_url, 2, BEHIND, binds):
            status, _headers, page = phone.ask("GET", "/rules")
            assert status == 200 and b"Passing and dealing" in page


def test_an_address_s_connections_past_its_share_are_closed_before_their_handshake(empty_database_url):
    """Twenty-sixth probe, N1: the site's limit counts requests, so connections that never finish their TLS handshake
    were counted by nothing per address, and nginx held each for 10 s: about 6,600 new ones a second from 32
    addresses filled it, and new phones failed. The page's stream listener counts connections as they come: one
    address's past its share is closed at once, while its first ones are held and another address's phone is served.
    (One worker, so that nginx takes them in the order they come.)"""
    on_postgresql(empty_database_url)
    with ExitStack() as stack:
        servers = stack.enter_context(started_at_once(empty_database_url, 2, BEHIND))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        upstreams = [server.base.removeprefix("http://") for server in servers]
        port = stack.enter_context(nginx_in_front(folder, upstreams, workers="1"))
        crowd = share_held(stack, port, "127.0.7.1")
        assert not [held for held in crowd if closed(held, wait=0)], "the address's first connections were closed"
        status, _headers, page = Phone(port, "127.0.7.2").ask("GET", "/rules")
        assert status == 200 and b"Passing and dealing" in page


def test_port_80_sends_a_phone_to_https_and_counts_with_443():
    """Thirtieth probe: Debian's default site on port 80 counted no connection per address, and 4 addresses holding
    unfinished requests there filled nginx for every phone. Port 80 is the stream listener's too, one count with 443
    for each address, and its plain-HTTP half sends a phone to the site over HTTPS (and Let's Encrypt to certbot's
    challenges)."""
    upstreams = [f"127.0.0.1:{free_port()}" for _ in range(2)]  # no request here reaches the app
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        port, plain = nginx_set_up(folder, upstreams, workers="1")  # one worker: it takes them in the order they come
        stack.enter_context(journal(folder))
        stack.enter_context(nginx_running(folder, port))
        typed = http.client.HTTPConnection("127.0.0.1", plain, timeout=30, source_address=("127.0.10.1", 0))
        typed.request("GET", "/g/abc/?x=1", headers={"Host": SITE})
        answer = typed.getresponse()
        assert (answer.status, answer.headers["Location"]) == (301, f"https://{SITE}/g/abc/?x=1")
        answer.read()
        challenge = folder / "www" / ".well-known" / "acme-challenge" / "token"  # as certbot's webroot writes it
        challenge.parent.mkdir(parents=True)
        challenge.write_text("token.key")
        for folders in (challenge.parents[2], challenge.parents[1], challenge.parent):
            folders.chmod(0o755)  # nginx's worker reads it as nobody when the test runs as root
        typed.request("GET", "/.well-known/acme-challenge/token", headers={"Host": SITE})
        answer = typed.getresponse()
        assert (answer.status, answer.read()) == (200, b"token.key")
        typed.close()
        crowd = share_held(stack, port, "127.0.10.2")  # taken and counted by nginx (its accepts of one port come in
        # order, but not with another port's)
        past = stack.enter_context(closing(socket.create_connection(("127.0.0.1", plain), timeout=30,
                                                                    source_address=("127.0.10.2", 0))))  # fmt: skip
        past.sendall(f"GET / HTTP/1.1\r\nHost: {SITE}\r\n".encode())  # and never the rest of its headers
        assert closed(past, wait=30), "the address's connection to port 80 past its share was held"
        assert not [held for held in crowd if closed(held, wait=0)], "the address's first connections were closed"


def share_held(stack: ExitStack, port: int, address: str) -> list[socket.socket]:
    """``address``'s share of the page's stream listener held on ``port`` (in ``stack``) by connections that never
    finish their handshake; one more is closed by nginx at once (with one worker, after it took every one before)."""
    share = int(re.findall(r"limit_conn connections_per_address (\d+);", nginx_blocks()["main"])[0])
    room_for(share + 100)
    crowd = [stack.enter_context(closing(half_handshake(port, address))) for _ in range(share)]
    past = stack.enter_context(closing(half_handshake(port, address)))
    assert closed(past, wait=30), "the connection past the address's share was held"
    return crowd


def half_handshake(port: int, address: str) -> socket.socket:
    """A connection from ``address`` that begins a TLS handshake and never goes on: a record's header announcing a
    ClientHello of 512 bytes, and none of them."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(address, 0))
    connection.sendall(b"\x16\x03\x01\x02\x00")
    return connection


def closed(connection: socket.socket, wait: float) -> bool:
    """Whether nginx closed ``connection``, waiting up to ``wait`` seconds for it to (0: as it is now)."""
    connection.settimeout(wait)  # 0: not blocking
    try:
        return connection.recv(1) == b""
    except ConnectionResetError:
        return True
    except (BlockingIOError, TimeoutError):
        return False


def test_nginx_killed_starts_again_once_the_page_s_step_deletes_its_socket(empty_database_url):
    """nginx deletes its socket when it stops, not when it is killed: then it cannot start again until the step the
    page gives systemd deletes it."""
    on_postgresql(empty_database_url)
    steps = re.findall(r"```ini\n\[Service\]\nExecStartPre=(.*?)\n```", DOCS.read_text())
    assert len(steps) == 1, "docs/open-server.md should give one step that deletes the socket"
    with ExitStack() as stack:
        servers = stack.enter_context(started_at_once(empty_database_url, 2, BEHIND))
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        socket_file = folder / "site.sock"
        step = steps[0].replace(SOCKET.removeprefix("unix:"), str(socket_file))
        step = shlex.split(step.replace(PLAIN_SOCKET.removeprefix("unix:"), str(folder / "plain.sock")))
        port, _plain = nginx_set_up(folder, [server.base.removeprefix("http://") for server in servers], workers="1")
        stack.enter_context(journal(folder))
        with nginx_running(folder, port) as killed:
            os.killpg(killed.pid, signal.SIGKILL)  # its master and its worker
            killed.wait()
        assert socket_file.exists()
        with pytest.raises(RuntimeError, match="Address already in use"), nginx_running(folder, port):
            pass
        subprocess.run(step, check=True)
        with nginx_running(folder, port):
            status, _headers, page = Phone(port, "127.0.8.1").ask("GET", "/rules")
            assert status == 200 and b"Passing and dealing" in page


def test_a_broken_handshake_writes_no_line_to_the_log_and_a_failed_request_does():
    """Twenty-eighth probe, P1: nginx logs a TLS handshake that fails on a server name with a NUL byte in it as
    critical, a line each, and one address opening 1,000 such connections a second grew the log by 12 MB a minute. The
    page's site logs only alerts before a request; a request's errors are logged in its location, as before; and
    nginx writes them to the system's journal, which keeps itself small, not to a file that grows with the flood."""
    upstreams = [f"127.0.0.1:{free_port()}" for _ in range(2)]  # nobody there: nginx logs each refusal
    with tempfile.TemporaryDirectory() as named:
        folder = Path(named)
        port, _plain = nginx_set_up(folder, upstreams, workers="1")
        with journal(folder) as told, nginx_running(folder, port):
            told()  # what it said as it started
            broken = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=("127.0.9.1", 0))
            with closing(broken):
                broken.sendall(client_hello().replace(SITE.encode(), SITE.replace("m", "\0", 1).encode()))
                while broken.recv(65536):  # nginx says why and closes
                    pass
            assert Phone(port, "127.0.9.2").ask("GET", "/rules")[0] == 502
            said, filed = told(), (folder / "error.log").read_text()
    assert "connect() failed (111: Connection refused) while connecting to upstream" in said
    assert '"GET /rules HTTP/1.1" 502' in said  # and the request itself
    assert "SSL_do_handshake() failed" not in said, said
    assert "connect() failed" not in filed  # the test's own file has only what nginx says as it starts


def test_nginx_writes_its_errors_to_the_journal_and_not_to_its_standard_error():
    """Thirtieth probe, E1: Debian's nginx writes each error of its main level (the stream listener's, a worker's
    alerts) to its standard error too, unless its configuration names a log there, and systemd passes that to the
    journal over a stream, which nginx waits on: with the journal reading slowly, phones waited 2.2 s a tap. The page
    names it for emergencies alone; the errors go to the journal's socket, where nginx drops a line rather than wait."""
    upstreams = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    with tempfile.TemporaryDirectory() as named:
        folder = Path(named)
        port, plain = nginx_set_up(folder, upstreams, workers="1")
        configuration = (folder / "nginx.conf").read_text()
        configuration, own = re.subn(r"(?m)^error_log \S+ notice;\n", "", configuration)
        assert own == 1, "the test's own error log is named at the main level"
        (folder / "nginx.conf").write_text(configuration)
        with journal(folder) as told, (folder / "stderr").open("wb") as stderr:
            with nginx_running(folder, port, stderr):
                (folder / "plain.sock").unlink()  # the listener cannot hand port 80's connections on: an error
                with socket.create_connection(("127.0.0.1", plain), timeout=30) as connection:
                    assert closed(connection, wait=30)  # once nginx has said why
                said = told()
        written = (folder / "stderr").read_text()
    assert "plain.sock failed (2: No such file or directory) while connecting to upstream" in said, said
    assert "while connecting to upstream" not in written, written


def test_debian_s_nginx_conf_as_the_page_changes_it_logs_nothing_to_a_file():
    """Twenty-ninth probe, Q1: the page moved its own site's lines to the journal, but Debian's nginx.conf kept its
    access log in a file, and its default site on port 80 wrote a line there for every request: one address grew it by
    5 GB in 20 s. Debian's nginx.conf, changed as the page says, with its site and Debian's default one: every log is
    the journal's, and nginx takes the whole."""
    need("nginx")
    debian = Path("/etc/nginx/nginx.conf").read_text()
    blocks = nginx_blocks()
    changed, errors = re.subn(r"(?m)^error_log [^;]*;\n", "", debian)
    changed, events = re.subn(r"(?ms)^events \{.*?^\}\n", lambda _: blocks["main"], changed)
    changed, accesses = re.subn(r"(?m)^(\s*)access_log [^;]*;", lambda m: m[1] + blocks["http"].strip(), changed)
    assert (errors, events, accesses) == (1, 1, 1), "Debian's nginx.conf has the lines the page says to replace"
    others = [path.read_text() for path in Path("/etc/nginx/sites-enabled").glob("*") if path.name != "default"]
    sites = [changed, blocks["site"], *others]  # Debian's default site removed, as the page says
    http_listens = re.findall(r"(?m)^\s*listen\s+([^;\s]+)", "\n".join([blocks["site"], *others]))
    assert http_listens and all(where.startswith("unix:") for where in http_listens), http_listens
    logs = re.findall(r"(?m)^\s*(?:access|error)_log\s+([^;]+);", "\n".join(sites))
    journaled = [log for log in logs if log.startswith(JOURNAL.replace("unix:", "syslog:server=unix:"))]
    assert journaled and sorted(set(logs) - set(journaled)) == ["stderr emerg"], logs  # systemd's stream to it
    with tempfile.TemporaryDirectory() as named:
        (Path(named) / "nginx.conf").write_text(changed)
        tested = subprocess.run([need("nginx"), "-t", "-c", f"{named}/nginx.conf"], capture_output=True, text=True)
    assert tested.returncode == 0, tested.stderr


def client_hello() -> bytes:
    """The first message of a TLS handshake to the site, as this test's client sends it."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = TLS.wrap_bio(incoming, outgoing, server_hostname=SITE)
    with pytest.raises(ssl.SSLWantReadError):
        tls.do_handshake()
    return outgoing.read()


def test_slow_connections_from_seventy_addresses_leave_a_new_phone_served(proxied):
    """2,100 connections that never finish their headers, from 70 addresses: the proxy holds them, not the app."""
    room_for(SLOW_ADDRESSES * SLOW_EACH + 100)
    key, game = table_plays(proxied)
    with ExitStack() as held:
        for n in range(SLOW_ADDRESSES):
            slow = Phone(proxied, f"127.0.1.{n + 1}")
            for _ in range(SLOW_EACH):
                connection = held.enter_context(closing(slow.connect()))
                connection.sendall(f"GET /g/{key}/ HTTP/1.1\r\nHost: {SITE}\r\nUser-Agent: slow".encode())
        status, _headers, page = Phone(proxied, "127.0.2.1").ask("GET", f"/g/{key}/games/{game}")
        assert status == 200 and b"Ann" in page


def test_a_hundred_and_fifty_phones_behind_one_address_are_all_served(proxied):
    """Every phone of a club's Wi-Fi follows the game through one router's address: each stream is served, and each
    is told the next hand."""
    key, game = table_plays(proxied)
    club = Phone(proxied, "127.0.3.1")
    request = f"GET /g/{key}/games/{game}/follow/events HTTP/1.1\r\nHost: {SITE}\r\n\r\n".encode()
    with ExitStack() as held:
        streams = []
        for _ in range(ONE_ADDRESS):
            stream = held.enter_context(closing(club.connect()))
            stream.sendall(request)
            said = read_until(stream, b"event: version\ndata: ")
            assert said.startswith(b"HTTP/1.1 200 "), said[:200]
            streams.append(stream)
        status, _game = club.json("POST", f"/g/{key}/api/games/{game}/hands", {"hearts": [4, 0, 9, 0], "queen": 1})
        assert status == 201
        told = [read_until(stream, b"event: version\ndata: ") for stream in streams]
        assert all(b"event: version" in each for each in told)


def room_for(connections: int) -> None:
    """Let this process hold ``connections`` sockets at once, where the system allows (a shell often gives 1,024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < connections:
        if hard != resource.RLIM_INFINITY and hard < connections:
            pytest.fail(f"this process may open {hard} files at most; the test holds {connections} connections")
        resource.setrlimit(resource.RLIMIT_NOFILE, (connections, hard))


def read_until(stream: ssl.SSLSocket, mark: bytes) -> bytes:
    """What a stream says up to and with the line after ``mark`` (an event's data)."""
    said = b""
    while mark not in said or not said.split(mark, 1)[1].count(b"\n"):
        chunk = stream.recv(65536)
        assert chunk, f"the stream closed: {said[-300:]!r}"
        said += chunk
    return said


def test_a_body_over_the_limit_is_refused_at_the_proxy(proxied):
    """An import past 64 MB is refused by nginx as soon as it has the headers: none of it reaches the app."""
    key, _game = table_plays(proxied)
    with closing(Phone(proxied, "127.0.4.1").connect()) as connection:
        head = (f"POST /g/{key}/history/import HTTP/1.1\r\nHost: {SITE}\r\nContent-Type: multipart/form-data; "
                f"boundary=x\r\nContent-Length: {64 * 1024 * 1024 + 1}\r\n\r\n")  # fmt: skip
        connection.sendall(head.encode())
        answer = b""
        while b"</html>" not in answer and (chunk := connection.recv(65536)):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413 ") and b"<center>nginx" in answer, answer[:300]


def large_upload_through(port: int, address: str, key: str) -> ssl.SSLSocket:
    """An import of 60 MB announced from ``address`` through the proxy, its first megabyte sent."""
    connection = Phone(port, address).connect()
    connection.sendall(f"POST /g/{key}/history/import HTTP/1.1\r\nHost: {SITE}\r\nContent-Type: multipart/form-data; "
                       f"boundary=x\r\nContent-Length: {60 * 1024 * 1024}\r\n\r\n".encode() + b"x" * 2**20)  # fmt: skip
    return connection


def test_one_address_keeps_two_large_bodies_on_disk_through_the_proxy(proxied):
    """Twenty-sixth probe, N2: nginx kept each body whole on its own disk before handing it on, for as long as a byte
    came every 20 s: 64 MB for each of an address's 256 requests, 16 GB, and the app's share of the disk per address
    was off behind it. Now nginx hands each body on as it comes, and each process keeps each address (the one nginx
    names) to two large bodies on disk at once: of six, the two past them are refused."""
    key, _game = table_plays(proxied)
    with ExitStack() as held:
        uploads = [held.enter_context(closing(large_upload_through(proxied, "127.0.5.1", key))) for _ in range(6)]
        answered: list[ssl.SSLSocket] = []
        while len(answered) < 2:  # the two past the shares, answered as soon as their process has their headers
            ready = select.select([each for each in uploads if each not in answered], [], [], 30)[0]
            assert ready, "no upload was refused"
            answered += ready
        for upload in answered:
            refused = b""
            while b"</html>" not in refused and (chunk := upload.recv(65536)):
                refused += chunk
            assert refused.startswith(b"HTTP/1.1 503 "), refused[:300]
            assert b"Other large files from your address are still on their way to the server" in refused
        status, _headers, page = Phone(proxied, "127.0.5.2").ask(
            "POST", f"/g/{key}/history/import", b"x" * 2**20, {"Content-Type": "multipart/form-data; boundary=x"}
        )
        assert status != 503, page[:300]  # another address's import is read (and refused for what it is)
