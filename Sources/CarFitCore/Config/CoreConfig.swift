/// The validated `carfit_open` configuration. Every field is checked when the core opens (the
/// config document's reader, in the API layer), also the ones only later features read, so a
/// bad value is reported at once with its field; a member the library does not know
/// (`ConfigMembers`) is refused, so a typo is never silently ignored.
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
        /// Where the device's push registration is sent (`POST {"clientId", "platform", "token"}`).
        public var devices: String?
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
    /// `encryption.key`: with a key, everything the core stores is encrypted under it.
    public var encryptionKey: EncryptionKey?
    public var now: Instant?
    public var timeZone = "UTC"
    /// The directory of TZif files `timeZone` names one of: the time zone database's default
    /// (`$TZDIR`, else `/usr/share/zoneinfo`) unless the config names one.
    public var zoneinfo: String
    /// The rules of `timeZone`, read from `zoneinfo` when the config is read.
    public var zone = ZoneRules.utc
    public var hour24: Bool
    /// Whether the config gave `hour24` (with a locale, it then picks the locale's 24- or
    /// 12-hour pattern over its usual one).
    public var hour24Given = false
    /// The config's `firstWeekday`, else the locale's first day of the week, else Monday.
    public var firstWeekday = Weekday.monday
    /// The language times, dates and amounts are written in; nil: 1.3's texts.
    public var locale: SupportedLocale?
    /// The currency of every amount (`priceText`, `amountText`, `sumText` with a locale).
    public var currency = DisplayCurrency.usd
    /// How the core writes times, dates and amounts.
    public var display: DisplayLocale {
        DisplayLocale(locale: locale, hour24: hour24, hour24Given: hour24Given, currency: currency)
    }
    public var sources = Sources()
    public var http = HTTP()
    /// `http.timeoutMs`, the wait the image pipeline and the refreshes are given.
    public var timeoutMs: Int { http.timeoutMs }
    public var images = Images()
    public var auth = Auth()
    /// Positions, arrivals and departures.
    public var road = RoadConfig()
    /// The washer's facts and the learned durations.
    public var report = ReportConfig()
    /// The time to leave for each visit.
    public var reminders = RemindersConfig()
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
    /// `zoneinfo` is the time zone database's default directory (`ZoneFiles.defaultDirectory`).
    public init(hour24: Bool, processors: Int, zoneinfo: String = ZoneInfo.systemDirectory) {
        self.hour24 = hour24
        self.zoneinfo = zoneinfo
        importThreads = min(8, max(0, processors))
    }

    /// The clock of this config: `now` if set, else `hostNow`, the host's clock.
    public func clock(hostNow: @escaping @Sendable () -> Instant) throws(CarFitError) -> Clock {
        Clock(zone: zone, zoneName: timeZone, fixedNow: now, hour24: hour24, display: display, hostNow: hostNow)
    }
}
