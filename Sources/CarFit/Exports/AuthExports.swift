// Auth: the planner's credentials, held in memory only. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_auth_set(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("auth.set", core, request, response) }
@c public func carfit_auth_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("auth.status", core, request, response) }
