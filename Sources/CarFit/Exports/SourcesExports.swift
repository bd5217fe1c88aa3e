// Sources: the refresh state of every configured source, offline first. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_sources_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
