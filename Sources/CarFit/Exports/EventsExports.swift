// Events: the change feed, waited for without the core's lock. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_events_wait(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
