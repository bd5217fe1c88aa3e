// Reminders: the time to leave for each open visit of a day. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_reminders_list(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
