// Transactions and insights. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_transactions_import(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("transactions.import", core, request, response) }
@c public func carfit_transactions_list(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("transactions.list", core, request, response) }
@c public func carfit_transactions_pin(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("transactions.pin", core, request, response) }
@c public func carfit_insights_get(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("insights.get", core, request, response) }
