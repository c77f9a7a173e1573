"""The addresses the phones at the table should open, printed when the server starts."""

import socket
import subprocess


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback."""
    try:
        listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout.split()
    except (OSError, subprocess.SubprocessError):
        listed = []
    if not listed:
        try:
            listed = socket.gethostbyname_ex(socket.gethostname())[2]
        except OSError:
            listed = []
    return [address for address in listed if "." in address and not address.startswith("127.")]


def phone_urls(host: str, port: int) -> list[str]:
    """Where the server bound to ``host`` answers: every LAN address when it listens on all of them.

    >>> phone_urls("127.0.0.1", 5000)
    ['http://127.0.0.1:5000/']
    >>> phone_urls("::1", 5000)
    ['http://[::1]:5000/']
    """
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"]
    return [f"http://{address}:{port}/" for address in lan_addresses()] or [f"http://localhost:{port}/"]
