# The production server for `make run`; see README.md.
import os

wsgi_app = "scorekeeper:create_app()"
bind = os.environ.get("BIND", "0.0.0.0:5000")
workers = int(os.environ.get("WORKERS", "2"))
threads = int(os.environ.get("THREADS", "4"))
# The schema is created once, before the workers fork.
preload_app = True
# Phones poll every second: keep their connections open between polls.
keepalive = 10
accesslog = "-" if os.environ.get("ACCESS_LOG") else None


def when_ready(server):
    from scorekeeper.lan import phone_urls
    from scorekeeper.qr import qr_text

    host, port = server.LISTENERS[0].sock.getsockname()[:2]  # the port bound, also when BIND asks for 0
    urls = phone_urls(host, port)
    print("\nHearts Scorekeeper is running. On the phones at this table, open:", flush=True)
    for url in urls:
        print(f"    {url}", flush=True)
    print(f"or scan this code:\n{qr_text(urls[0])}(Ctrl+C stops the server.)\n", flush=True)
