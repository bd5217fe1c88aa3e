// Sync: the washer's updates pushed to the update server, and the sync status. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_sync_push(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("sync.push", core, request, response) }
@c public func carfit_sync_status(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("sync.status", core, request, response) }
