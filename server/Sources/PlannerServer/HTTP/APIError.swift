import Hummingbird

/// A request the API refuses: its HTTP status, a message, and for a 400 about one member, the
/// member. Answered as `{"error": {"status", "message", "field"?}}`.
public struct APIError: Error, Sendable {
    public var status: HTTPResponse.Status
    public var message: String
    public var field: String?
    /// Extra headers (`WWW-Authenticate` for a 401).
    public var headers: HTTPFields = [:]
    /// Whether the connection closes after the answer (a body not read).
    public var close = false
    /// Whether the request's body is still unread (a refusal before the body).
    var unread = false

    public init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    public static func badRequest(_ message: String, field: String? = nil) -> APIError {
        APIError(.badRequest, message, field: field)
    }

    public static func unauthorized() -> APIError {
        var error = APIError(.unauthorized, "The bearer token is missing or unknown.")
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }

    public static func forbidden(_ message: String) -> APIError { APIError(.forbidden, message) }

    var document: JSON {
        var error: [String: JSON] = ["status": .int(Int64(status.code)), "message": .string(message)]
        if let field { error["field"] = .string(field) }
        return .object(["error": .object(error)])
    }

    var response: Response {
        var response = Response.json(document, status: status)
        for field in headers { response.headers.append(field) }
        if close { response.headers[.connection] = "close" }
        return response
    }

    init(_ refusal: StoreRefusal) {
        switch refusal {
        case .clientOfAnotherWasher: self.init(.forbidden, "This clientId belongs to another washer.")
        case .conflict(let message): self.init(.conflict, message)
        case .notFound(let message): self.init(.notFound, message)
        case .invalid(let field, let message): self.init(.badRequest, message, field: field)
        }
    }
}

extension Response {
    /// A JSON answer.
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: value.text)))
    }
}
