"""The addresses the phones at the table should open, printed when the server starts."""

import ipaddress
import socket
import subprocess
import sys
from pathlib import Path

from flask import Flask

from ..config import SETTINGS_FILE, database_name
from ..i18n.languages import gettext as _
from ..i18n.languages import ngettext
from ..server.listening import host_and_port
from ..store import scope
from ..web.qr import qr_text

TEST_NET = "192.0.2.1"  # a documentation address: connecting a UDP socket to it sends nothing


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, on Linux, macOS and Windows alike."""
    listed: list[str] = []
    if sys.platform.startswith("linux"):
        try:
            listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout.split()
        except (OSError, subprocess.SubprocessError):
            listed = []
    if not listed:
        listed = [*routed_address(), *named_addresses()]
    return list(dict.fromkeys(address for address in listed if is_lan_ipv4(address)))


def routed_address() -> list[str]:
    """The address this machine would send from: the one the phones reach it by, on most networks."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((TEST_NET, 9))
            return [str(probe.getsockname()[0])]
    except OSError:
        return []


def named_addresses() -> list[str]:
    try:
        return socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return []


def is_lan_ipv4(text: str) -> bool:
    """
    >>> [is_lan_ipv4(text) for text in ("192.168.1.20", "127.0.1.1", "fe80::1", "hostname.", "0.0.0.0")]
    [True, False, False, False, False]
    """
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return False
    return address.version == 4 and not (address.is_loopback or address.is_unspecified)


def is_loopback(host: str) -> bool:
    """
    >>> [is_loopback(host) for host in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "192.168.1.20")]
    [True, True, True, False, False]
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url(host: str, port: int) -> str:
    """
    >>> url("127.0.0.1", 5000), url("::1", 5000)
    ('http://127.0.0.1:5000/', 'http://[::1]:5000/')
    """
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def phone_urls(host: str, port: int) -> list[str]:
    """Where the server bound to ``host`` answers: every LAN address when it listens on all of them.

    >>> phone_urls("192.168.1.20", 5000)
    ['http://192.168.1.20:5000/']
    """
    if host not in ("0.0.0.0", "::", ""):
        return [url(host, port)]
    return [url(address, port) for address in lan_addresses()] or [url("localhost", port)]


def banner(app: Flask, listening: list[tuple[str, int]], *, behind_proxy: bool, encoding: str = "utf-8") -> str:
    """What the host reads once the server listens: its data, its addresses, and the phones' address.

    ``encoding``: the output's. The QR code is drawn in block characters, which a console or a file in
    an older encoding (Windows gives cp1252 to a redirected output) cannot hold: there the address alone.
    """
    settings = Path(app.instance_path, SETTINGS_FILE)
    heading, urls = for_the_phones(app.config["HOSTS"], *for_phones(listening), behind_proxy)
    code = qr_text(urls[0]) if urls and can_show(qr_text(urls[0]), encoding) else None
    lines = [
        "\n" + _("Data folder: %(path)s", path=app.instance_path),
        *([_("Settings: %(path)s", path=settings)] if settings.exists() else []),
        _("Database: %(name)s", name=database_name(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)),
        *(_("Listening on %(url)s", url=url(host, port)) for host, port in listening),
        "",
        heading,
        *(f"    {address}" for address in urls),
        *([_("or scan this code:") + "\n" + code] if code else []),
        _("(Ctrl+C stops the server.)") + "\n",
    ]
    return "\n".join(lines)


def site_address(app: Flask) -> str:
    """The site's address as the phones open it, from the settings (a command's: no server listens here).

    Behind a proxy, the first of SCOREKEEPER_HOSTS over HTTPS; else this machine's address on the Wi-Fi, on BIND's port.
    """
    names = [name.strip() for name in app.config["HOSTS"].split(",") if name.strip()]
    if app.config["BEHIND_PROXY"] and names:
        return f"https://{names[0]}/"
    host, port = host_and_port(app.config["BIND"])
    return (phone_urls(host, port) if not is_loopback(host) else [url(host, port)])[0]


def open_server_note(app: Flask) -> str:
    """What the host of an open server reads at start: how groups begin, and where the games from before are."""
    from ..service.groups import games_in_group

    lines = [_("Open to many groups: the home page starts a group, each at a link of its own.")]
    first = app.extensions["first_group"]
    with app.app_context():
        scope.limit_to(first.id)
        kept = games_in_group()
    if kept:
        lines.append(ngettext("The game from before the server was open is in the first group: %(link)s",
                              "The %(num)d games from before the server was open are in the first group: %(link)s",
                              kept, link=f"{site_address(app)}g/{first.key}/"))  # fmt: skip
    return "\n".join(lines) + "\n"


def can_show(text: str, encoding: str) -> bool:
    """
    >>> can_show("▀▄█", "utf-8"), can_show("▀▄█", "cp1252"), can_show("▀▄█", "no such encoding")
    (True, False, False)
    """
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def for_phones(listening: list[tuple[str, int]]) -> tuple[str, int]:
    """Of the addresses listened on, the one to give the phones: IPv4 first, as the Wi-Fi's addresses are.

    >>> for_phones([("::1", 5000), ("127.0.0.1", 5000)])
    ('127.0.0.1', 5000)
    """
    return next((found for found in listening if ":" not in found[0]), listening[0])


def for_the_phones(hosts: str, host: str, port: int, behind_proxy: bool) -> tuple[str, list[str]]:
    """What the banner tells about the phones, and the addresses it gives them (none it cannot stand by).

    >>> for_the_phones("hearts.example.org", "127.0.0.1", 5000, behind_proxy=True)[1]
    ['https://hearts.example.org/']
    >>> for_the_phones("", "127.0.0.1", 5000, behind_proxy=False)[1]
    []
    """
    names = [name.strip() for name in hosts.split(",") if name.strip()]
    if behind_proxy and names:
        return _("Hearts Scorekeeper is running behind the reverse proxy. On the phones, open:"), [
            f"https://{name}/" for name in names
        ]
    if behind_proxy:
        return (_("Hearts Scorekeeper is running behind the reverse proxy: the phones open the proxy's address "
                  "(name it in SCOREKEEPER_HOSTS to see it here), not this one."), [])  # fmt: skip
    if is_loopback(host):
        return (_("Hearts Scorekeeper is running for this machine only: for the phones on the Wi-Fi, serve on every "
                  "address, --bind 0.0.0.0:%(port)d.", port=port), [])  # fmt: skip
    return _("Hearts Scorekeeper is running. On the phones at this table, open:"), phone_urls(host, port)
