/// Why the image pipeline's directory cannot be used; the caller turns it into its own error.
public struct ImageDirectoryError: Error, Sendable, Equatable {
    /// The directory, or where a temporary one was to be made.
    public var path: String
    /// What went wrong, one sentence.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
}
