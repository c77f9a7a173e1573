"""Build hook: a wheel carries the top-level templates/, static/ and docs/ inside the package, and the
catalogs compiled (each language's messages.po as the messages.mo the app reads).

An editable install leaves them where they are: the app finds them in the clone (scorekeeper/paths.py), and
`make` compiles the catalogs there.
"""

import shutil
import tempfile
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUNDLED = ("templates", "static", "docs")
TRANSLATIONS = "scorekeeper/translations"


class BundleHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version != "standard":
            return
        build_data["force_include"].update({name: f"scorekeeper/{name}" for name in BUNDLED})
        self.compiled = Path(tempfile.mkdtemp(prefix="scorekeeper-catalogs-"))
        for source in Path(self.root, TRANSLATIONS).glob("*/LC_MESSAGES/messages.po"):
            relative = source.with_suffix(".mo").relative_to(self.root)
            target = self.compiled / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po, target.open("wb") as mo:
                write_mo(mo, read_po(po))
            build_data["force_include"][str(target)] = str(relative)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if hasattr(self, "compiled"):
            shutil.rmtree(self.compiled, ignore_errors=True)
