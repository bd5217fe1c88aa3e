"""Events: the core's change feed (method ``events.wait``), an iterator over it, and the
progress callbacks of long operations built on it."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Iterator, List, Optional, TypedDict, TypeVar

from ._area import AreaMixin
from .errors import MisuseError

__all__ = ["EventsMixin", "Event", "EventBatch", "ProgressCallback"]

#: ``progress(done, total)``: bytes of the operation done so far, out of ``total``; ``total`` is
#: None while it is not known (a refresh whose server declares no length, until its body is in).
ProgressCallback = Callable[[int, Optional[int]], None]

_T = TypeVar("_T")

#: How long one wait of a progress loop lasts at most (milliseconds): how soon it sees that the
#: operation has ended.
_PROGRESS_POLL_MS = 50


class Event(TypedDict, total=False):
    """One event of the feed: ``seq``, ``kind`` (``"changed"``, ``"progress"``, ``"source"``,
    ``"image"``, ``"auth"``, ``"gap"``, ``"arrival"``, ``"departure"``) and the members of its kind."""

    seq: int
    kind: str
    areas: List[str]
    external: bool
    operation: str
    done: int
    total: int
    unit: str
    source: str
    status: str
    url: str
    httpStatus: int
    key: str
    at: str


class EventBatch(TypedDict):
    """The answer of one wait: the events (oldest first) and the seq to wait after next."""

    events: List[Event]
    last: int


class EventsMixin(AreaMixin):
    """The ``events`` area of the C API: wait for the core's events, without its lock."""

    # The newest seq a look at the feed found, so the next look reads on from there.
    __slots__ = ("_newest_seen",)

    def wait_events(self, after: int = 0, timeout: float = 1.0) -> EventBatch:
        """The events after seq ``after``, as soon as there are any (``events.wait``).

        Args:
            after: the ``last`` of the previous answer (0: from the first event).
            timeout: seconds to wait for an event, 0 to 60; 0 answers at once.

        Returns:
            ``{"events": [...], "last": seq}``: up to 256 events, oldest first, or none when
            ``timeout`` passed without one. A first ``{"kind": "gap"}`` means events were lost
            (``after`` is older than the 1024 kept, or from an earlier core): read everything
            again.

        Raises:
            MisuseError: the core is closed, or was closed by another thread while waiting.
        """
        batch: Any = self._call("events.wait", {"after": after, "timeoutMs": int(round(timeout * 1000))})
        return batch  # type: ignore[no-any-return]

    def events(self, after: int = 0, timeout: Optional[float] = None) -> Iterator[Event]:
        """The core's events from seq ``after`` on, as they happen, oldest first.

        Waits on the calling thread (other threads may use the core meanwhile). The iterator
        ends when ``timeout`` seconds pass without an event (None: it never does) or when the
        core is closed, from any thread.

        >>> for event in core.events(timeout=5):            # doctest: +SKIP
        ...     if event["kind"] == "changed": render(event["areas"])
        """
        cursor = after
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            wait = 60.0 if deadline is None else max(0.0, min(60.0, deadline - time.monotonic()))
            try:
                batch = self.wait_events(cursor, wait)
            except MisuseError:
                if getattr(self, "closed", False):
                    return
                raise
            cursor = batch["last"]
            if batch["events"]:
                if deadline is not None:
                    deadline = time.monotonic() + timeout  # type: ignore[operator]
                yield from batch["events"]
            elif deadline is not None and time.monotonic() >= deadline:
                return

    def _current_seq(self) -> int:
        """The seq of the core's newest event (0: none yet).

        Reads on from the newest seq an earlier look found (the events since then only, not the
        whole ring each time); a seq the core no longer keeps answers a gap and the kept events,
        read on as any others."""
        cursor = getattr(self, "_newest_seen", 0)
        while True:
            batch = self.wait_events(cursor, 0)
            if not batch["events"]:
                self._newest_seen = batch["last"]
                return batch["last"]
            cursor = batch["last"]

    def _with_progress(self, operation: str, progress: Optional[ProgressCallback], run: Callable[[], _T]) -> _T:
        """``run()``, telling ``progress`` of the operation's ``progress`` events.

        Without a callback, ``run`` runs here. With one, it runs on a thread of the binding
        while the calling thread waits for the core's events and calls ``progress(done,
        total)`` itself: the callback runs on the caller's thread, never on one of the
        library's. The last call, once the operation succeeded, has ``done == total``; an
        operation of 1 MiB or less makes none. An exception from the callback stops the calls
        and is raised once the operation has ended (it cannot be stopped midway).
        """
        if progress is None:
            return run()
        cursor = self._current_seq()
        outcome: List[Any] = []

        def worker() -> None:
            try:
                outcome.append((True, run()))
            except BaseException as exc:  # handed to the caller's thread
                outcome.append((False, exc))

        thread = threading.Thread(target=worker, name=f"carfit {operation}", daemon=True)
        thread.start()
        failure: Optional[BaseException] = None
        finished = False
        while not finished:
            finished = not thread.is_alive()
            # Once the operation has ended, one more look at once collects its last events.
            batch = self.wait_events(cursor, 0 if finished else _PROGRESS_POLL_MS / 1000)
            cursor = batch["last"]
            for event in batch["events"]:
                if failure is None and event.get("kind") == "progress" and event.get("operation") == operation:
                    try:
                        total = event.get("total")
                        progress(int(event["done"]), None if total is None else int(total))
                    except BaseException as exc:
                        failure = exc
            if batch["events"] and finished:
                finished = False  # more may follow: look again until a look finds none
        thread.join()
        self._newest_seen = max(getattr(self, "_newest_seen", 0), cursor)
        ok, value = outcome[0]
        if failure is not None:
            raise failure
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]
