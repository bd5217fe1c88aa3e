"""Articles: the Cars news feed, offline first (methods ``articles.*``), and ``visits.refresh``."""

from __future__ import annotations

from typing import Any, Dict, Optional

from ._area import AreaMixin, members

__all__ = ["ArticlesMixin"]


class ArticlesMixin(AreaMixin):
    """The ``articles`` area of the C API, and refreshing visits from the configured source.

    A refresh that fails raises :class:`~carfit.UnavailableError` and leaves the stored data as
    it was; ``error.document["reason"]`` says why (``"refused"``, ``"timeout"``,
    ``"http_status"``, ``"html"``, ``"truncated"``, ``"not_json"``, ``"not_document"``, ...).
    """

    __slots__ = ()

    def import_articles(self, document: Dict[str, Any]) -> Dict[str, Any]:
        """Replace the cached articles with a Cars API document (``articles.import``).

        Returns ``{"imported": n, "rejected": [{"index", "field", "message"}], "updatedAt"}``;
        raises InvalidError for a document without a ``content`` array (nothing changes).
        """
        return self._call("articles.import", document)

    def refresh_articles(self) -> Dict[str, Any]:
        """Fetch ``sources.articles`` and import it (``articles.refresh``); keeps the cache on failure."""
        return self._call("articles.refresh")

    def list_articles(self, hour24: Optional[bool] = None) -> Dict[str, Any]:
        """The cached articles, newest first, and ``updatedAt`` (None before any import) (``articles.list``)."""
        return self._call("articles.list", members(hour24=hour24))

    def format_article_date(self, date: str, hour24: Optional[bool] = None) -> str:
        """The feed's date text of an ISO 8601 instant: "16 March, 12:34" or "20 December 2017, 21:43"."""
        return self._call("articles.format_date", members(date=date, hour24=hour24))["text"]

    def refresh_visits(self) -> Dict[str, Any]:
        """Fetch ``sources.visits`` and import it (``visits.refresh``); keeps the visits on failure."""
        return self._call("visits.refresh")
