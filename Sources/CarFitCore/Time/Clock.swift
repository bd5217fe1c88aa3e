import Foundation

/// The core's sense of time: "now" (fixed by the config, else the host's clock), the IANA zone
/// that turns instants into local days and times, and the 12h/24h clock style.
public struct Clock: Sendable {
    public let zone: TimeZone
    public let zoneName: String
    public let fixedNow: Instant?
    public let hour24: Bool
    /// Reads the host's clock when `fixedNow` is nil. The boundary hands it in (the domain reads
    /// no clock itself); a clock with neither stands at the epoch.
    let hostNow: (@Sendable () -> Instant)?

    public init(zoneName: String = "UTC", fixedNow: Instant? = nil, hour24: Bool = true,
                hostNow: (@Sendable () -> Instant)? = nil) throws(CarFitError) {
        guard let zone = Clock.zone(named: zoneName) else {
            throw .invalid("timeZone", "timeZone \"\(zoneName)\" is not a known IANA time zone.")
        }
        self.zone = zone
        self.zoneName = zoneName
        self.fixedNow = fixedNow
        self.hour24 = hour24
        self.hostNow = hostNow
    }

    /// The zone of an IANA name (`"Europe/Copenhagen"`, `"UTC"`), or nil.
    public static func zone(named name: String) -> TimeZone? {
        guard !name.isEmpty, name.utf8.count <= 64 else { return nil }
        return TimeZone(identifier: name)
    }

    public var now: Instant {
        if let fixedNow { return fixedNow }
        return hostNow?() ?? Instant(milliseconds: 0)
    }

    /// The zone's offset from UTC at an instant, in seconds.
    public func offsetSeconds(at instant: Instant) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant.seconds)))
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
        let first = Date(timeIntervalSince1970: Double(firstSecond))
        let last = Date(timeIntervalSince1970: Double(lastSecond))
        let before = zone.secondsFromGMT(for: first)
        let lastOffset = zone.secondsFromGMT(for: last)
        guard let next = zone.nextDaylightSavingTimeTransition(after: first), next <= last else {
            guard lastOffset == before else { return nil }
            return ZoneOffsets(before: before, after: before, switchSecond: lastSecond + 1)
        }
        let at = next.timeIntervalSince1970
        guard at == at.rounded(.down), at > Double(firstSecond), at <= Double(lastSecond) else { return nil }
        let switchSecond = Int64(at)
        if let again = zone.nextDaylightSavingTimeTransition(after: next), again <= last { return nil }
        guard zone.secondsFromGMT(for: next) == lastOffset,
              zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(switchSecond - 1))) == before
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
        let end = Date(timeIntervalSince1970: Double(wide.upperBound / 1000))
        var at = Date(timeIntervalSince1970: Double(wide.lowerBound / 1000))
        var low = zone.secondsFromGMT(for: at)
        var high = low
        var transitions = 0
        while let next = zone.nextDaylightSavingTimeTransition(after: at), next < end {
            transitions += 1
            guard transitions <= 8, next > at else { return wide }
            let offset = zone.secondsFromGMT(for: next)
            low = min(low, offset)
            high = max(high, offset)
            at = next
        }
        let last = zone.secondsFromGMT(for: end)
        low = min(low, last)
        high = max(high, last)
        let dayStart = Int64(date.dayNumber) * 86_400
        let lower = (dayStart - Int64(high) - 3_600) * 1_000
        let upper = (dayStart + 86_400 - Int64(low) + 3_600) * 1_000
        return max(lower, wide.lowerBound)..<min(upper, wide.upperBound)
    }

    /// `"08:05"` in 24h, `"08:05 AM"` in 12h.
    public static func timeText(minuteOfDay: Int, hour24: Bool) -> String {
        var text = [UInt8](repeating: 0, count: timeTextMaxLength)
        let count: Int
        do {
            var b = text.mutableSpan
            count = writeTimeText(minuteOfDay: minuteOfDay, hour24: hour24, into: &b)
        }
        return String(decoding: text[..<count], as: UTF8.self)
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

    public func timeText(_ instant: Instant, hour24: Bool? = nil) -> String {
        Clock.timeText(minuteOfDay: localMinuteOfDay(instant), hour24: hour24 ?? self.hour24)
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
        return Locale(identifier: name).hourCycle != .oneToTwelve && Locale(identifier: name).hourCycle != .zeroToEleven
    }
}
