// Section 3 of the contract: each export hands its request to the shared boundary routine.

public typealias CarfitResponse = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>

@c public func carfit_visits_import(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("visits.import", core, request, response)
}

@c public func carfit_visits_list(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("visits.list", core, request, response)
}
