// Sources: the refresh state of every configured source, offline first. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_sources_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("sources.status", core, request, response) }
