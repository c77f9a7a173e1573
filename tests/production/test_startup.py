"""What keeps `scorekeeper serve` from starting is one line for the host and a non-zero exit, before it serves."""

import errno
import os
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing, contextmanager
from dataclasses import replace
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from scorekeeper import config, create_app
from scorekeeper.cli.main import main
from scorekeeper.server import listening, serving
from scorekeeper.store.db import db

from conftest import as_host
from server import ROOT

pytestmark = pytest.mark.server

SERVE = ["serve", "--bind", "127.0.0.1:0"]


def scorekeeper(arguments, instance, env=None, as_a_user=False):
    """The real command in a process of its own: its exit code and what it said (stdout, stderr)."""
    kept = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "SECRET_KEY")}
    command = [sys.executable, "-m", "scorekeeper.cli.main", *arguments]
    if as_a_user and os.geteuid() == 0:
        command = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", *command]  # file modes bind root too
    done = subprocess.run(command, cwd=ROOT, env={**kept, "SCOREKEEPER_INSTANCE": str(instance), **(env or {})},
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    return done.returncode, done.stdout, done.stderr


def refused(arguments, instance, **given):
    """The one line the command said on stderr, once it stopped without serving."""
    code, out, err = scorekeeper(arguments, instance, **given)
    assert code == 1 and "Listening on" not in out, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), err
    return lines[0]


def database(instance, contents=None):
    instance.mkdir(exist_ok=True)
    path = instance / "scorekeeper.sqlite"
    if contents is not None:
        path.write_bytes(contents)
    return path


def test_a_data_folder_that_cannot_be_made(tmp_path):
    (tmp_path / "locked").mkdir(mode=0o500)
    said = refused(SERVE, tmp_path / "locked" / "data", as_a_user=True)
    assert f"Cannot make the data folder {tmp_path / 'locked' / 'data'} (Permission denied)" in said


@pytest.mark.parametrize(
    "secret, words",
    [({}, "Cannot keep the secret key"), ({"SECRET_KEY": "test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc"}, "Cannot create")],
)
def test_a_data_folder_this_user_cannot_write(tmp_path, secret, words):
    (tmp_path / "data").mkdir(mode=0o500)
    said = refused(SERVE, tmp_path / "data", env=secret, as_a_user=True)
    assert words in said and str(tmp_path / "data") in said and "--instance" in said


@pytest.mark.parametrize(
    "url, words",
    [
        ("not a url", "DATABASE_URL is not a database URL: write it as postgresql://"),
        ("foo://db/hearts", "DATABASE_URL names a kind of database this app does not know (foo)"),
        ("mysql://ann:secret@localhost/hearts", "The database driver MySQLdb is not installed"),
        ("postgresql://ann:secret@127.0.0.1:1/hearts",
         "Cannot use the database postgresql+psycopg://ann:***@127.0.0.1:1/hearts: connection failed"),
    ],
)  # fmt: skip
def test_a_database_url_that_does_not_work(tmp_path, url, words):
    said = refused(SERVE, tmp_path, env={"DATABASE_URL": url})
    assert words in said and "secret" not in said


def test_the_postgresql_driver_missing(tmp_path):
    without_psycopg = "import sys; sys.modules['psycopg'] = None; from scorekeeper.cli.main import main; main()"
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path), "DATABASE_URL": "postgresql://ann@db/hearts"}
    done = subprocess.run([sys.executable, "-c", without_psycopg, *SERVE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 1 and done.stderr.splitlines() == [
        "Error: The PostgreSQL driver (psycopg) is not installed: install the app with it, "
        "pipx install --force '.[postgres]' (or pip install 'psycopg[binary]')."
    ]


def test_a_damaged_database_file(tmp_path):
    path = database(tmp_path / "data", b"SQLite format 3\x00" + b"\x07" * 4000)
    said = refused(SERVE, tmp_path / "data")
    assert f"The database {path} is damaged" in said and "restore" in said


def test_a_file_that_is_no_database_at_all(tmp_path):
    path = database(tmp_path / "data", b"hearts night: Ann 40, Ben 12\n" * 200)
    assert f"The database {path} is damaged (file is not a database)" in refused(SERVE, tmp_path / "data")


def test_a_database_this_user_may_only_read(tmp_path):
    path = database(tmp_path / "data")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "x"})
    with as_host(app):
        db.engine.dispose()
    path.chmod(0o400)
    said = refused(SERVE, tmp_path / "data", env={"SECRET_KEY": "test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc"}, as_a_user=True)
    assert f"The database {path} is read-only for this user" in said


