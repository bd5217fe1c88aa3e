/// One header line of a request or a response: its name as written and its value without the
/// surrounding blanks. Names compare without regard to case (`matches`), as HTTP says.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Whether this header is called `name`, ignoring ASCII case.
    public func matches(_ name: String) -> Bool {
        self.name.utf8.count == name.utf8.count
            && zip(self.name.utf8, name.utf8).allSatisfy { HTTPHeader.lower($0) == HTTPHeader.lower($1) }
    }

    /// Whether the name is an HTTP token and the value holds no line break or NUL: a header
    /// that cannot smuggle a second header or end the request's head early.
    public var isWellFormed: Bool {
        !name.isEmpty && name.utf8.allSatisfy(HTTPHeader.isTokenByte)
            && !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    /// The header line libcurl takes: `Name: value`.
    var line: String { "\(name): \(value)" }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
