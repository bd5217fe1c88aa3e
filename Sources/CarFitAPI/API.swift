import CarFitCore
import CarFitIO

/// A request of one operation, decoded from its request document: every member read, typed
/// and checked, the first offending one named in the `invalid` error.
public protocol APIRequest {
    init(_ request: Fields) throws(CarFitError)
}

/// A response of one operation: a typed value that writes its own JSON document.
public protocol APIResponse {
    var json: JSON { get }
}

/// An operation's answer that is nothing but a document built elsewhere (a cached one).
public struct Document: APIResponse {
    public let json: JSON
    public init(_ json: JSON) { self.json = json }
}
