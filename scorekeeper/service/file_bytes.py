"""An export file's bytes, before they are read as JSON (reader.py): UTF-8 whatever an editor saved them as, no text
longer than any the app writes, and its objects counted."""

import codecs
import json
from typing import IO, Protocol

# The most of a file between two of its quotes (escaped ones aside): every text the parser builds whole, even one
# passed over, so what fits between quotes is the most one text can take. An export has a quote every few bytes.
UNQUOTED_MAX = 1024 * 1024
CHUNK = 64 * 1024


class TooLarge(Exception):
    """A value larger than any the app writes: the file is refused before it is built."""


def objects_in(stream: IO[bytes]) -> int:
    """The most objects a file may hold: its bytes that are a ``{`` in any encoding it may be in (in a text too).

    >>> import io
    >>> objects_in(io.BytesIO(b'{"games": [{}, {"players": ["{"]}]}')), objects_in(io.BytesIO("{}".encode("utf-16")))
    (4, 1)
    """
    stream.seek(0)
    return sum(chunk.count(b"{") for chunk in iter(lambda: stream.read(CHUNK), b""))


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def utf8(stream: IO[bytes]) -> Readable:
    r"""The file as UTF-8, as any editor saved it: UTF-8 with or without a byte-order mark, UTF-16 or UTF-32.

    >>> import io
    >>> utf8(io.BytesIO('{"a": "é"}'.encode("utf-16"))).read(), utf8(io.BytesIO(b'\xef\xbb\xbf[1]')).read()
    (b'{"a": "\xc3\xa9"}', b'[1]')
    """
    encoding = json.detect_encoding(stream.read(4))
    stream.seek(0)
    if encoding == "utf-8-sig":
        stream.read(3)
    if encoding.startswith("utf-8"):
        return stream
    return Recoded(stream, encoding)


class Quoted:
    """A file read on, TooLarge once UNQUOTED_MAX of it has gone by without a quote: a text the parser would build
    whole, or a stretch of brackets no export holds.

    >>> import io
    >>> quoted = Quoted(io.BytesIO(b'["' + b"x" * (UNQUOTED_MAX + 1) + b'"]'))
    >>> while quoted.read(CHUNK): pass
    Traceback (most recent call last):
    scorekeeper.service.file_bytes.TooLarge
    """

    def __init__(self, stream: Readable) -> None:
        self.stream, self.unquoted, self.escaping = stream, 0, b""

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        # A quote escaped in a text (\") is no end of it; an escaped backslash (\\) escapes nothing after it. A piece
        # ending in backslashes waits for the next, to know what they escape.
        joined = self.escaping + data
        kept = joined.rstrip(b"\\")
        self.escaping = joined[len(kept) :]
        parts = kept.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')
        if len(parts) == 1:
            self.unquoted += len(parts[0])
        else:
            longest = max([self.unquoted + len(parts[0]), *map(len, parts[1:-1])])
            self.unquoted = len(parts[-1])
            if longest > UNQUOTED_MAX:
                raise TooLarge()
        if self.unquoted > UNQUOTED_MAX:
            raise TooLarge()
        return data


class Recoded:
    """A file in another encoding, read as UTF-8 a piece at a time."""

    def __init__(self, stream: IO[bytes], encoding: str) -> None:
        self.stream, self.decoder = stream, codecs.getincrementaldecoder(encoding)()
        self.decoder.decode(b"", final=False)

    def read(self, size: int = -1) -> bytes:
        if size == 0:  # how ijson asks whether a file gives bytes
            return b""
        data = self.stream.read(size if size > 0 else CHUNK)
        return self.decoder.decode(data, final=not data).encode()
