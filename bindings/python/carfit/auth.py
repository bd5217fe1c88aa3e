"""Auth: the planner's token, held by the core in memory only (methods ``auth.set`` and
``auth.status``)."""

from __future__ import annotations

from typing import Optional, cast

from ._area import AreaMixin
from .documents import AuthState

__all__ = ["AuthMixin"]


class AuthMixin(AreaMixin):
    """The ``auth`` area of the C API: hand the core the planner's token, read whether the
    planner asked for one."""

    __slots__ = ()

    def auth_set(self, token: Optional[str], scheme: Optional[str] = None) -> AuthState:
        """Set the planner's token, or clear it with ``None`` (``auth.set``).

        While a token is set, every request to a configured source on one of the config's
        ``auth.origins`` (by default the origins of ``sources.visits`` and
        ``sources.visitUpdates``) carries ``Authorization: <scheme> <token>``; image requests
        never do. The core keeps the token in memory only, and forgets any 401/403 seen
        (``required``); a token also lets ``if_due`` pushes run again after a refused push.

        Args:
            token: 1 to 8192 printable ASCII characters (no blank, control character or
                non-ASCII character), or None to clear it.
            scheme: the authentication scheme, an HTTP token (default ``"Bearer"``).

        Returns:
            ``{"auth": {"token", "scheme", "required", "requiredAt", "source"}}``, never the
            token itself.

        Raises:
            InvalidError: the token or the scheme breaks those rules (field ``"token"`` or
                ``"scheme"``); nothing changed.
        """
        request = {"token": token}
        if scheme is not None:
            request["scheme"] = scheme
        return cast(AuthState, self._call("auth.set", request))

    def auth_status(self) -> AuthState:
        """Whether a token is set and whether a source answered 401 or 403 since it was set
        (``auth.status``): ``{"auth": {"token": bool, "scheme": str or None, "required": bool,
        "requiredAt": instant or None, "source": the first source refused or None}}``."""
        return cast(AuthState, self._call("auth.status"))
