"""Issue 41, point 6: 60 MB bodies left unfinished on an import's address kept their temporary files (4.2 GB) after
their connections closed. Every way a body can stop before its end lets its file go at once."""

import asyncio
import tempfile

import pytest

from scorekeeper.server import asgi

from conftest import run_apart

MEGABYTE = b"x" * (1024 * 1024)


class Files:
    """The temporary files on disk a body past what memory holds is written to, each remembered."""

    def __init__(self, make):
        self.make, self.made = make, []

    def __call__(self, *args, **kwargs):
        made = self.make(*args, **kwargs)
        self.made.append(made)
        return made


@pytest.fixture
def files(monkeypatch):
    made = Files(tempfile.TemporaryFile)
    monkeypatch.setattr(tempfile, "TemporaryFile", made)
    return made


def upload(length):
    return {"type": "http", "method": "POST", "path": "/g/any-key/history/import",
            "headers": [(b"host", b"localhost"), (b"content-length", str(length).encode())]}  # fmt: skip


def sender(parts, then):
    """A client sending ``parts`` megabytes of its body, then ``then``: "leaves", "waits" or "stays" (until the server
    stops it)."""
    sent = []

    async def receive():
        if len(sent) < parts:
            sent.append(1)
            return {"type": "http.request", "body": MEGABYTE, "more_body": True}
        if then == "leaves":
            return {"type": "http.disconnect"}
        await asyncio.Event().wait()  # never set: waits until given up or cancelled

    return receive


@pytest.mark.parametrize("then", ["leaves", "waits"])
def test_a_body_left_unfinished_lets_its_file_go(files, monkeypatch, then):
    monkeypatch.setattr(asgi, "BODY_WAIT_SECONDS", 0.05)

    async def read():
        try:
            return await asgi.whole_body(upload(60 * 1024 * 1024), sender(3, then), 64 * 1024 * 1024)
        except TimeoutError:
            return "given up"

    assert run_apart(read()) == (None if then == "leaves" else "given up")
    assert len(files.made) == 1 and files.made[0].closed  # on disk: 3 MB past what memory holds, closed


def test_a_body_still_coming_when_the_server_stops_lets_its_file_go(files):
    async def read():
        reading = asyncio.ensure_future(asgi.whole_body(upload(60 * 1024 * 1024), sender(2, "stays"), 64 * 2**20))
        while not files.made or files.made[0].tell() < 2 * len(MEGABYTE) - asgi.IN_MEMORY:
            await asyncio.sleep(0)  # the loop's turn: the body's parts come in
        reading.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reading

    run_apart(read())
    assert len(files.made) == 1 and files.made[0].closed
