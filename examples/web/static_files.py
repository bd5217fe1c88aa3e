"""The web app's page: GET / and /static/<file>, the files under static/ (its modules/ too)
and nothing else."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parent / "static"

#: Types the page cannot do without, whatever the system's MIME table says: a browser runs a
#: module script (<script type="module">, import) only when it is served as JavaScript.
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".html": "text/html"}


def serve(request: Any, name: str) -> None:
    """Answer the file static/<name> (a path that leaves static/ is not found). The request is
    web_server.Handler (answer, refuse)."""
    root = STATIC.resolve()
    target = (root / name).resolve()
    if root not in target.parents or not target.is_file():
        request.refuse(404, "not_found", "There is no such file.")
        return
    content_type = (TYPES.get(target.suffix.lower()) or mimetypes.guess_type(target.name)[0]
                    or "application/octet-stream")
    if content_type.startswith("text/") or content_type.endswith("javascript"):
        content_type += "; charset=utf-8"
    request.answer(200, content_type, target.read_bytes())
