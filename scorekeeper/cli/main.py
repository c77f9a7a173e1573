"""The `scorekeeper` command, and its first command: serve the app. The others look after the data (data.py)."""

import io
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..config import StartupError
from ..i18n.languages import gettext as _
from . import data

if TYPE_CHECKING:
    from ..server.listening import PortInUse  # imported when serving: the other commands start without the server


class Commands(click.Group):
    """What keeps the app from starting is one line for the host, and a non-zero exit: never a traceback."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        printable(sys.stdout)
        return super().main(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except StartupError as stopped:
            raise click.ClickException(str(stopped)) from None


def printable(stream: object) -> None:
    """An output that says what it cannot encode as "?", never stops the command with a UnicodeEncodeError.

    Windows gives a redirected or piped output its ANSI code page (cp1252 in Western Europe), which
    holds neither a QR code's blocks nor every name a data folder's path may hold.
    """
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="replace")


# What `--help` says is in the host's language too: each command's help is a message, not its docstring.
@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]},
             help=_("Hearts Scorekeeper: keep score for Hearts played with real cards."))  # fmt: skip
@click.option(
    "--instance",
    type=click.Path(file_okay=False, path_type=Path),
    help=_("The data folder (database, secret key, settings.env). Default: SCOREKEEPER_INSTANCE, else the clone's "
           "instance/ folder, else ~/.local/share/scorekeeper."),
)  # fmt: skip
@click.version_option(package_name="scorekeeper")
def main(instance: Path | None) -> None:
    if instance is not None:
        os.environ["SCOREKEEPER_INSTANCE"] = str(instance.expanduser().resolve())


@main.command(help=_("Serve the app for the phones at the table (uvicorn), and print their address."))
@click.option(
    "--bind", metavar="HOST:PORT", help=_("Where to listen. Default: BIND, else 0.0.0.0:5000 (every address).")
)
@click.option("--threads", type=click.IntRange(1, 256), help=_("Threads that run the app. Default: THREADS, else 8."))
@click.option("--workers", hidden=True)  # gone: said when given
def serve(bind: str | None, threads: int | None, workers: str | None) -> None:
    from .. import create_app
    from ..server import listening, serving
    from .lan import banner, open_server_note

    if workers is not None:
        raise click.UsageError(_("--workers is gone: the server is one process now, and its threads (--threads) "
                                 "serve every phone. Take --workers out of the command."))  # fmt: skip
    app = create_app()
    behind_proxy = bool(app.config["BEHIND_PROXY"])
    chosen = bind or app.config["BIND"]
    where = app.config["GIVEN"].get("BIND")
    # A host who chose no port gets the next free one past a port in use (macOS's AirPlay Receiver holds 5000).
    ports = listening.PORTS if bind is None and where is None else 1
    try:
        server = serving.listening_server(app, chosen, threads or app.config["THREADS"], ports)
    except listening.PortInUse as taken:
        raise StartupError(another_port(taken, bind, where)) from None
    asked, port = listening.host_and_port(chosen)[1], server.addresses()[0][1]
    if port != asked:
        click.echo(_("Port %(taken)d is in use already (another server? On a Mac, the AirPlay Receiver): serving on "
                     "port %(port)d instead. BIND (or --bind) chooses the port.", taken=asked, port=port))  # fmt: skip
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    click.echo(banner(app, server.addresses(), behind_proxy=behind_proxy, encoding=encoding))
    if app.config["GROUPS_OPEN"]:
        click.echo(open_server_note(app))
    serving.run(server)


def another_port(taken: "PortInUse", bind: str | None, where: str | None) -> str:
    """What to do about a port in use, said the way the host chose it: --bind, `make run`'s BIND, or BIND."""
    if bind is not None:
        return str(taken)
    if "MAKELEVEL" in os.environ:  # `make run`, which takes no --bind
        return _("%(bind)s is in use already (another server?): pick another port, e.g. BIND=%(host)s:%(port)d make "
                 "run.", bind=taken.bind, host=taken.host, port=taken.port)  # fmt: skip
    if where is not None:
        return _("%(bind)s is in use already (another server?): pick another port for BIND %(where)s, e.g. "
                 "BIND=%(host)s:%(port)d.", bind=taken.bind, where=where, host=taken.host, port=taken.port)  # fmt: skip
    return str(taken)


for command in data.COMMANDS:  # back up, restore, groups, check, rebuild-records
    main.add_command(command)


if __name__ == "__main__":
    main()
