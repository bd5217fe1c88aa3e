// Report: time on the job, the day's time report and the durations learned from finished visits. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_report_day(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_report_durations(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
