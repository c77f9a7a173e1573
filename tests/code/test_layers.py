"""The app's modules import down the layers only, with no import circle; the folders are the layers.

Layers, bottom to top: the folders' own paths (paths.py), the rules (pure Hearts), the words (i18n/: the
request's language and the host's), the store (store/: models, database, group scope; config.py), the service
(service/: games, groups, backups), the request checks (security/), the pages and API (web/), the app factory
(``create_app``, startup.py), the production server (server/) and the commands (cli/). A module may import its
own layer or any layer below; a migration imports nothing of today's app, so that changing the app never
rewrites history. Every import counts, ``TYPE_CHECKING`` and function bodies too: each is a module that must be
there for the other to work.
"""

import ast
from pathlib import Path

import pytest

from server import ROOT

PACKAGE = ROOT / "scorekeeper"

LAYERS = ("base", "rules", "i18n", "store", "service", "security", "web", "factory", "server", "commands")

# Each folder of the package is a layer of its own name; the few modules directly in the package, by hand.
FOLDERS = {"rules", "i18n", "store", "service", "security", "web", "server"}
TOP = {"paths": "base", "guessing": "base", "config": "store", "__init__": "factory", "startup": "factory",
       "__main__": "commands"}  # fmt: skip
OTHER_FOLDERS = {"cli": "commands"}
MOST_AT_THE_TOP = 6  # modules directly in the package: the rest live in the folder of their layer


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> str:
    """The layer of a module of the app (``migrations`` for Alembic's)."""
    parts = module.split(".")[1:]
    if not parts:
        return "factory"
    if parts[0] == "migrations":
        return "migrations"
    if parts[0] in FOLDERS:
        return parts[0]
    if parts[0] in OTHER_FOLDERS:
        return OTHER_FOLDERS[parts[0]]
    if parts[0] in TOP:
        return TOP[parts[0]]
    raise AssertionError(f"{module} has no layer: put it in the folder of its layer")


def imports(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The app's modules that ``module`` imports, wherever in it the import stands."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                start = package.split(".")
                start = start[: len(start) - (node.level - 1)]
                base = ".".join(start + ([node.module] if node.module else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {name for name in found if name in known and name != module}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {module: imports(module, path, known) for module, path in known.items()}


def upward_arrows(edges: dict[str, set[str]]) -> list[str]:
    arrows = []
    for module, targets in sorted(edges.items()):
        for target in sorted(targets):
            here, there = layer_of(module), layer_of(target)
            if here == "migrations" or there == "migrations":
                if here != there:
                    arrows.append(f"{module} -> {target} (a migration and today's app)")
            elif LAYERS.index(there) > LAYERS.index(here):
                arrows.append(f"{module} ({here}) -> {target} ({there})")
    return arrows


def circles(edges: dict[str, set[str]], inside: str) -> list[list[str]]:
    """The import circles among the modules under ``inside`` (its ``__init__``, a facade, left out)."""
    nodes = {module for module in edges if module.startswith(inside + ".")}
    found: list[list[str]] = []

    def walk(path: list[str]) -> None:
        for target in sorted(edges[path[-1]] & nodes):
            if target == path[0]:
                found.append(path)
            elif target > path[0] and target not in path:  # each circle once, from its smallest module
                walk([*path, target])

    for start in sorted(nodes):
        walk([start])
    return found


def test_every_module_has_a_layer():
    for module in modules():
        layer_of(module)


def test_no_import_points_up_the_layers():
    assert upward_arrows(graph()) == []


def test_no_import_circle_anywhere_in_the_package():
    assert [" -> ".join([*circle, circle[0]]) for circle in circles(graph(), "scorekeeper")] == []


def test_ls_shows_the_layers():
    """At most a handful of modules directly in the package: the factory, __main__, the settings and paths."""
    top = sorted(path.stem for path in PACKAGE.glob("*.py"))
    assert len(top) <= MOST_AT_THE_TOP and set(top) <= set(TOP), top
    folders = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert folders == FOLDERS | set(OTHER_FOLDERS) | {"migrations"}


@pytest.mark.parametrize(
    ("edges", "arrows", "circle_count"),
    [
        ({"scorekeeper.rules.cards": {"scorekeeper.store.models"}},
         ["scorekeeper.rules.cards (rules) -> scorekeeper.store.models (store)"], 0),
        ({"scorekeeper.service.backup": {"scorekeeper"}},
         ["scorekeeper.service.backup (service) -> scorekeeper (factory)"], 0),
        ({"scorekeeper.migrations.versions.x": {"scorekeeper.store.uids"}},
         ["scorekeeper.migrations.versions.x -> scorekeeper.store.uids (a migration and today's app)"], 0),
        ({"scorekeeper.rules.a": {"scorekeeper.rules.b"}, "scorekeeper.rules.b": {"scorekeeper.rules.c"},
          "scorekeeper.rules.c": {"scorekeeper.rules.a"}}, [], 1),
        ({"scorekeeper.cli.main": {"scorekeeper", "scorekeeper.rules.a"}, "scorekeeper.rules.a": set()}, [], 0),
    ],
)  # fmt: skip
def test_the_checks_see_what_they_look_for(edges, arrows, circle_count):
    assert upward_arrows(edges) == arrows
    assert len(circles(edges, "scorekeeper.rules")) == circle_count
