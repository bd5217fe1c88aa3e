import CarFitCore
import CarFitStore

/// The day list's answers as the host last asked them, kept ready: the text of a `visits.list`
/// answer is served again while the database is unchanged, and a day the host showed is written
/// again right after the washer changes one of its cards (`VisitsAPI.renew`), so the host's
/// re-render after each change costs a copy of bytes.
///
/// Every answer is tied to the database's change stamp (`Database.ChangeStamp`: any write
/// through this core's connection, any commit by another connection or process changes it), and
/// is served only under the same stamp: a stale answer cannot be served. A first ask only
/// remembers the request (so a host paging through days pays nothing for the cache); the text is
/// kept when the same request comes again, or when a renewal writes it after a change.
///
/// Not thread-safe by itself: the core serialises the operations that use it.
public final class DayAnswers {
    /// What an answer depends on besides the stored data (the core's clock is fixed for its life;
    /// anything else the text comes to depend on, such as a display language, belongs here).
    public struct Key: Hashable, Sendable {
        public var dates: [CivilDate]
        public var employeeId: String?
        public var hour24: Bool?

        public init(dates: [CivilDate], employeeId: String?, hour24: Bool?) {
            self.dates = dates
            self.employeeId = employeeId
            self.hour24 = hour24
        }
    }

    private struct Entry {
        var key: Key
        /// The stamp the text was written under (nil: not kept yet).
        var stamp: Database.ChangeStamp?
        var text: [UInt8]
    }

    /// The requests asked most recently, the latest last.
    private var entries: [Entry] = []

    /// Requests remembered at most.
    static let capacity = 8
    /// The largest answer kept, in bytes (a day of about a thousand cards).
    static let maxTextBytes = 1 << 20

    public init() {}

    /// What `lookup` found for a request.
    public enum Lookup {
        /// The answer's text, kept under the present stamp.
        case kept([UInt8])
        /// Asked before, but its text is stale or was not kept: worth keeping once written.
        case again
        /// Not asked recently.
        case first
    }

    /// The text kept for `key` under `stamp`, else whether it was asked before; either way
    /// `key` becomes the latest ask.
    public func lookup(_ key: Key, at stamp: Database.ChangeStamp) -> Lookup {
        guard let i = entries.lastIndex(where: { $0.key == key }) else {
            if entries.count >= DayAnswers.capacity { entries.removeFirst() }
            entries.append(Entry(key: key, stamp: nil, text: []))
            return .first
        }
        let entry = entries.remove(at: i)
        entries.append(entry)
        return entry.stamp == stamp ? .kept(entry.text) : .again
    }

    /// Keeps `text` as the answer of `key` under `stamp` (when `key` is remembered and the text
    /// not too large).
    public func keep(_ key: Key, at stamp: Database.ChangeStamp, text: [UInt8]) {
        guard let i = entries.lastIndex(where: { $0.key == key }) else { return }
        let fits = text.count <= DayAnswers.maxTextBytes
        entries[i].stamp = fits ? stamp : nil
        entries[i].text = fits ? text : []
    }

    /// The remembered requests of the one day `date` (the day a host shows), the latest first,
    /// at most `limit`: those written again after a change of that day.
    public func shown(_ date: CivilDate, limit: Int = 2) -> [Key] {
        Array(entries.reversed().lazy.filter { $0.key.dates == [date] }.map(\.key).prefix(limit))
    }

    /// Forgets the text of `key` (a renewal that failed).
    public func drop(_ key: Key) {
        guard let i = entries.lastIndex(where: { $0.key == key }) else { return }
        entries[i].stamp = nil
        entries[i].text = []
    }
}
