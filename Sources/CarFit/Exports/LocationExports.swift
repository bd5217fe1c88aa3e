// Location: the washer's positions, arrivals and departures, and the trail's status. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_location_report(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_location_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
