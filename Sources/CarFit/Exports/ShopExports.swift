// Section 5 of the contract: each export hands its request to the shared boundary routine.

@c public func carfit_employees_create(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("employees.create", core, request, response)
}

@c public func carfit_employees_list(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("employees.list", core, request, response)
}

@c public func carfit_employees_recover_pin(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("employees.recover_pin", core, request, response)
}

@c public func carfit_session_login(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("session.login", core, request, response)
}

@c public func carfit_session_logout(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("session.logout", core, request, response)
}

@c public func carfit_session_get(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("session.get", core, request, response)
}

@c public func carfit_catalog_import(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("catalog.import", core, request, response)
}

@c public func carfit_catalog_list(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("catalog.list", core, request, response)
}

@c public func carfit_catalog_product(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("catalog.product", core, request, response)
}

@c public func carfit_cart_add(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("cart.add", core, request, response)
}

@c public func carfit_cart_update(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("cart.update", core, request, response)
}

@c public func carfit_cart_remove(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("cart.remove", core, request, response)
}

@c public func carfit_cart_get(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("cart.get", core, request, response)
}

@c public func carfit_cart_checkout(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("cart.checkout", core, request, response)
}

@c public func carfit_cart_orders(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("cart.orders", core, request, response)
}
