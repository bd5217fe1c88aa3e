/// The validated `carfit_open` configuration. Every field is checked when the core opens, also
/// the ones only later features read, so a bad value is reported at once with its field; a
/// member the library does not know (`ConfigMembers`) is refused, so a typo is never silently
/// ignored.
public struct CoreConfig: Sendable {
    public enum Weekday: String, Sendable { case monday, sunday }

    /// Where each area's refresh fetches from: absolute http or https URLs, nil when not
    /// configured.
    public struct Sources: Sendable, Equatable {
        /// The visits API (`visits.refresh`).
        public var visits: String?
        /// The news API (`articles.refresh`).
        public var articles: String?
        /// The product catalog, in either catalog shape (`catalog.refresh`).
        public var catalog: String?
        /// One random pattern per request (`patterns.refresh`).
        public var patterns: String?
        /// Where the washer's own updates are sent.
        public var visitUpdates: String?
        /// Where the washer's positions are sent (the planner).
        public var locations: String?
        /// The base URL attachments are uploaded under (`PUT <base>/<id>`).
        public var attachments: String?
    }

    /// The limits on every HTTP transfer.
    public struct HTTP: Sendable, Equatable {
        /// Connecting, and each wait for data, in milliseconds.
        public var timeoutMs: Int = 10_000
        /// The whole transfer, in milliseconds.
        public var totalTimeoutMs: Int = 120_000
        /// The limit on a body once decoded (after any gzip or deflate), in bytes.
        public var maxBodyBytes: Int64 = 268_435_456
        /// The slowest rate kept up for `timeoutMs`, in bytes per second; 0 turns it off.
        public var minBytesPerSecond: Int = 1024

        /// The defaults.
        public init() {}
    }

    public struct Images: Sendable, Equatable {
        /// nil: a temporary directory owned by the core.
        public var directory: String?
        public var memoryBytes: Int64 = 33_554_432
        public var diskBytes: Int64 = 268_435_456
        public var concurrency: Int = 4

        /// The defaults.
        public init() {}
    }

    /// Who receives the planner's token.
    public struct Auth: Sendable, Equatable {
        /// The origins whose source requests carry the token; nil when the config names none
        /// (then the origins of `sources.visits` and `sources.visitUpdates`).
        public var origins: [Origin]?
    }

    /// Where attached files are kept, and their limits.
    public struct Attachments: Sendable, Equatable {
        /// nil: the database path + "-attachments" (none for ":memory:").
        public var directory: String?
        /// The largest file an attachment may be.
        public var maxBytes: Int64 = 20 << 20
        /// The most bytes the stored attachment files take together.
        public var quotaBytes: Int64 = 1 << 30

        /// The defaults.
        public init() {}
    }

    public var database = ":memory:"
    public var now: Instant?
    public var timeZone = "UTC"
    /// The directory of TZif files `timeZone` names one of: `$TZDIR`, else `/usr/share/zoneinfo`.
    public var zoneinfo = ZoneInfo.defaultDirectory
    /// The rules of `timeZone`, read from `zoneinfo` when the config is read.
    public var zone = ZoneRules.utc
    public var hour24: Bool
    public var firstWeekday = Weekday.monday
    public var sources = Sources()
    public var http = HTTP()
    /// `http.timeoutMs`, the wait the image pipeline and the refreshes are given.
    public var timeoutMs: Int { http.timeoutMs }
    public var images = Images()
    public var auth = Auth()
    /// Positions, arrivals and departures.
    public var road = RoadConfig()
    public var attachments = Attachments()
    /// The directory attachments are kept in: `attachments.directory`, else the database path
    /// + "-attachments"; nil for an in-memory database without one.
    public var attachmentsDirectory: String? {
        attachments.directory ?? (database == ":memory:" ? nil : database + "-attachments")
    }
    /// Requests larger than this many bytes are refused (`invalid`) before parsing.
    public var maxRequestBytes: Int = 512 * 1024 * 1024
    /// Threads a large import parses on besides the calling thread: one per processor, at
    /// most 8; 0 parses on the calling thread alone.
    public var importThreads: Int

    /// The defaults, given what the host process says: whether its locale uses a 24-hour clock
    /// (`Clock.localeUses24Hour`) and how many processors it has.
    public init(hour24: Bool, processors: Int) {
        self.hour24 = hour24
        importThreads = min(8, max(0, processors))
    }

