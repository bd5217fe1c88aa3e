"""Articles: the Cars news feed, offline first (methods ``articles.*``)."""

from __future__ import annotations

from typing import Optional, Union, cast

from ._area import Document, document_argument, members
from ._generated import ArticlesImportResult, ArticlesListResult, ArticlesRefreshResult
from .events import EventsMixin, ProgressCallback

__all__ = ["ArticlesMixin"]


class ArticlesMixin(EventsMixin):
    """The ``articles`` area of the C API.

    A refresh that fails raises :class:`~carfit.UnavailableError` and leaves the stored data as
    it was; ``error.document["reason"]`` says why (``"refused"``, ``"timeout"``,
    ``"http_status"``, ``"html"``, ``"truncated"``, ``"not_json"``, ``"not_document"``,
    ``"rejected"``, ...).
    """

    __slots__ = ()

    def import_articles(self, document: Union[Document, str, bytes]) -> ArticlesImportResult:
        """Replace the cached articles with a Cars API document (``articles.import``).

        Returns ``{"imported": n, "rejected": [{"index", "field", "message"}], "updatedAt"}``;
        raises InvalidError for a document without a ``content`` array, or with articles of
        which none is valid (``error.document["rejected"]`` lists them); nothing changes.
        """
        return cast(ArticlesImportResult, self._call("articles.import", document_argument(document, "pass json.load(open(path)) for a file")))

    def refresh_articles(
        self, max_age_seconds: Optional[int] = None, progress: Optional[ProgressCallback] = None
    ) -> ArticlesRefreshResult:
        """Fetch ``sources.articles`` and import it (``articles.refresh``); keeps the cache on
        failure. Conditional and ``max_age_seconds`` as :meth:`refresh_visits`.

        ``progress(done, total)`` is called on this thread with the bytes of a body of more
        than 1 MiB as it downloads, as :meth:`refresh_visits` describes: ``total`` is the
        declared length, or None until the body is in when the server declares none; the last
        call, once the articles are stored, has ``done == total``.
        """
        request = members(maxAgeSeconds=max_age_seconds) or None
        return cast(ArticlesRefreshResult, self._with_progress("articles.refresh", progress, lambda: self._call("articles.refresh", request)))

    def list_articles(self, hour24: Optional[bool] = None) -> ArticlesListResult:
        """The cached articles, newest first, and ``updatedAt`` (None before any import) (``articles.list``)."""
        return cast(ArticlesListResult, self._call("articles.list", members(hour24=hour24)))

    def format_article_date(self, date: str, hour24: Optional[bool] = None) -> str:
        """The feed's date text of an ISO 8601 instant: "16 March, 12:34" or "20 December 2017, 21:43"."""
        text: str = self._call("articles.format_date", members(date=date, hour24=hour24))["text"]
        return text
