"""Employees and the PIN session (methods ``employees.*`` and ``session.*``)."""

from __future__ import annotations

from typing import Optional, cast

from ._area import AreaMixin, members
from ._generated import (
    EmployeesCreateResult,
    EmployeesListResult,
    EmployeesRecoverPinResult,
    SessionGetResult,
    SessionLoginResult,
    SessionLogoutResult,
)

__all__ = ["EmployeesMixin"]


class EmployeesMixin(AreaMixin):
    """The ``employees`` and ``session`` areas of the C API."""

    __slots__ = ()

    def create_employee(self, pin: str, first_name: str, last_name: str,
                        email: Optional[str] = None, hired_on: Optional[str] = None) -> EmployeesCreateResult:
        """Create an employee (``employees.create``): ``{"employee": {...}}``.

        Raises:
            InvalidError: a member is missing or malformed (``field`` names it).
            ConflictError: the PIN, the last name or the email is taken (``field`` names it).
        """
        request = members(pin=pin, firstName=first_name, lastName=last_name, email=email, hiredOn=hired_on)
        return cast(EmployeesCreateResult, self._call("employees.create", request))

    def list_employees(self) -> EmployeesListResult:
        """All employees by last then first name, each with its ``cartQuantity``
        (``employees.list``): ``{"employees": [...]}``."""
        return cast(EmployeesListResult, self._call("employees.list"))

    def recover_pin(self, email: str) -> EmployeesRecoverPinResult:
        """The PIN and names of the employee with that email (``employees.recover_pin``):
        ``{"pin", "firstName", "lastName"}``; NotFoundError for an unknown email."""
        return cast(EmployeesRecoverPinResult, self._call("employees.recover_pin", {"email": email}))

    def login(self, pin: str) -> SessionLoginResult:
        """Log in by PIN on this core (``session.login``): ``{"employee": {...}}``.

        Raises:
            UnauthorizedError: a wrong PIN, or logins locked after five failures.
        """
        return cast(SessionLoginResult, self._call("session.login", {"pin": pin}))

    def logout(self) -> SessionLogoutResult:
        """Log out (``session.logout``): ``{"employee": None}``."""
        return cast(SessionLogoutResult, self._call("session.logout"))

    def current_employee(self) -> SessionGetResult:
        """The logged-in employee (``session.get``): ``{"employee": {...} or None}``."""
        return cast(SessionGetResult, self._call("session.get"))
