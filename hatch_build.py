"""Build hook: a wheel carries the top-level templates/, static/ and docs/ inside the package.

An editable install leaves them where they are: the app finds them in the clone (scorekeeper/paths.py).
"""

from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUNDLED = ("templates", "static", "docs")


class BundleHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if version == "standard":
            build_data["force_include"].update({name: f"scorekeeper/{name}" for name in BUNDLED})
