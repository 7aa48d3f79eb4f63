"""A built site served on the loopback interface (:func:`serve`), and the Chromium that reads it
(:func:`find_chromium`, :data:`CHROMIUM_ARGS`): shared by the browser tests and the scripts
that measure or photograph the built pages."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Flags for a headless browser that must not phone home: no sandbox (CI runs as root), no GPU,
no QUIC, no first-run, background-networking, component-update or sync traffic."""


def find_chromium() -> str | None:
    """Debian's Chromium on the ``PATH`` (``scripts/install-chromium.sh`` installs it), or
    ``None``."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass(frozen=True)
class ServedSite:
    """A built site folder and the loopback address it is served at (ends with '/')."""

    root: Path
    url: str

    def address(self, path: str) -> str:
        """The absolute address of a site path such as ``compare/`` or ``variants/x/#id``."""
        return self.url + path.lstrip("/")

    def path_of(self, address: str) -> str:
        """The site path of an absolute address on this site, without query or fragment."""
        parts = urlsplit(address)
        return parts.path.lstrip("/")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request log: the tests report what matters."""


@contextmanager
def serve(root: Path) -> Iterator[ServedSite]:
    """Serve ``root`` on 127.0.0.1 at a free port, in a background thread."""
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield ServedSite(root, f"http://{host!s}:{port}/")
    finally:
        server.shutdown()
        server.server_close()
