"""The app factory: config layering, the kept secret, the schema made on first start."""

import secrets
from pathlib import Path

import pytest
from sqlalchemy import inspect

from scorekeeper import StartupError, create_app, database_url, instance_secret
from scorekeeper.config import secret_key
from scorekeeper.store.db import db

from conftest import as_host


def test_testing_config_wins(app):
    assert app.testing and app.config["SECRET_KEY"] == "test"


def test_secret_key_is_made_once_and_kept(tmp_path):
    made = instance_secret(tmp_path)
    assert instance_secret(tmp_path) == made and len(made) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600


def test_without_a_configured_secret_the_instance_one_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'a.sqlite'}"})
    assert app.config["SECRET_KEY"] == (Path(app.instance_path) / "secret_key").read_text()


def test_environment_overrides_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-env-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    app = create_app()
    assert app.config["SECRET_KEY"] == "from-env-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc"
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.sqlite")


def test_schema_is_created_on_first_start(app):
    with as_host(app):
        assert {"games", "players", "hands"} <= set(inspect(db.engine).get_table_names())


def test_postgres_urls_use_psycopg():
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.sqlite") == "sqlite:///x.sqlite"


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(app):
    with as_host(app):
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite settings: this run is on PostgreSQL")
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10000


WEAK_KEYS = {
    "short": "x",
    "a word": "backup-test",
    "a repeat": "a" * 64,
    "a run repeated": "abcdefg" * 5,
    "hex digits in a run, twice": "0123456789abcdef0123456789abcdef",
    "a word repeated": "changeme-changeme-changeme-changeme",
    "a run by steps": "acegikmoqsuwy13579bdfhjlnprtvxz0",
    "a run down": "zyxwvutsrqponmlkjihgfedcba9876543210",
    "two letters": "ab" * 20,
    "a word and a run": "test-key-0123456789-abcdefghijklmn",
    "rows of keys": "qwertyuiopasdfghjklzxcvbnm1234567890",  # issue 41, fourth probe, L1
    "a common password, numbered": "Password1Password2Password3Password4",
    "the app's own words": "hearts-scorekeeper-secret-key-2026-prod",
    "a famous phrase": "correcthorsebatterystaplecorrecthorse",
    # issue 41, nineteenth probe: keys of templates and tutorials, which guessers' lists hold
    "a word repeated, numbered": "supersecretkeysupersecretkey12345",
    "two runs woven together": "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
    "a template's key": "your-secret-key-here-replace-me-now",
    "a test's key": "insecure-secret-key-for-testing-only",
    "a pangram": "thequickbrownfoxjumpsoverthelazydog",
    "a template's request": "please-change-this-secret-key-now",
    "a warning": "development-key-do-not-use-in-prod",
    "a template's instruction": "replace-with-a-long-random-string-please",
    "a template's other instruction": "generate-a-random-key-and-put-it-here",  # twentieth probe
}


@pytest.mark.parametrize("weak", WEAK_KEYS.values(), ids=WEAK_KEYS.keys())
def test_a_secret_key_someone_could_guess_is_refused(tmp_path, monkeypatch, weak):
    """It signs every phone's session: with it, anyone could sign a session that says a passcode was given."""
    monkeypatch.setenv("SECRET_KEY", weak)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    with pytest.raises(
        StartupError, match="SECRET_KEY in the environment must be at least 32 characters long"
    ) as refused:
        create_app()
    assert 'python3 -c "import secrets; print(secrets.token_hex(32))"' in str(refused.value)
    assert not (tmp_path / "env.sqlite").exists()


@pytest.mark.parametrize(
    "strong",
    [secrets.token_hex(32), secrets.token_urlsafe(32), "amber kettle orbit walrus 2026 ferry"],
    ids=["hex digits", "URL-safe", "four words"],
)
def test_a_secret_key_no_one_could_guess_is_taken(tmp_path, monkeypatch, strong):
    monkeypatch.setenv("SECRET_KEY", strong)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    assert create_app().config["SECRET_KEY"] == strong


def test_the_secret_key_the_app_makes_is_one_it_would_take(tmp_path):
    assert secret_key(instance_secret(tmp_path)) == (tmp_path / "secret_key").read_text()
