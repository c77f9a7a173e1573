"""Where the app finds its pages and files, and where it keeps its data.

Run from a clone, the pages are the repository's templates/ and static/ and the
data lives in its instance/ folder. Installed from the wheel, the pages travel
inside the package and the data goes to a per-user folder, so an upgrade of the
package never touches the games.
"""

import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
MIGRATIONS = PACKAGE / "migrations"
CLONE = PACKAGE.parent if (PACKAGE.parent / "pyproject.toml").is_file() else None


def bundled(name: str) -> Path:
    """A folder the wheel puts inside the package (templates, static, docs), else the clone's own."""
    inside = PACKAGE / name
    return inside if inside.is_dir() or CLONE is None else CLONE / name


def instance_folder() -> Path:
    """SCOREKEEPER_INSTANCE if set, else the clone's instance/, else a per-user data folder."""
    chosen = os.environ.get("SCOREKEEPER_INSTANCE")
    if chosen:
        return Path(chosen).expanduser().resolve()
    if CLONE is not None:
        return CLONE / "instance"
    return user_data_folder()


def user_data_folder() -> Path:
    """Where each platform keeps an app's data for one user (XDG_DATA_HOME on Linux)."""
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / "scorekeeper"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "scorekeeper"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "scorekeeper"
