// Auth: the planner's credentials, held in memory only. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_auth_set(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_auth_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
