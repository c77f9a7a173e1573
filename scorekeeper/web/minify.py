"""Stylesheets and scripts go out minified, at the same URLs and with the same caching.

The files in static/ stay as written, comments and all; a phone at the table loads the table
page over patchy mobile data, and its first load is kept small (a third of table.js and a fifth
of app.css are comments and layout). Each file is minified once per version of it on disk, so an
edit shows on the next request.
"""

import functools
import hashlib
import mimetypes
import re
import time
from pathlib import Path

import rcssmin  # type: ignore[import-untyped]
import rjsmin  # type: ignore[import-untyped]
from calmjs.parse import es5  # type: ignore[import-untyped]
from calmjs.parse.exceptions import ECMASyntaxError  # type: ignore[import-untyped]
from calmjs.parse.unparsers.es5 import minify_print  # type: ignore[import-untyped]
from flask import Flask, Response, current_app, request, send_from_directory
from werkzeug.security import safe_join

# A module's imports and its one export list are the ES2015 its scripts use beside ES5, with import(): the
# parser reads the rest, and they are put back as they were (an export list names top-level functions, which
# keep their names as globals do). A module that exports nothing is read as one function, so that its
# top-level names get short ones too.
MODULE_IMPORT = re.compile(r"^import\s[^;]+;[ \t]*\n?", re.M)
MODULE_EXPORT = re.compile(r"^export\s*\{[^}]*\};?[ \t]*\n?", re.M)
LOADER = "import__"  # import(…) as the parser sees it: a call of a global it leaves alone


def javascript(text: str) -> str:
    """Our scripts are ES5 (and modules of ES5): parsed, they also get short local names (globals, a module's
    top-level names and properties keep theirs).

    A script the ES5 parser cannot read is still served, only with its comments and layout removed.
    """
    imports, exports = MODULE_IMPORT.findall(text), MODULE_EXPORT.findall(text)
    body = MODULE_EXPORT.sub("", MODULE_IMPORT.sub("", text)).replace("import(", LOADER + "(")
    if imports and not exports:
        body = f"(function(){{{body}\n}})();"
    try:
        code = str(minify_print(es5(body), obfuscate=True, obfuscate_globals=False))
    except ECMASyntaxError:
        current_app.logger.warning("not ES5, so only stripped: %s", text[:60])
        return str(rjsmin.jsmin(text))
    return "".join(map(statement, imports)) + code.replace(LOADER + "(", "import(") + "".join(map(statement, exports))


def statement(written: str) -> str:
    """An import or export statement on one line, without its layout."""
    return re.sub(r"\s*([{},;])\s*", r"\1", re.sub(r"\s+", " ", written.strip()))


MINIFIERS = {".css": rcssmin.cssmin, ".js": javascript}


def init_app(app: Flask) -> None:
    app.view_functions["static"] = static


@functools.lru_cache(maxsize=128)
def script(text: str) -> str:
    """A script made at request time (the service worker), minified like the files: once for each text (a group's
    addresses and a language make a worker's), as minifying takes a tenth of a second or more."""
    return javascript(text)


def static(filename: str) -> Response:
    """Flask's static view, but a .css or .js file is sent minified."""
    folder = current_app.static_folder or "static"
    path = safe_join(folder, filename)
    if path is None or Path(filename).suffix not in MINIFIERS or not Path(path).is_file():
        return send_from_directory(folder, filename, max_age=current_app.get_send_file_max_age(filename))
    stat = Path(path).stat()
    body, etag = minified(path, stat.st_mtime_ns, stat.st_size)
    answer = Response(body, mimetype=mimetypes.guess_type(filename)[0])
    answer.set_etag(etag)
    answer.last_modified = int(stat.st_mtime)  # type: ignore[assignment]
    max_age = current_app.get_send_file_max_age(filename)
    if max_age:
        answer.cache_control.public = True
        answer.cache_control.max_age = max_age
        answer.expires = int(time.time() + max_age)  # type: ignore[assignment]
    answer.make_conditional(request)
    return answer


@functools.lru_cache(maxsize=64)
def minified(path: str, mtime_ns: int, size: int) -> tuple[bytes, str]:
    """The minified bytes of one version of a file (its time and size name the version) and their hash."""
    del mtime_ns, size  # only part of the cache key
    minify = MINIFIERS[Path(path).suffix]
    body = minify(Path(path).read_text(encoding="utf-8")).encode()
    return body, hashlib.sha256(body).hexdigest()[:20]
