/// The core's sense of time: "now" (fixed by the config, else the host's clock), the IANA zone
/// that turns instants into local days and times (its rules read from a time zone database the
/// layer below hands in, `ZoneFiles`),
/// and how times and dates are written (`display`: the locale and the 12h/24h clock style).
public struct Clock: Sendable {
    public let zone: ZoneRules
    public let zoneName: String
    public let fixedNow: Instant?
    /// How times, dates, month titles and amounts are written.
    public let display: DisplayLocale
    /// The clock style without a locale (1.3's `hour24`).
    public var hour24: Bool { display.hour24 }
    /// Reads the host's clock when `fixedNow` is nil. The boundary hands it in (the domain reads
    /// no clock itself); a clock with neither stands at the epoch.
    let hostNow: (@Sendable () -> Instant)?

    /// A clock in zone `zoneName`, whose rules are read from the TZif file of that name under
    /// `zoneinfo` of `files` (`"UTC"` needs none).
    public init(zoneName: String = "UTC", zoneinfo: String, files: any ZoneFiles, fixedNow: Instant? = nil,
                hour24: Bool = true, hostNow: (@Sendable () -> Instant)? = nil) throws(CarFitError) {
        guard let zone = ZoneInfo.rules(named: zoneName, in: zoneinfo, files: files) else {
            throw .invalid("timeZone", "timeZone \"\(zoneName)\" is not a time zone of \(zoneinfo).")
        }
        self.init(zone: zone, zoneName: zoneName, fixedNow: fixedNow, hour24: hour24, hostNow: hostNow)
    }

    /// A clock in a zone whose rules are loaded already.
    public init(zone: ZoneRules, zoneName: String, fixedNow: Instant? = nil, hour24: Bool = true,
                display: DisplayLocale? = nil, hostNow: (@Sendable () -> Instant)? = nil) {
        self.zone = zone
        self.zoneName = zoneName
        self.fixedNow = fixedNow
        self.display = display ?? DisplayLocale(hour24: hour24)
        self.hostNow = hostNow
    }

    public var now: Instant {
        if let fixedNow { return fixedNow }
        return hostNow?() ?? Instant(milliseconds: 0)
    }

    /// The zone's offset from UTC at an instant, in seconds.
    public func offsetSeconds(at instant: Instant) -> Int {
        zone.offset(atSecond: instant.seconds)
    }

    /// Seconds since 1970-01-01T00:00 local wall time.
    public func localSeconds(_ instant: Instant) -> Int64 {
        instant.seconds + Int64(offsetSeconds(at: instant))
    }

    /// The local day of an instant (nil outside years 1–9999).
    public func localDate(_ instant: Instant) -> CivilDate? {
        Clock.date(localSeconds: localSeconds(instant))
    }

    /// Minutes since local midnight of an instant (0–1439).
    public func localMinuteOfDay(_ instant: Instant) -> Int {
        Clock.minuteOfDay(localSeconds: localSeconds(instant))
    }

    /// The day of a local wall time in seconds since 1970-01-01T00:00 (nil outside years 1–9999).
    public static func date(localSeconds s: Int64) -> CivilDate? {
        let days = s >= 0 ? s / 86_400 : (s - 86_399) / 86_400
        return CivilDate(dayNumber: Int(days))
    }

    /// Minutes since midnight (0–1439) of a local wall time in seconds since 1970-01-01T00:00.
    public static func minuteOfDay(localSeconds s: Int64) -> Int {
        let r = s % 86_400
        return Int((r < 0 ? r + 86_400 : r) / 60)
    }

    /// The zone's offsets over the instants of `range` (ms since the epoch) when they change at
    /// most once there: `before` for whole seconds below `switchSecond`, `after` from it on
    /// (both the same, and `switchSecond` past the range, when they do not change). Nil when
    /// the zone changes more than once in the range or its answers do not bear that out.
    public func offsets(over range: Range<Int64>) -> ZoneOffsets? {
        guard !range.isEmpty else { return nil }
        let firstSecond = Instant(milliseconds: range.lowerBound).seconds
        let lastSecond = Instant(milliseconds: range.upperBound - 1).seconds
        let before = zone.offset(atSecond: firstSecond)
        let lastOffset = zone.offset(atSecond: lastSecond)
        guard let switchSecond = zone.nextTransition(after: firstSecond), switchSecond <= lastSecond else {
            guard lastOffset == before else { return nil }
            return ZoneOffsets(before: before, after: before, switchSecond: lastSecond + 1)
        }
        if let again = zone.nextTransition(after: switchSecond), again <= lastSecond { return nil }
        guard zone.offset(atSecond: switchSecond) == lastOffset,
              zone.offset(atSecond: switchSecond - 1) == before
        else { return nil }
        return ZoneOffsets(before: before, after: lastOffset, switchSecond: switchSecond)
    }

    public var today: CivilDate? { localDate(now) }

    /// A UTC range in milliseconds that surely contains every instant whose local day is `date`
    /// (offsets stay within ±18 hours); callers filter exactly with `localDate`.
    public static func searchRange(for date: CivilDate) -> Range<Int64> {
        let start = (Int64(date.dayNumber) - 1) * 86_400_000
        return start..<(start + 3 * 86_400_000)
    }

