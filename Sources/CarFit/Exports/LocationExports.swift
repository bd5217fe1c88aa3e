// Location: the washer's positions, arrivals and departures, and the trail's status. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_location_report(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("location.report", core, request, response) }
@c public func carfit_location_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("location.status", core, request, response) }
