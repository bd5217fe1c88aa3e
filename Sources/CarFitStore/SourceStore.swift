import CarFitCore

/// Each source's refresh state (`source_state`): the validators of the last stored 200, the
/// last attempt, success and error, and the failures in a row. Every write is one statement.
public struct SourceStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// One source's stored state; a source never refreshed has none.
    public struct State: Sendable, Equatable {
        public var validatorsURL: String?
        public var etag: String?
        public var lastModified: String?
        public var lastAttempt: Instant?
        public var lastSuccess: Instant?
        public var notModified = false
        public var consecutiveFailures: Int64 = 0
        public var errorReason: String?
        public var errorMessage: String?
        public var errorAt: Instant?
        public var errorStatus: Int64?

        public init() {}
    }

    /// The last failure, as stored.
    public struct Failure: Sendable {
        public var reason: String
        public var message: String
        public var httpStatus: Int64?
        /// A failure of the connection itself (refused, timeout, dns, network).
        public var isNetwork: Bool

        public init(reason: String, message: String, httpStatus: Int64?, isNetwork: Bool) {
            self.reason = reason
            self.message = message
            self.httpStatus = httpStatus
            self.isNetwork = isNetwork
        }
    }

    public func state(_ name: String) throws(CarFitError) -> State? {
        let s = try db.statement("""
            SELECT validators_url, etag, last_modified, last_attempt_ms, last_success_ms, not_modified,
                   consecutive_failures, error_reason, error_message, error_ms, error_status
            FROM source_state WHERE name = ?1
            """)
        defer { s.reset() }
        try s.bind(1, name)
        guard try s.step() else { return nil }
        var state = State()
        state.validatorsURL = s.text(0)
        state.etag = s.text(1)
        state.lastModified = s.text(2)
        state.lastAttempt = s.int(3).map(Instant.init(milliseconds:))
        state.lastSuccess = s.int(4).map(Instant.init(milliseconds:))
        state.notModified = s.int(5) == 1
        state.consecutiveFailures = s.int(6) ?? 0
        state.errorReason = s.text(7)
        state.errorMessage = s.text(8)
        state.errorAt = s.int(9).map(Instant.init(milliseconds:))
        state.errorStatus = s.int(10)
        return state
    }

    /// A successful attempt at `at`: the error is cleared, the failures in a row reset.
    /// `validators` (a 200 that was stored) replace the stored ones; nil (a 304, a success
    /// without a document) keeps them.
    public func recordSuccess(_ name: String, at: Instant, notModified: Bool,
                              validators: (url: String, etag: String?, lastModified: String?)?) throws(CarFitError) {
        try db.transaction { () throws(CarFitError) in
            try ensureRow(name)
            try db.run("""
                UPDATE source_state SET last_attempt_ms = ?2, last_success_ms = ?2, not_modified = ?3,
                    consecutive_failures = 0, error_reason = NULL, error_message = NULL, error_ms = NULL,
                    error_status = NULL, success_seq = ?4
                WHERE name = ?1
                """, [.text(name), .int(at.milliseconds), .int(notModified ? 1 : 0), .int(try nextSeq())])
            if let validators {
                try db.run("UPDATE source_state SET validators_url = ?2, etag = ?3, last_modified = ?4 WHERE name = ?1",
                           [.text(name), .text(validators.url), validators.etag.map { .text($0) } ?? .null,
                            validators.lastModified.map { .text($0) } ?? .null])
            }
        }
    }

    /// A failed attempt at `at`; the validators and the last success stay.
    public func recordFailure(_ name: String, at: Instant, _ failure: Failure) throws(CarFitError) {
        try db.transaction { () throws(CarFitError) in
            try ensureRow(name)
            let seq = try nextSeq()
            try db.run("""
                UPDATE source_state SET last_attempt_ms = ?2, consecutive_failures = consecutive_failures + 1,
                    error_reason = ?3, error_message = ?4, error_ms = ?2, error_status = ?5
                WHERE name = ?1
                """, [.text(name), .int(at.milliseconds), .text(failure.reason), .text(failure.message),
                      failure.httpStatus.map { .int($0) } ?? .null])
            if failure.isNetwork {
                try db.run("UPDATE source_state SET network_failure_seq = ?2 WHERE name = ?1", [.text(name), .int(seq)])
            }
        }
    }

    /// Forgets a source's validators: its next refresh is unconditional (after a host import
    /// of that area replaced what they describe).
    public func dropValidators(_ name: String) throws(CarFitError) {
        try db.run("UPDATE source_state SET validators_url = NULL, etag = NULL, last_modified = NULL WHERE name = ?1",
                   [.text(name)])
    }

    /// Whether the latest network failure of any source came after every success since.
    public func offline() throws(CarFitError) -> Bool {
        let failure = try db.scalarInt("SELECT max(network_failure_seq) FROM source_state") ?? 0
        let success = try db.scalarInt("SELECT max(success_seq) FROM source_state") ?? 0
        return failure > success
    }

    private func ensureRow(_ name: String) throws(CarFitError) {
        try db.run("INSERT OR IGNORE INTO source_state (name) VALUES (?1)", [.text(name)])
    }

    /// The next number in the order of every source's attempts.
    private func nextSeq() throws(CarFitError) -> Int64 {
        let last = try db.scalarInt("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'sources.attempts'") ?? 0
        let next = last < Int64.max ? last + 1 : last
        try db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('sources.attempts', ?1)", [.text(String(next))])
        return next
    }
}
