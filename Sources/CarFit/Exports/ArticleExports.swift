// Section 7 of the contract, and the refresh of section 3: each export hands its request to the
// shared boundary routine.

@c public func carfit_visits_refresh(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("visits.refresh", core, request, response)
}

@c public func carfit_articles_import(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("articles.import", core, request, response)
}

@c public func carfit_articles_refresh(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("articles.refresh", core, request, response)
}

@c public func carfit_articles_list(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("articles.list", core, request, response)
}

@c public func carfit_articles_format_date(_ core: OpaquePointer?, _ request: UnsafePointer<CChar>?, _ response: CarfitResponse?) -> Int32 {
    Boundary.call("articles.format_date", core, request, response)
}
