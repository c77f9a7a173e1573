"""The fields the forms build on, made safe for whatever a post holds."""

from collections.abc import Iterable, Iterator

import wtforms

INDEX_DIGITS = 4  # a list of the forms holds a handful of entries; no longer number is one of them


class FieldList(wtforms.FieldList):  # type: ignore[type-arg]  # generic in the stubs alone
    """A list of fields whose posted keys (``players-0``, ``hearts-3``) count in ASCII digits only.

    WTForms reads the number in a key with ``str.isdigit``, which is true of ``²`` and
    ``¹`` too, then fails on ``int("²")``: a 500 for anyone who posts one (and, on the
    hand form, before its token is even looked at). A key that is no such number is
    no entry of the list, like any other unknown key.
    """

    def _extract_indices(self, prefix: str, formdata: Iterable[str]) -> Iterator[int]:
        offset = len(prefix) + 1
        for key in formdata:
            if key.startswith(prefix):
                number = key[offset:].split(self._field_separator, 1)[0]  # type: ignore[attr-defined]
                if number.isascii() and number.isdigit() and len(number) <= INDEX_DIGITS:
                    yield int(number)
