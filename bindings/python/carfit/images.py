"""Carousel and images: the pattern pool, the feed, and the image pipeline (methods
``patterns.*``, ``carousel.*``, ``images.*``, and ``carfit_images_data``)."""

from __future__ import annotations

from typing import Any, Iterable, List, Optional, Tuple, Union, cast

from ._area import AreaMixin, Document, document_argument, members, string_list
from ._generated import (
    CarouselGenerateResult,
    ImagesCancelResult,
    ImagesDataResult,
    ImagesPrefetchResult,
    ImagesStatsResult,
    PatternsImportResult,
    PatternsRefreshResult,
)

__all__ = ["ImagesMixin"]


class ImagesMixin(AreaMixin):
    """The carousel and image areas of the C API.

    It runs through :meth:`_call`, and :meth:`_call_bytes` for ``carfit_images_data``.
    """

    __slots__ = ()

    # -- feed ---------------------------------------------------------------------------------

    def refresh_patterns(self, count: Optional[int] = None, max_age_seconds: Optional[int] = None) -> PatternsRefreshResult:
        """Add ``count`` (1..100, default 10) answers of ``sources.patterns`` to the pool
        (``patterns.refresh``): ``{"added", "pool", "failed"}``; raises
        :class:`~carfit.UnavailableError` only when every request failed."""
        return cast(PatternsRefreshResult, self._call("patterns.refresh", members(count=count, maxAgeSeconds=max_age_seconds) or None))

    def import_patterns(self, document: Union[List[Any], Document, str, bytes]) -> PatternsImportResult:
        """Add patterns to the carousel's pool (``patterns.import``).

        Args:
            document: the colourlovers ``patterns/random`` array ``[{"imageUrl", "title",
                "colors"}, ...]``, or ``{"patterns": [...]}``.

        Returns:
            ``{"imported": n, "rejected": [{"index", "field", "message"}], "pool": size}``.

        Raises:
            InvalidError: an object without a ``patterns`` array; nothing changes.
        """
        return cast(PatternsImportResult, self._call("patterns.import", document_argument(document, "pass json.load(open(path)) for a file")))

    def generate_carousel(self, rows: int, columns: int, seed: Optional[int] = None) -> CarouselGenerateResult:
        """The carousel feed (``carousel.generate``): ``rows`` × ``columns`` tiles (1–1000 each).

        Returns:
            ``{"rows": [{"index", "title", "tiles": [{"id": "r0c0", "title", "color":
            "#RRGGBB", "imageUrl": url or None}]}]}``, the same for the same ``seed`` (0 when
            None); images come round robin from the pattern pool.

        Raises:
            InvalidError: rows or columns out of range, or a seed that is not an integer.
        """
        return cast(CarouselGenerateResult, self._call("carousel.generate", members(rows=rows, columns=columns, seed=seed)))

    # -- images -------------------------------------------------------------------------------

    def image(self, url: str) -> Tuple[bytes, ImagesDataResult]:
        """Load an image from memory, disk or the network (``carfit_images_data``).

        Blocks until the image is there (the GIL is released meanwhile); a load of the same URL
        already in progress, a prefetch too, is shared.

        Returns:
            ``(data, info)``: the image's bytes and ``{"url", "bytes", "source": "memory" |
            "disk" | "network", "contentType"}``.

        Raises:
            InvalidError: not an http(s) URL, or the body is not a PNG, JPEG, GIF or WebP image.
            UnavailableError: unreachable, timed out, or a status other than 2xx.
            MisuseError: the core is closed (also when it closes during the load).
        """
        data, document = self._call_bytes("carfit_images_data", {"url": url})
        return data, cast(ImagesDataResult, document)

    def image_data(self, url: str) -> bytes:
        """The bytes of the image at ``url``; see :meth:`image`."""
        return self.image(url)[0]

    def prefetch_images(self, urls: Iterable[str], priority: Optional[str] = None) -> ImagesPrefetchResult:
        """Queue images for background loading (``images.prefetch``); returns at once.

        Args:
            urls: image URLs, loaded in this order within a priority.
            priority: ``"low"``, ``"normal"`` (None) or ``"high"``.

        Returns:
            ``{"queued": n}``: URLs in memory or already loading are not queued.
        """
        return cast(ImagesPrefetchResult, self._call("images.prefetch", members(urls=string_list("urls", urls), priority=priority)))

    def cancel_images(self, urls: Iterable[str]) -> ImagesCancelResult:
        """Drop queued prefetches not yet started (``images.cancel``); ``{"cancelled": n}``."""
        return cast(ImagesCancelResult, self._call("images.cancel", {"urls": string_list("urls", urls)}))

    def image_stats(self) -> ImagesStatsResult:
        """The caches and counters (``images.stats``): ``{"memory", "disk", "requests", "prefetch"}``."""
        return cast(ImagesStatsResult, self._call("images.stats"))