    /// Reads and validates a config object; a member not in `ConfigMembers` is `invalid`, in
    /// the config itself and inside `sources`, `http` and `images`. The defaults come from the
    /// host process (see `init(hour24:processors:)`).
    public init(_ f: Fields, localeHour24: Bool, processors: Int) throws(CarFitError) {
        self.init(hour24: localeHour24, processors: processors)
        try ConfigMembers.check(f, known: ConfigMembers.root)
        if let db = try f.string("database") {
            guard !db.isEmpty, !db.utf8.contains(0) else { throw .invalid("database", "database must be a file path or \":memory:\".") }
            database = db
        }
        if let text = try f.string("now") {
            guard let instant = Instant(iso: text) else {
                throw .invalid("now", "now must be an ISO 8601 instant such as \"2020-09-10T08:05:00Z\".")
            }
            now = instant
        }
        if let dir = try f.string("zoneinfo") {
            guard ZoneInfo.isDirectory(dir) else { throw .invalid("zoneinfo", "zoneinfo must name a directory of time zone files.") }
            zoneinfo = dir
        }
        if let name = try f.string("timeZone") {
            guard let rules = ZoneInfo.rules(named: name, in: zoneinfo) else {
                throw .invalid("timeZone", "timeZone \"\(NearestName.printable(name))\" is not a time zone file under \(zoneinfo).")
            }
            timeZone = name
            zone = rules
        }
        if let h = try f.bool("hour24") { hour24 = h }
        if let w = try f.string("firstWeekday") {
            guard let day = Weekday(rawValue: w) else {
                throw .invalid("firstWeekday", "firstWeekday must be \"monday\" or \"sunday\".")
            }
            firstWeekday = day
        }
        if let s = try f.object("sources") {
            try ConfigMembers.check(s, known: ConfigMembers.sources)
            sources.visits = try CoreConfig.url(s, "visits")
            sources.articles = try CoreConfig.url(s, "articles")
            sources.catalog = try CoreConfig.url(s, "catalog")
            sources.patterns = try CoreConfig.url(s, "patterns")
            sources.visitUpdates = try CoreConfig.url(s, "visitUpdates")
            sources.locations = try CoreConfig.url(s, "locations")
            sources.attachments = try CoreConfig.url(s, "attachments")
        }
        if let h = try f.object("http") {
            try ConfigMembers.check(h, known: ConfigMembers.http)
            if let t = try h.int("timeoutMs", in: 1...600_000) { http.timeoutMs = Int(t) }
            if let t = try h.int("totalTimeoutMs", in: 1...3_600_000) { http.totalTimeoutMs = Int(t) }
            if let b = try h.int("maxBodyBytes", in: 1...(1 << 40)) { http.maxBodyBytes = b }
            if let r = try h.int("minBytesPerSecond", in: 0...(1 << 40)) { http.minBytesPerSecond = Int(r) }
        }
        if let i = try f.object("images") {
            try ConfigMembers.check(i, known: ConfigMembers.images)
            if let dir = try i.string("directory") {
                guard !dir.isEmpty, !dir.utf8.contains(0) else { throw .invalid(i.path("directory"), "images.directory must be a directory path.") }
                images.directory = dir
            }
            if let m = try i.int("memoryBytes", in: 0...(1 << 40)) { images.memoryBytes = m }
            if let d = try i.int("diskBytes", in: 0...(1 << 46)) { images.diskBytes = d }
            if let c = try i.int("concurrency", in: 1...64) { images.concurrency = Int(c) }
        }
        if let a = try f.object("auth") {
            try ConfigMembers.check(a, known: ConfigMembers.auth)
            auth.origins = try CoreConfig.origins(a, "origins")
        }
        if let a = try f.object("attachments") {
            try ConfigMembers.check(a, known: ConfigMembers.attachments)
            if let dir = try a.string("directory") {
                guard !dir.isEmpty, !dir.utf8.contains(0) else {
                    throw .invalid(a.path("directory"), "attachments.directory must be a directory path.")
                }
                attachments.directory = dir
            }
            if let m = try a.int("maxBytes", in: 1...(1 << 40)) { attachments.maxBytes = m }
            if let q = try a.int("quotaBytes", in: 1...(1 << 50)) { attachments.quotaBytes = q }
        }
        if let m = try f.int("maxRequestBytes", in: 1...(1 << 40)) { maxRequestBytes = Int(m) }
        if let t = try f.int("importThreads", in: 0...64) { importThreads = Int(t) }
        if let r = try f.object("road") { road = try RoadConfig(r) }
    }

    /// An absolute http or https URL, or nil when absent.
    static func url(_ f: Fields, _ key: String) throws(CarFitError) -> String? {
        guard let text = try f.string(key) else { return nil }
        guard HTTPURL.isValid(text) else {
            throw .invalid(f.path(key), "\(f.path(key)) must be an http or https URL.")
        }
        return text
    }

    /// An array of origins (`"https://planner.example:8443"`), or nil when absent; an element
    /// that is not an origin is `invalid` with its path (`auth.origins[1]`).
    static func origins(_ f: Fields, _ key: String) throws(CarFitError) -> [Origin]? {
        guard let items = try f.array(key) else { return nil }
        var origins: [Origin] = []
        for (i, item) in items.enumerated() {
            let field = "\(f.path(key))[\(i)]"
            guard case .string(let text) = item, let origin = Origin(text: text) else {
                throw .invalid(field, "\(field) must be an origin: http or https, a host and an optional port, such as \"https://planner.example:8443\" (no path).")
            }
            origins.append(origin)
        }
        return origins
    }

    /// The clock of this config: `now` if set, else `hostNow`, the host's clock.
    public func clock(hostNow: @escaping @Sendable () -> Instant) throws(CarFitError) -> Clock {
        Clock(zone: zone, zoneName: timeZone, fixedNow: now, hour24: hour24, hostNow: hostNow)
    }
}
