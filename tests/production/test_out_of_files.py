"""Twenty-third to twenty-fifth probes: a process past its open files could neither take a connection nor keep a
body, and asyncio said so with a traceback for every connection it tried (150 MB of log a minute). The server keeps
room for its connections' files and for a burst of new ones; a body with no file left is refused (503, not 500:
test_unfinished_bodies.py); and the loop's word on it comes once a minute."""

import asyncio
import logging
import resource

import pytest

from scorekeeper.server import connections, loop_errors, serving
from scorekeeper.server.asgi import Entry

from conftest import run_apart

pytestmark = pytest.mark.server


@pytest.mark.parametrize("files", [256, 512, 1024, 4096, 20_000, 2 * serving.CONNECTIONS + serving.SPARE_FILES, 10**6])
def test_a_process_keeps_room_for_its_connections_and_a_burst_of_new_ones(files):
    """Twenty-fourth probe, FD-B: near full, asyncio accepted 2,048 new connections at a time, each a file before it
    could be refused, and it closes a refused one two turns of the loop later: the process went past its files. Now
    three backlogs' worth fit beside the connections' two files each."""
    most, backlog = serving.connections_within(files), serving.backlog_within(files)
    assert 2 * most + 3 * backlog + serving.OTHER_FILES <= files or files < 2 * serving.OTHER_FILES
    assert backlog >= 1 and most >= 1


def test_with_twenty_thousand_files_thirty_two_addresses_never_fill_the_server():
    """The twenty-second probe's bar (32 addresses, each holding its share), on a machine that lets a process open
    20,000 files, with a club's 150 phones beside them."""
    assert serving.connections_within(20_000) >= 32 * connections.PER_ADDRESS + connections.KEPT + 150


def test_the_server_listens_with_the_backlog_its_files_allow(app):
    server = serving.listening_server(app, "127.0.0.1:0", 2)
    try:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]  # as the server raised it
        assert server.server.config.backlog == serving.backlog_within(files) <= serving.BACKLOG
    finally:
        server.close()


def accept_failed(loop, count):
    handler = loop_errors.LoopErrors()
    for _ in range(count):
        handler(loop, {"message": loop_errors.ACCEPT_FAILED, "exception": OSError(24, "Too many open files")})
    return handler


def test_connections_not_taken_for_want_of_files_are_said_once_a_minute(caplog, monkeypatch):
    loop = asyncio.new_event_loop()
    try:
        with caplog.at_level(logging.ERROR):
            handler = accept_failed(loop, 2048)  # a backlog's worth, at once
            said = [record.getMessage() for record in caplog.records]
            assert len(said) == 1 and "1 not taken" in said[0] and "Too many open files" in said[0]
            monkeypatch.setattr(loop_errors, "SAID_EVERY", 0)  # a minute later
            handler(loop, {"message": loop_errors.ACCEPT_FAILED, "exception": OSError(24, "Too many open files")})
            assert "2048 not taken" in caplog.records[-1].getMessage()
            caplog.clear()
            handler(loop, {"message": "something else", "exception": ValueError("other")})
            assert [record.name for record in caplog.records] == ["asyncio"]  # as asyncio says it
    finally:
        loop.close()


def test_the_server_s_loop_has_the_handler_from_its_start(app):
    entry = Entry(app, 2)

    async def start_and_stop():
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
        said = []

        async def receive():
            return next(messages)

        async def send(message):
            said.append(message["type"])

        await entry({"type": "lifespan"}, receive, send)
        return said, asyncio.get_running_loop().get_exception_handler()

    said, handler = run_apart(start_and_stop())
    assert said == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert isinstance(handler, loop_errors.LoopErrors)


def test_uvicorn_s_warnings_of_a_crowd_s_junk_are_said_once_a_minute(app, caplog, monkeypatch):
    """Twenty-sixth probe: 33 addresses opening thousands of connections a second, each sending a few bytes that are
    no HTTP request, had uvicorn warn of each: 3.8 MB of log a minute."""
    serving.listening_server(app, "127.0.0.1:0", 2).close()  # a server made: its filter is on
    uvicorn = logging.getLogger(loop_errors.UVICORN)
    assert [type(each) for each in uvicorn.filters] == [loop_errors.Warnings]
    # a fresh one for the test: the process's has counted other tests' warnings this minute
    monkeypatch.setattr(uvicorn, "filters", [loop_errors.Warnings()])
    with caplog.at_level(logging.WARNING):
        for _ in range(1000):
            uvicorn.warning("Invalid HTTP request received.")
        uvicorn.warning("Exceeded concurrency limit.")
        uvicorn.error("Cancel 3 running task(s), timeout graceful shutdown exceeded")
        said = [record.getMessage() for record in caplog.records]
        assert said == ["Invalid HTTP request received. (×1; said again in a minute at most)",
                        "Exceeded concurrency limit. (×1; said again in a minute at most)",
                        "Cancel 3 running task(s), timeout graceful shutdown exceeded"]  # fmt: skip
        monkeypatch.setattr(loop_errors, "SAID_EVERY", 0)  # a minute later
        uvicorn.warning("Invalid HTTP request received.")
        assert caplog.records[-1].getMessage().startswith("Invalid HTTP request received. (×1000;")
