// Section 9 of the contract: the washer's day plan.

@c public func carfit_visits_plan(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("visits.plan", core, request, response)
}
