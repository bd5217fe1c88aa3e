// Sync: the washer's updates pushed to the update server, and the sync status. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_sync_push(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
@c public func carfit_sync_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
