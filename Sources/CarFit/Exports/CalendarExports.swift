// Calendar: the month grid that drives the visits list. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_calendar_get(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("calendar.get", core, request, response) }
@c public func carfit_calendar_next(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("calendar.next", core, request, response) }
@c public func carfit_calendar_previous(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("calendar.previous", core, request, response) }
@c public func carfit_calendar_select(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("calendar.select", core, request, response) }
@c public func carfit_calendar_month(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("calendar.month", core, request, response) }
