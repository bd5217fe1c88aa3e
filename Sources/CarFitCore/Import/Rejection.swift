/// A record of an import that failed validation: skipped, and reported by its index.
public struct Rejection: Error, Sendable, Equatable {
    public var index: Int
    public var field: String?
    public var message: String

    public init(index: Int, field: String?, message: String) {
        self.index = index
        self.field = field
        self.message = message
    }
}
