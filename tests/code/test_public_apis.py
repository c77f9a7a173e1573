"""The app uses the libraries it stands on through what they publish: no private name (one starting with "_") of
Flask, Werkzeug, click, SQLAlchemy or the server, imported, read, or overridden in a subclass. Their next release
may change any of those without a word."""

import ast

import pytest

from server import ROOT

PACKAGE = ROOT / "scorekeeper"
LIBRARIES = ("flask", "werkzeug", "click", "sqlalchemy", "uvicorn", "a2wsgi", "waitress", "h11", "httptools")


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def of_a_library(module: str) -> bool:
    return module.split(".")[0] in LIBRARIES


def private_uses(source: str) -> list[str]:
    """What ``source`` uses of the libraries' private names: each as ``line: what``.

    >>> private_uses("from flask.globals import _cv_request")
    ['1: flask.globals._cv_request']
    >>> private_uses("import click\\nclick.core._x = 1\\nfrom werkzeug import _internal")
    ['2: click.core._x', '3: werkzeug._internal']
    >>> private_uses("from werkzeug.routing import Rule\\nclass A(Rule):\\n    def _compile_builder(self): pass")
    ['3: Rule._compile_builder']
    >>> private_uses("class Kept:\\n    def _mine(self):\\n        return self._kept")
    []
    """
    tree = ast.parse(source)
    from_libraries: dict[str, str] = {}  # a name bound here: the library's module or name it stands for
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level and of_a_library(node.module):
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                from_libraries[alias.asname or alias.name] = whole
                if any(private(part) for part in whole.split(".")):
                    found.append(f"{node.lineno}: {whole}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if of_a_library(alias.name):
                    from_libraries[(alias.asname or alias.name).split(".")[0]] = alias.name.split(".")[0]
                    if any(private(part) for part in alias.name.split(".")):
                        found.append(f"{node.lineno}: {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            chain = dotted(node.value)
            if chain and chain.split(".")[0] in from_libraries:
                found.append(f"{node.lineno}: {chain}.{node.attr}")
            elif isinstance(node.ctx, ast.Store) and chain not in ("self", "cls"):  # another module's globals
                found.append(f"{node.lineno}: {chain}.{node.attr} rewritten")
        elif isinstance(node, ast.ClassDef):
            bases = [dotted(base) for base in node.bases]
            library_bases = [base for base in bases if base and base.split(".")[0] in from_libraries]
            for item in node.body:
                if library_bases and isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and private(item.name):
                    found.append(f"{item.lineno}: {library_bases[0]}.{item.name}")
    return sorted(found, key=lambda said: int(said.split(":")[0]))


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of an expression made of names and attributes alone."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


@pytest.mark.parametrize("module", sorted(PACKAGE.rglob("*.py")), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_private_name_of_a_library_is_used(module):
    assert private_uses(module.read_text()) == []


def test_the_request_checks_are_one_ordered_list_in_the_factory():
    """No module splices the app's hooks: each check is registered in create_app, in the order it runs."""
    for module in PACKAGE.rglob("*.py"):
        assert "before_request_funcs" not in module.read_text(), module


def test_the_request_checks_run_in_the_order_the_factory_gives(app):
    checks = [f"{check.__module__}.{check.__name__}" for check in app.before_request_funcs[None]]
    assert checks == [
        "scorekeeper.security.sites.refuse_other_hosts",
        "scorekeeper.security.sites.refuse_other_sites",
        "scorekeeper.security.bodies.limit_body",
        "scorekeeper.security.group_scope.resolve_group",
        "flask_wtf.csrf.csrf_protect",
        "scorekeeper.security.guard.require_passcode",
    ]
    assert set(app.before_request_funcs) == {None}  # no blueprint adds a check of its own
