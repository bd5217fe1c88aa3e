// Storage: encryption at rest. Each export is one line: the boundary finds its operation in `Manifest` by the function's own name.

@c public func carfit_storage_rekey(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.export(core, request, response) }
