"""Articles (the offline-first news feed) and refreshing visits from the configured source."""

from __future__ import annotations

from typing import Any


class ArticlesMixin:
    """Typed methods for section 7 of the contract and ``visits.refresh``; mixed into ``Core``."""

    __slots__ = ()

    # _call(method, request) -> dict is provided by Core.

    def import_articles(self, document: dict) -> dict:
        """Replace the stored articles with a Cars API document; returns imported, rejected, updatedAt."""
        return self._call("articles.import", document)

    def refresh_articles(self) -> dict:
        """Fetch sources.articles and import it; raises UnavailableError and keeps the cache on failure."""
        return self._call("articles.refresh", None)

    def list_articles(self, hour24: bool | None = None) -> dict:
        """The cached articles, newest first, and updatedAt (None before the first import)."""
        return self._call("articles.list", {} if hour24 is None else {"hour24": hour24})

    def format_article_date(self, date: str, hour24: bool | None = None) -> str:
        """The list's date text for an ISO 8601 instant ("16 March, 12:34", "20 December 2017, 21:43")."""
        request: dict[str, Any] = {"date": date}
        if hour24 is not None:
            request["hour24"] = hour24
        return self._call("articles.format_date", request)["text"]

    def refresh_visits(self) -> dict:
        """Fetch sources.visits and import it; raises UnavailableError and keeps the visits on failure."""
        return self._call("visits.refresh", None)
