// Catalog and cart: the wine club's products, carts and orders. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_catalog_import(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("catalog.import", core, request, response) }
@c public func carfit_catalog_refresh(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("catalog.refresh", core, request, response) }
@c public func carfit_catalog_list(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("catalog.list", core, request, response) }
@c public func carfit_catalog_product(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("catalog.product", core, request, response) }
@c public func carfit_cart_add(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("cart.add", core, request, response) }
@c public func carfit_cart_update(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("cart.update", core, request, response) }
@c public func carfit_cart_remove(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("cart.remove", core, request, response) }
@c public func carfit_cart_get(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("cart.get", core, request, response) }
@c public func carfit_cart_checkout(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("cart.checkout", core, request, response) }
@c public func carfit_cart_orders(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("cart.orders", core, request, response) }
