// Events: the change feed, waited for without the core's lock. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_events_wait(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("events.wait", core, request, response) }
