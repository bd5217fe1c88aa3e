/// One request of a push: the database's client id and at most `maxMutations` entries, oldest
/// first (its body is written in CarFitIO, `PushRequest.body`).
public struct PushRequest: Sendable, Equatable {
    /// The most mutations one request carries; a larger outbox is sent in several requests.
    public static let maxMutations = 500

    public var clientId: String
    public var mutations: [OutboxMutation]

    public init(clientId: String, mutations: [OutboxMutation]) {
        self.clientId = clientId
        self.mutations = mutations
    }

    /// The requests that send `pending` oldest first (by `sequence`; entries with the same
    /// sequence keep their order), each at most `limit` mutations (values below 1 count as 1).
    public static func batches(clientId: String, pending: [OutboxMutation], limit: Int = maxMutations) -> [PushRequest] {
        let size = max(1, limit)
        let ordered = pending.enumerated()
            .sorted { ($0.element.sequence, $0.offset) < ($1.element.sequence, $1.offset) }
            .map(\.element)
        return stride(from: 0, to: ordered.count, by: size).map { from in
            PushRequest(clientId: clientId, mutations: Array(ordered[from..<min(from + size, ordered.count)]))
        }
    }

    /// The mutation ids this request sends, in order.
    public var mutationIds: [String] { mutations.map(\.mutationId) }
}
