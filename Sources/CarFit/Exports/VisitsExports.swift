// Visits: import, list, refresh and plan of the washer's day, and the washer's state changes. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

/// The `const char *request` and `char **response` parameters of every operation.
public typealias CarfitRequest = UnsafePointer<CChar>
public typealias CarfitResponse = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

@c public func carfit_visits_import(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_list(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_refresh(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_plan(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_set_state(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_acknowledge(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_attach(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_attachments(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_detach(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_visits_attachment_data(_ core: OpaquePointer?, _ request: CarfitRequest?, _ bytes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ length: UnsafeMutablePointer<UInt>?, _ response: CarfitResponse?) -> Int32 { Boundary.binary(core, request, bytes, length, response) }
