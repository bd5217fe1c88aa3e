// Employees and the session: who works in the shop and who is logged in. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_employees_create(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("employees.create", core, request, response) }
@c public func carfit_employees_list(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("employees.list", core, request, response) }
@c public func carfit_employees_recover_pin(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("employees.recover_pin", core, request, response) }
@c public func carfit_session_login(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("session.login", core, request, response) }
@c public func carfit_session_logout(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("session.logout", core, request, response) }
@c public func carfit_session_get(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("session.get", core, request, response) }
