import CarFitCore

/// The planner's pushes as the core keeps them: the ids of the last pushes received (to answer
/// a repeated one once only), the highest `seq` received, and the device's registration with
/// the revision the devices server acknowledged.
public struct PushStore {
    let db: Database

    public init(_ db: Database) { self.db = db }

    /// How many received push ids are kept.
    public static let keptIds = 1000

    /// The device's registration as stored.
    public struct Device: Sendable, Equatable {
        /// "apns" or "fcm"; the last one after an unregistration; nil when never registered.
        public var platform: String?
        /// nil: unregistered (or never registered).
        public var token: String?
        /// Counts the record's changes.
        public var revision: Int64
        /// The revision the devices server took.
        public var acknowledged: Int64

        public init(platform: String? = nil, token: String? = nil, revision: Int64 = 0, acknowledged: Int64 = 0) {
            self.platform = platform
            self.token = token
            self.revision = revision
            self.acknowledged = acknowledged
        }

        /// The record changed since the devices server last took it.
        public var pending: Bool { revision > acknowledged }
    }

    /// Whether a push with `id` was received (among the last `keptIds`).
    public func received(_ id: String) throws(CarFitError) -> Bool {
        try db.scalarInt("SELECT count(*) FROM push_received WHERE id = ?1", [.text(id)]) ?? 0 > 0
    }

    /// How many push ids are kept.
    public func receivedCount() throws(CarFitError) -> Int {
        Int(try db.scalarInt("SELECT count(*) FROM push_received") ?? 0)
    }

    /// The highest `seq` received, or nil.
    public func lastSeq() throws(CarFitError) -> Int64? {
        try db.scalarInt("SELECT last_seq FROM push_state WHERE id = 1")
    }

    /// Records a received push: its id (the oldest beyond `keptIds` forgotten) and its `seq`
    /// when it is above the highest. False, with nothing written, when the id was recorded
    /// meanwhile (by another connection).
    public func record(id: String, seq: Int64?) throws(CarFitError) -> Bool {
        try db.transaction { () throws(CarFitError) -> Bool in
            guard try !received(id) else { return false }
            try db.run("INSERT INTO push_received (id) VALUES (?1)", [.text(id)])
            try db.run("""
                DELETE FROM push_received WHERE seq <= (SELECT max(seq) FROM push_received) - ?1
                """, [.int(Int64(PushStore.keptIds))])
            if let seq {
                try ensureState()
                try db.run("UPDATE push_state SET last_seq = ?1 WHERE id = 1 AND (last_seq IS NULL OR last_seq < ?1)",
                           [.int(seq)])
            }
            return true
        }
    }

    public func device() throws(CarFitError) -> Device {
        let rows = try db.query("SELECT platform, token, revision, acknowledged FROM push_state WHERE id = 1")
        guard let row = rows.first, row.count == 4 else { return Device() }
        func text(_ v: SQLValue) -> String? { if case .text(let t) = v { return t }; return nil }
        func int(_ v: SQLValue) -> Int64 { if case .int(let i) = v { return i }; return 0 }
        return Device(platform: text(row[0]), token: text(row[1]), revision: int(row[2]), acknowledged: int(row[3]))
    }

    /// Stores a registration (`token` nil: unregistered). Nothing changes when it is the
    /// stored record already.
    public func register(platform: String?, token: String?) throws(CarFitError) -> Device {
        try db.transaction { () throws(CarFitError) -> Device in
            var device = try device()
            let platform = platform ?? device.platform
            if device.token == token && (token == nil || device.platform == platform) { return device }
            // Unregistering a device never registered: there is nothing to tell the server.
            if token == nil && device.platform == nil { return device }
            device.platform = platform
            device.token = token
            device.revision += 1
            try ensureState()
            try db.run("UPDATE push_state SET platform = ?1, token = ?2, revision = ?3 WHERE id = 1",
                       [platform.map(SQLValue.text) ?? .null, token.map(SQLValue.text) ?? .null, .int(device.revision)])
            return device
        }
    }

    /// The devices server took the record of `revision`.
    public func acknowledge(_ revision: Int64) throws(CarFitError) {
        try ensureState()
        try db.run("UPDATE push_state SET acknowledged = ?1 WHERE id = 1 AND acknowledged < ?1", [.int(revision)])
    }

    private func ensureState() throws(CarFitError) {
        try db.run("INSERT OR IGNORE INTO push_state (id, revision, acknowledged) VALUES (1, 0, 0)")
    }
}