    /// A UTC range in milliseconds that contains every instant whose local day is `date`, as
    /// tight as the zone's offsets around that day allow: the offsets at both ends of the wide
    /// `searchRange(for:)` and after every transition between them bound it, with an hour to
    /// spare. Callers still filter exactly with `localDate`; the range only spares them the
    /// neighbouring days.
    public func dayRange(for date: CivilDate) -> Range<Int64> {
        let wide = Clock.searchRange(for: date)
        let end = wide.upperBound / 1000
        var at = wide.lowerBound / 1000
        var low = zone.offset(atSecond: at)
        var high = low
        var transitions = 0
        while let next = zone.nextTransition(after: at), next < end {
            transitions += 1
            guard transitions <= 8, next > at else { return wide }
            let offset = zone.offset(atSecond: next)
            low = min(low, offset)
            high = max(high, offset)
            at = next
        }
        let last = zone.offset(atSecond: end)
        low = min(low, last)
        high = max(high, last)
        let dayStart = Int64(date.dayNumber) * 86_400
        let lower = (dayStart - Int64(high) - 3_600) * 1_000
        let upper = (dayStart + 86_400 - Int64(low) + 3_600) * 1_000
        return max(lower, wide.lowerBound)..<min(upper, wide.upperBound)
    }

    /// `"08:05"` in 24h, `"08:05 AM"` in 12h.
    public static func timeText(minuteOfDay: Int, hour24: Bool) -> String {
        // Written on the stack, then into a small string (at most 8 bytes, held inline): no
        // allocation.
        var bytes = InlineArray<8, UInt8>(repeating: 0)
        let count: Int
        do {
            var b = bytes.mutableSpan
            count = writeTimeText(minuteOfDay: minuteOfDay, hour24: hour24, into: &b)
        }
        var text = ""
        for k in 0..<min(count, 8) { text.unicodeScalars.append(Unicode.Scalar(bytes[k])) }
        return text
    }

    /// The longest `timeText`.
    public static let timeTextMaxLength = 8

    /// Writes `timeText` into `b` (at least `timeTextMaxLength` bytes) and answers its length.
    public static func writeTimeText(minuteOfDay: Int, hour24: Bool, into b: inout MutableSpan<UInt8>) -> Int {
        guard b.count >= timeTextMaxLength else { return 0 }
        let m = ((minuteOfDay % 1440) + 1440) % 1440
        let hour = m / 60
        let minute = m % 60
        let h = hour24 ? hour : (hour % 12 == 0 ? 12 : hour % 12)
        putDigits(h, 2, &b, 0)
        b[2] = UInt8(ascii: ":")
        putDigits(minute, 2, &b, 3)
        if hour24 { return 5 }
        b[5] = UInt8(ascii: " ")
        b[6] = UInt8(ascii: hour < 12 ? "A" : "P")
        b[7] = UInt8(ascii: "M")
        return 8
    }

    /// The local time of day of an instant as `display` writes it; `hour24` a clock style the
    /// request chose.
    public func timeText(_ instant: Instant, hour24: Bool? = nil) -> String {
        display.timeText(minuteOfDay: localMinuteOfDay(instant), hour24: hour24)
    }

    /// Whether the process locale uses a 24-hour clock: the first set of `LC_ALL`, `LC_TIME`,
    /// `LANG` names the locale (`en_US.UTF-8` → 12h, `en_GB`/`da_DK` → 24h, by the locale's own
    /// convention); `C`, `POSIX` or none → 24h.
    public static func localeUses24Hour(environment: [String: String]) -> Bool {
        var name = ""
        for key in ["LC_ALL", "LC_TIME", "LANG"] {
            if let v = environment[key], !v.isEmpty { name = v; break }
        }
        if let dot = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = String(name[..<dot]) }
        if name.isEmpty || name == "C" || name == "POSIX" { return true }
        let parts = name.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let language = parts.first else { return true }
        if parts.count >= 2, let region = parts.last, region.count == 2 {
            return !twelveHourRegions.contains(region.uppercased())
        }
        // A language without a region: its most populous one's convention.
        return !twelveHourLanguages.contains(language.lowercased())
    }

    /// The regions whose preferred clock is the 12-hour one (CLDR's time data).
    static let twelveHourRegions: Set<String> = [
        "AE", "AG", "AL", "AS", "AU", "BB", "BD", "BH", "BM", "BN", "BS", "BT", "CA", "CO", "DJ", "DM",
        "DO", "DZ", "EG", "EH", "ER", "ET", "FJ", "FM", "GD", "GH", "GM", "GU", "GY", "HK", "IN", "IQ",
        "JM", "JO", "KI", "KN", "KR", "KW", "KY", "LB", "LC", "LR", "LS", "LY", "MH", "MO", "MP", "MR",
        "MW", "MY", "NA", "NZ", "OM", "PA", "PG", "PH", "PK", "PR", "PS", "QA", "SA", "SB", "SD", "SL",
        "SO", "SS", "SY", "SZ", "TC", "TD", "TN", "TO", "TT", "TW", "UM", "US", "VC", "VG", "VI", "VU",
        "WS", "YE", "ZM",
    ]

    /// Languages whose most populous region uses the 12-hour clock.
    static let twelveHourLanguages: Set<String> = ["en", "ar", "hi", "bn", "ur", "ko", "fil", "ms"]
}
