/// The credentials a host hands the core for the planner's back end: a token and the scheme
/// it is sent under (`Authorization: <scheme> <token>`). Both are checked (`isToken`,
/// `isScheme`) so that neither can break the header line it becomes: the token is 1 to 8192 printable ASCII
/// characters (0x21-0x7E: no blank, control character or line break), the scheme an HTTP token.
///
/// Error messages never repeat the token.
public struct AuthCredentials: Sendable, Equatable {
    public var token: String
    public var scheme: String

    /// The longest token accepted, in bytes.
    public static let maxTokenBytes = 8192
    /// The longest scheme accepted, in bytes.
    public static let maxSchemeBytes = 8192
    /// The scheme used when the request names none.
    public static let defaultScheme = "Bearer"

    public init(token: String, scheme: String = AuthCredentials.defaultScheme) {
        self.token = token
        self.scheme = scheme
    }

    /// 1 to `maxTokenBytes` bytes, each 0x21-0x7E.
    public static func isToken(_ text: String) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= maxTokenBytes && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// An RFC 9110 token of 1 to `maxSchemeBytes` bytes.
    public static func isScheme(_ text: String) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= maxSchemeBytes && bytes.allSatisfy(isTokenByte)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
