"""Build hook: a wheel carries the top-level templates/, static/ and docs/ inside the package, its scripts and
stylesheets minified, and the catalogs compiled (each language's messages.po as the messages.mo the app reads).

The files in static/ stay as written, comments and all, and a clone serves them so: an edit shows on the next
request. A host installs the wheel, whose scripts and stylesheets lose their comments and layout here, once (a
phone's first load of the table page over patchy mobile data is then about a third smaller). The minifiers read
tokens, not a grammar, so the scripts may use any of today's JavaScript.

An editable install leaves them where they are: the app finds them in the clone (scorekeeper/paths.py), and
`make` compiles the catalogs there.
"""

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rcssmin  # type: ignore[import-untyped]
import rjsmin  # type: ignore[import-untyped]
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUNDLED = ("templates", "docs")
STATIC = "static"
TRANSLATIONS = "scorekeeper/translations"
MINIFIERS: dict[str, Callable[[str], str]] = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


class BundleHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version != "standard":
            return
        build_data["force_include"].update({name: f"scorekeeper/{name}" for name in BUNDLED})
        self.built = Path(tempfile.mkdtemp(prefix="scorekeeper-build-"))
        static = self.built / STATIC
        shutil.copytree(Path(self.root, STATIC), static)
        for path in static.rglob("*"):
            minify = MINIFIERS.get(path.suffix)
            if minify is not None:
                path.write_text(minify(path.read_text(encoding="utf-8")), encoding="utf-8")
        build_data["force_include"][str(static)] = f"scorekeeper/{STATIC}"
        for source in Path(self.root, TRANSLATIONS).glob("*/LC_MESSAGES/messages.po"):
            relative = source.with_suffix(".mo").relative_to(self.root)
            target = self.built / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po, target.open("wb") as mo:
                write_mo(mo, read_po(po))
            build_data["force_include"][str(target)] = str(relative)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if hasattr(self, "built"):
            shutil.rmtree(self.built, ignore_errors=True)
