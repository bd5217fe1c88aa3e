// Push: the planner's pushes received, the device's registration and the push status. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_push_receive(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_push_register(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_push_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
