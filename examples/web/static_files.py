"""The web app's page: GET / and /static/<file>, the files under static/ and nothing else."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any

STATIC = Path(__file__).resolve().parent / "static"


def serve(request: Any, name: str) -> None:
    """Answer the file static/<name> (a path that leaves static/ is not found). The request is
    web_server.Handler (answer, refuse)."""
    root = STATIC.resolve()
    target = (root / name).resolve()
    if root not in target.parents or not target.is_file():
        request.refuse(404, "not_found", "There is no such file.")
        return
    content_type = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
    if content_type.startswith("text/") or content_type.endswith("javascript"):
        content_type += "; charset=utf-8"
    request.answer(200, content_type, target.read_bytes())
