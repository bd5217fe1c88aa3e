"""The base of the area mixins that give :class:`carfit.Core` its typed methods, the types they
share, and the argument checks that catch mistakes the library would read another way."""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

__all__ = ["AreaMixin", "Document", "Request", "members", "document_argument", "string_list"]

#: A decoded JSON object: a result, an error, or a request built by the binding.
Document = Dict[str, Any]

#: A request or config: a dict or list (serialised to JSON), JSON text (str or UTF-8 bytes,
#: passed verbatim), or None (the library reads NULL as ``{}``).
Request = Union[Dict[str, Any], List[Any], str, bytes, None]


class AreaMixin:
    """Base of every area mixin.

    A mixin adds methods for one area of the C API (``visits``, ``calendar``, ...) and runs
    them through :meth:`_call`, which :class:`carfit.Core` implements.
    """

    __slots__ = ()

    def _call(self, method: str, request: Request = None) -> Document:
        """Run the operation ``method`` with ``request``; implemented by :class:`carfit.Core`."""
        raise NotImplementedError

    def _call_bytes(self, symbol: str, request: Document) -> Tuple[bytes, Document]:
        """Run a bytes-out function (``carfit_images_data``, ``carfit_visits_attachment_data``):
        the bytes and the answer; implemented by :class:`carfit.Core`."""
        raise NotImplementedError


def members(**values: Any) -> Document:
    """The request object of ``values``, leaving out the members that are None."""
    return {key: value for key, value in values.items() if value is not None}


def string_list(name: str, values: Optional[Iterable[str]]) -> Optional[List[str]]:
    """``values`` as a list, refusing a lone string.

    A str is iterable, so ``dates="2020-09-10"`` would silently become ten one-character
    dates; it raises ``TypeError`` instead, naming the argument.
    """
    if values is None:
        return None
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} takes a list of strings, not one string: write {name}=[{values!r}]")
    return list(values)


def document_argument(document: Union[Document, List[Any], str, bytes], remedy: str) -> Request:
    """A document argument of an import: a dict or list (sent as JSON) or JSON text.

    A string that looks like a file path rather than JSON text raises ``ValueError`` ending
    with ``remedy`` (what to write instead): the library would read the path as bad JSON text.
    """
    if isinstance(document, (str, bytes)):
        text = document.decode("utf-8", "replace") if isinstance(document, bytes) else document
        stripped = text.strip()
        looks_like_json = stripped[:1] in ("{", "[", '"') or stripped in ("", "null", "true", "false")
        if not looks_like_json and "\n" not in stripped and (
            os.sep in stripped or stripped.endswith(".json") or os.path.exists(stripped)
        ):
            raise ValueError(
                f"{stripped!r} looks like a file path, but this method takes the document itself "
                f"(a dict, or JSON text); {remedy}"
            )
    return document