def test_a_database_from_a_newer_version(tmp_path):
    path = database(tmp_path / "data")
    with closing(sqlite3.connect(path)) as newer:
        newer.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)")
        newer.execute("INSERT INTO alembic_version VALUES ('0099')")
        newer.commit()
    said = refused(SERVE, tmp_path / "data")
    assert f"The database {path} was upgraded by a newer version of the app" in said and "0099" in said


def test_a_port_in_use_says_to_pick_another(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        said = refused(["serve", "--bind", f"127.0.0.1:{port}"], tmp_path)
    assert said == (f"Error: 127.0.0.1:{port} is in use already (another server?): pick another port with --bind, "
                    f"e.g. --bind 127.0.0.1:{port + 1}.")  # fmt: skip


@contextmanager
def a_port_taken():
    """A port of loopback another program listens on."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


@pytest.fixture
def serve_in_process(tmp_path, monkeypatch):
    """`scorekeeper serve` run here, the default BIND on loopback: what it said, and where its server listened."""
    listened = []

    def serve_once(server):
        listened.extend(server.addresses())
        server.close()

    monkeypatch.setattr(serving, "run", serve_once)
    monkeypatch.delenv("MAKELEVEL", raising=False)

    def run(default_bind, *arguments, **env):
        settings = [replace(setting, default=default_bind) if setting.name == "BIND" else setting
                    for setting in config.SETTINGS]  # fmt: skip
        monkeypatch.setattr(config, "SETTINGS", tuple(settings))
        env = {
            "SCOREKEEPER_INSTANCE": str(tmp_path),
            "SECRET_KEY": "test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc",
            "DATABASE_URL": "",
            "BIND": "",
            **env,
        }
        answer = CliRunner().invoke(main, ["serve", *arguments], env=env)
        return answer, listened

    return run


def test_a_host_who_chose_no_port_gets_the_next_free_one_and_is_told(serve_in_process):
    """As on a Mac, where AirPlay Receiver holds port 5000."""
    with a_port_taken() as port:
        answer, listened = serve_in_process(f"127.0.0.1:{port}")
    assert answer.exit_code == 0, answer.output
    ((host, moved),) = listened
    assert host == "127.0.0.1" and port < moved < port + listening.PORTS
    assert f"Port {port} is in use already (another server? On a Mac, the AirPlay Receiver): serving on port " \
           f"{moved} instead." in answer.output  # fmt: skip
    assert f"Listening on http://127.0.0.1:{moved}/" in answer.output


@pytest.mark.parametrize(
    "how, words",
    [
        ({"BIND": "{bind}"}, "pick another port for BIND in the environment, e.g. BIND=127.0.0.1:{next}."),
        ({"BIND": "{bind}", "MAKELEVEL": "1"}, "pick another port, e.g. BIND=127.0.0.1:{next} make run."),
        ({"file": "BIND={bind}\n"}, "pick another port for BIND in {file} line 1, e.g. BIND=127.0.0.1:{next}."),
        ({"--bind": "{bind}"}, "pick another port with --bind, e.g. --bind 127.0.0.1:{next}."),
    ],
    ids=["environment", "make run", "settings file", "--bind"],
)
def test_a_port_the_host_chose_stays_an_error_that_says_how_to_choose_another(serve_in_process, tmp_path, how, words):
    with a_port_taken() as port:
        bind = f"127.0.0.1:{port}"
        env = {name: value.format(bind=bind) for name, value in how.items() if name.isupper()}
        if "file" in how:
            (tmp_path / "settings.env").write_text(how["file"].format(bind=bind))
            (tmp_path / "settings.env").chmod(0o600)
        answer, listened = serve_in_process("127.0.0.1:1", *(["--bind", bind] if "--bind" in how else []), **env)
    assert answer.exit_code == 1 and not listened
    said = words.format(next=port + 1, file=tmp_path / "settings.env")
    assert answer.output == f"Error: {bind} is in use already (another server?): {said}\n"


def test_two_servers_on_one_port_the_second_is_refused(app):
    first = serving.listening_server(app, "127.0.0.1:0", 1)
    try:
        port = first.addresses()[0][1]
        assert first.sockets[0].getsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR)  # a restart takes its port back
        with pytest.raises(listening.PortInUse):
            serving.listening_server(app, f"127.0.0.1:{port}", 1)
    finally:
        first.close()


def test_on_windows_the_port_is_taken_exclusively(monkeypatch):
    """There SO_REUSEADDR would let a second server bind a port in use without a word."""
    monkeypatch.setattr(socket, "SO_EXCLUSIVEADDRUSE", ~socket.SO_REUSEADDR, raising=False)  # as Windows defines it
    options = []
    sock = SimpleNamespace(family=socket.AF_INET, setsockopt=lambda *given: options.append(given))
    listening.set_options(sock, "win32")
    assert options == [(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)]
    assert listening.listening_options("linux") == listening.listening_options("darwin") == [("SO_REUSEADDR", 1)]


def test_on_windows_a_port_held_exclusively_by_another_program_is_a_port_in_use():
    refused = OSError(
        errno.EACCES, "An attempt was made to access a socket in a way forbidden by its access permissions"
    )
    refused.winerror = 10013  # WSAEACCES: what Windows says to a bind on a port another socket holds exclusively
    assert listening.in_use(refused, "win32") and not listening.in_use(refused, "linux")


@pytest.mark.parametrize(
    "bind, words",
    [
        ("five thousand", "--bind (or BIND) takes one HOST:PORT, not several (five thousand)"),
        ("127.0.0.1:5000 [::1]:5000", "takes one HOST:PORT, not several (127.0.0.1:5000 [::1]:5000): to serve on "
                                      "every address of this machine, give 0.0.0.0:5000."),
        ("127.0.0.1", "--bind (or BIND) wants HOST:PORT, e.g. 0.0.0.0:5000 (an IPv6 address in brackets: "
                      "[::1]:5000), not '127.0.0.1'."),
        (":5000", "wants HOST:PORT"),
        ("::1:5000", "an IPv6 address in brackets"),
        ("127.0.0.1:99999", "The port in --bind (or BIND) goes from 1 to 65535, not 99999: e.g. 127.0.0.1:5000."),
        ("no-such-host.invalid:5000", "Cannot listen on no-such-host.invalid:5000 ("),
    ],
)  # fmt: skip
def test_a_bind_that_is_not_one_address_and_port(tmp_path, bind, words):
    assert words in refused(["serve", "--bind", bind], tmp_path)
    assert words in refused(["serve"], tmp_path, env={"BIND": bind})


def test_workers_are_gone_with_a_word_on_threads(tmp_path):
    code, _, err = scorekeeper(["serve", "--workers", "2"], tmp_path)
    assert code == 2 and "--workers is gone: the server is one process now" in err and "--threads" in err


def test_the_servers_sockets_are_tcp_by_name_so_that_answers_are_not_held_back(app):
    """asyncio turns Nagle's algorithm off (TCP_NODELAY) on the connections of a socket made for TCP by name only:
    on one made with protocol 0, each answer after a connection's first waited 40 ms for the phone's delayed ACK."""
    server = serving.listening_server(app, "127.0.0.1:0", 1)
    try:
        assert [sock.proto for sock in server.sockets] == [socket.IPPROTO_TCP]
    finally:
        server.close()
