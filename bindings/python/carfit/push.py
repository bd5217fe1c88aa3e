"""Push: the planner's changes, by push (methods ``push.receive``, ``push.register`` and
``push.status``)."""

from __future__ import annotations

from typing import Any, Mapping, Optional, cast

from ._area import AreaMixin, members
from ._generated import PushReceiveResult, PushRegisterResult, PushStatusResult

__all__ = ["PushMixin"]


class PushMixin(AreaMixin):
    """The ``push`` area of the C API: receive the planner's pushes, register the device's push
    token, read the push status."""

    __slots__ = ()

    def receive_push(self, payload: Mapping[str, Any], refresh: Optional[bool] = None) -> PushReceiveResult:
        """Hand the core a push as the host received it (``push.receive``).

        Args:
            payload: the push's payload (APNs ``userInfo``, FCM ``data``); the core reads its
                ``carfit`` member, an object or a string holding one.
            refresh: False never contacts the visits source (default True: a push of kind
                ``visits``, or one after lost pushes, refreshes the visits).

        Returns:
            ``{"duplicate", "gap", "refreshed", "refreshError", "changes", "notifications"}``.
            A failed refresh does not fail the push: its error document is ``refreshError``.

        Raises:
            InvalidError: the payload is not a push of the planner's; ``field`` names the
                member (``payload.carfit.kind``, ...). Nothing is recorded.
            NotFoundError: a push of kind ``visit`` whose occurrence is unknown.
        """
        if not isinstance(payload, Mapping):
            raise TypeError(f"payload must be a mapping, not {type(payload).__name__}")
        return cast(PushReceiveResult, self._call("push.receive", members(payload=dict(payload), refresh=refresh)))

    def register_push(self, platform: Optional[str], token: Optional[str]) -> PushRegisterResult:
        """Register the device's push token (``push.register``): ``platform`` ``"apns"`` or
        ``"fcm"``; a ``token`` of None unregisters. :meth:`push` sends it to
        ``sources.devices``. Returns ``{"device": {"platform", "registered", "pending"} | None}``."""
        request = {"token": token}
        if platform is not None:
            request["platform"] = platform
        return cast(PushRegisterResult, self._call("push.register", request))

    def push_status(self) -> PushStatusResult:
        """The device's registration, the highest ``seq`` received and the number of push ids
        kept (``push.status``): ``{"device", "lastSeq", "received"}``."""
        return cast(PushStatusResult, self._call("push.status"))
