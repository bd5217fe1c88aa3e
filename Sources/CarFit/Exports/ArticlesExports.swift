// Articles: the news feed, offline first. Each export is one line: the operation named in `Manifest` by the boundary.

@c public func carfit_articles_import(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("articles.import", core, request, response) }
@c public func carfit_articles_refresh(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("articles.refresh", core, request, response) }
@c public func carfit_articles_list(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("articles.list", core, request, response) }
@c public func carfit_articles_format_date(_ core: OpaquePointer?, _ request: CarfitRequest?, _ response: CarfitResponse?) -> Int32 { Boundary.call("articles.format_date", core, request, response) }
