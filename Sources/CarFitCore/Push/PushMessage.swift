/// A push of the planner's, as the core reads its `carfit` member: its id (once only), its
/// kind, its optional order number and what its kind carries.
public struct PushMessage: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// "Your day changed": the visits are refreshed.
        case visits
        /// "Drive to this visit": one occurrence.
        case visit
        /// A message of the planner's own.
        case message
    }

    public var id: String
    public var kind: Kind
    public var seq: Int64?
    /// kind `visit`: the occurrence.
    public var visitId: String?
    public var start: Instant?
    /// kind `message`.
    public var title: String?
    public var body: String?

    public init(id: String, kind: Kind, seq: Int64? = nil, visitId: String? = nil, start: Instant? = nil,
                title: String? = nil, body: String? = nil) {
        self.id = id
        self.kind = kind
        self.seq = seq
        self.visitId = visitId
        self.start = start
        self.title = title
        self.body = body
    }

    /// The version of the member's format the core reads.
    public static let version: Int64 = 1
    /// The longest payload, written as compact JSON, in bytes (the push services' own bound).
    public static let maxPayloadBytes = 4096
    public static let idLength = 1...200
    public static let titleLength = 1...100
    public static let bodyLength = 1...1000

    /// Whether `seq` shows pushes were lost after `last`, the highest received: only a seq
    /// above it plus one, and never before any was received.
    public static func isGap(seq: Int64?, last: Int64?) -> Bool {
        guard let seq, let last else { return false }
        return last < Int64.max && seq > last + 1
    }
}
