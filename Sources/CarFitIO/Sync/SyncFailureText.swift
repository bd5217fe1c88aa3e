import CarFitCore

/// A push's last failure as the database keeps it (`sync_state.last_error`): the JSON text
/// `{"reason", "message", "at", "httpStatus"}`, `at` as UTC text, `httpStatus` null without an
/// answer.
extension SyncFailure {
    /// The stored text.
    public var storedText: String {
        JSON.obj(["reason": .string(reason), "message": .string(message), "at": .string(at.iso),
                  "httpStatus": httpStatus.map { .int(Int64($0)) } ?? .null]).encoded()
    }

    /// The failure a stored text tells, nil for a text that is not one (a damaged row reads as
    /// no failure).
    public init?(storedText text: String) {
        guard case .success(let json) = JanssonParser.parse(bytes: Array(text.utf8)), let o = json.objectValue,
              case .string(let reason)? = o["reason"], case .string(let message)? = o["message"],
              case .string(let atText)? = o["at"], let at = Instant(iso: atText) else { return nil }
        var status: Int?
        if case .int(let n)? = o["httpStatus"] { status = Int(clamping: n) }
        self.init(reason: reason, message: message, at: at, httpStatus: status)
    }
}
