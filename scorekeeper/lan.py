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


def phone_urls(port: int) -> list[str]:
    return [f"http://{address}:{port}/" for address in lan_addresses()] or [f"http://localhost:{port}/"]
