// Visits: import, list, refresh and plan of the washer's day, and the washer's state changes. Each export is one line: the operation named in `Manifest` by the boundary.

/// The `const char *request` and `char **response` parameters of every operation.
public typealias CarfitRequest = UnsafePointer<CChar>
public typealias CarfitResponse = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

@c public func carfit_visits_import(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.import", core, request, response) }
@c public func carfit_visits_list(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.list", core, request, response) }
@c public func carfit_visits_refresh(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.refresh", core, request, response) }
@c public func carfit_visits_plan(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.plan", core, request, response) }
@c public func carfit_visits_set_state(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.set_state", core, request, response) }
@c public func carfit_visits_attach(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.attach", core, request, response) }
@c public func carfit_visits_attachments(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.attachments", core, request, response) }
@c public func carfit_visits_detach(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("visits.detach", core, request, response) }
