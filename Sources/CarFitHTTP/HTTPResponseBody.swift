/// A response with its whole body in memory, for small answers and images: the body is at
/// most the limit the request was made with.
public struct HTTPResponseBody: Sendable, Equatable {
    public var response: HTTPResponse
    public var body: [UInt8]

    public init(response: HTTPResponse, body: [UInt8]) {
        self.response = response
        self.body = body
    }
}
