/// One occurrence of a visit in a stored snapshot, as the planner's changes compare it: its
/// visitId and start (the pair that names the occurrence), its place among the snapshot's
/// records of that pair (`repetition`: the third part of its card key) and the card fields a
/// change names.
public struct VisitOccurrence: Sendable, Equatable {
    public var visitId: String
    public var start: Instant
    public var repetition: Int
    public var name: String
    public var address: String
    public var latitude: Double?
    public var longitude: Double?
    public var expectedTime: String?
    /// The card's tasks (titles in order) and their minutes.
    public var tasks: String
    public var taskMinutes: Int

    public init(visitId: String, start: Instant, repetition: Int = 0, name: String, address: String,
                latitude: Double? = nil, longitude: Double? = nil, expectedTime: String? = nil,
                tasks: String = "", taskMinutes: Int = 0) {
        self.visitId = visitId
        self.start = start
        self.repetition = repetition
        self.name = name
        self.address = address
        self.latitude = latitude
        self.longitude = longitude
        self.expectedTime = expectedTime
        self.tasks = tasks
        self.taskMinutes = taskMinutes
    }

    /// The occurrence's card key.
    public var key: VisitKey { VisitKey(visitId: visitId, start: start, repetition: repetition) }

    /// The compared fields that differ from `other`'s, in `VisitChange.Field` order.
    public func differences(from other: VisitOccurrence) -> [VisitChange.Field] {
        var fields: [VisitChange.Field] = []
        if name != other.name { fields.append(.name) }
        if address != other.address { fields.append(.address) }
        if !VisitOccurrence.same(latitude, other.latitude) || !VisitOccurrence.same(longitude, other.longitude) {
            fields.append(.coordinates)
        }
        if expectedTime != other.expectedTime { fields.append(.expectedTime) }
        if tasks != other.tasks || taskMinutes != other.taskMinutes { fields.append(.tasks) }
        return fields
    }

    /// Two coordinates are the same when both are absent or both are the same number.
    private static func same(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a == b
    }
}

/// A change of the planner's between two stored snapshots, for one visit occurrence.
public struct VisitChange: Sendable, Equatable {
    /// What happened to the occurrence. The raw values are the change's names, whose order
    /// (alphabetical) also orders changes of the same start and visitId.
    public enum Kind: String, Sendable, Comparable, CaseIterable {
        case added, moved, removed, updated
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// A compared card field, in the order `fields` lists them.
    public enum Field: String, Sendable, CaseIterable {
        case name, address, coordinates, expectedTime, tasks
    }

    public var kind: Kind
    public var visitId: String
    /// The new occurrence's key; the old one's for `removed`.
    public var key: VisitKey
    /// The new occurrence's name; the old one's for `removed`.
    public var name: String
    public var start: Instant
    /// The old start of a `moved` visit.
    public var previousStart: Instant?
    /// What an `updated` occurrence changed (else empty).
    public var fields: [Field]
    /// The coordinates of the occurrence the key names (for the notification's links).
    public var latitude: Double?
    public var longitude: Double?

    public init(kind: Kind, visitId: String, key: VisitKey, name: String, start: Instant, previousStart: Instant? = nil,
                fields: [Field] = [], latitude: Double? = nil, longitude: Double? = nil) {
        self.kind = kind
        self.visitId = visitId
        self.key = key
        self.name = name
        self.start = start
        self.previousStart = previousStart
        self.fields = fields
        self.latitude = latitude
        self.longitude = longitude
    }

    init(_ kind: Kind, _ o: VisitOccurrence, previousStart: Instant? = nil, fields: [Field] = []) {
        self.init(kind: kind, visitId: o.visitId, key: o.key, name: o.name, start: o.start, previousStart: previousStart,
                  fields: fields, latitude: o.latitude, longitude: o.longitude)
    }

    /// The order changes are listed in: start, then visitId, then change, then key.
    public static func ordered(_ a: VisitChange, _ b: VisitChange) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.visitId != b.visitId { return VisitChange.utf8Less(a.visitId, b.visitId) }
        if a.kind != b.kind { return a.kind < b.kind }
        return a.key.repetition < b.key.repetition
    }

    /// Byte order of the UTF-8 texts (the same order in every locale).
    static func utf8Less(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}

/// The planner's changes between the snapshot a new one replaces and the new one.
///
/// An occurrence is the pair (visitId, start); a pair found several times counts as many times
/// (their repetitions tell them apart, and pair up in that order). Only occurrences for which
/// `counts` holds take part (today or a later local day), before any pairing. Per visitId: an
/// occurrence only in the new snapshot is `added`, only in the old `removed`, except that one
/// old and one new occurrence, when they are the visitId's only unpaired ones, are one `moved`;
/// an occurrence in both is `updated` when a compared field differs.
public enum VisitChanges {
    public static func compare(old: [VisitOccurrence], new: [VisitOccurrence],
                               counts: (Instant) -> Bool = { _ in true }) -> [VisitChange] {
        var byVisit: [String: (old: [VisitOccurrence], new: [VisitOccurrence])] = [:]
        for o in old where counts(o.start) { byVisit[o.visitId, default: ([], [])].old.append(o) }
        for o in new where counts(o.start) { byVisit[o.visitId, default: ([], [])].new.append(o) }
        var changes: [VisitChange] = []
        for (_, sides) in byVisit {
            compare(visit: sides.old, sides.new, into: &changes)
        }
        changes.sort(by: VisitChange.ordered)
        return changes
    }

    /// The changes of one visitId's occurrences.
    private static func compare(visit old: [VisitOccurrence], _ new: [VisitOccurrence], into changes: inout [VisitChange]) {
        // Each start's occurrences on both sides, in repetition order; the first ones pair up.
        var starts: [Instant: (old: [VisitOccurrence], new: [VisitOccurrence])] = [:]
        for o in old { starts[o.start, default: ([], [])].old.append(o) }
        for o in new { starts[o.start, default: ([], [])].new.append(o) }
        var onlyOld: [VisitOccurrence] = []
        var onlyNew: [VisitOccurrence] = []
        for (_, var sides) in starts {
            sides.old.sort { $0.repetition < $1.repetition }
            sides.new.sort { $0.repetition < $1.repetition }
            let paired = min(sides.old.count, sides.new.count)
            for i in 0..<paired {
                let fields = sides.new[i].differences(from: sides.old[i])
                if !fields.isEmpty { changes.append(VisitChange(.updated, sides.new[i], fields: fields)) }
            }
            onlyOld += sides.old.dropFirst(paired)
            onlyNew += sides.new.dropFirst(paired)
        }
        if onlyOld.count == 1, onlyNew.count == 1 {
            changes.append(VisitChange(.moved, onlyNew[0], previousStart: onlyOld[0].start))
            return
        }
        for o in onlyOld { changes.append(VisitChange(.removed, o)) }
        for o in onlyNew { changes.append(VisitChange(.added, o)) }
    }
}
