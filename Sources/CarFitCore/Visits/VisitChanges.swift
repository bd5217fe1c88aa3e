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
    /// The tasks one by one as planned (title and minutes, in order); empty for a visit without
    /// tasks, and for one stored before tasks were kept one by one.
    public var plannedTasks: [PlannedTask]

    public init(visitId: String, start: Instant, repetition: Int = 0, name: String, address: String,
                latitude: Double? = nil, longitude: Double? = nil, expectedTime: String? = nil,
                tasks: String = "", taskMinutes: Int = 0, plannedTasks: [PlannedTask] = []) {
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
        self.plannedTasks = plannedTasks
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
        if !VisitOccurrence.sameTasks(self, other) { fields.append(.tasks) }
        return fields
    }

    /// The tasks are the same: the same titles with the same minutes, in the same order. A
    /// task with neither title nor minutes is no task. When one side has no tasks one by one
    /// (stored before they were kept), its card's titles and total minutes are compared.
    static func sameTasks(_ a: VisitOccurrence, _ b: VisitOccurrence) -> Bool {
        guard a.tasks == b.tasks, a.taskMinutes == b.taskMinutes else { return false }
        let x = a.plannedTasks.filter { !$0.title.isEmpty || $0.minutes != 0 }
        let y = b.plannedTasks.filter { !$0.title.isEmpty || $0.minutes != 0 }
        if x.isEmpty || y.isEmpty { return true }
        return x == y
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
        if VisitIdKey(a.visitId) != VisitIdKey(b.visitId) { return VisitChange.utf8Less(a.visitId, b.visitId) }
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
        // Occurrences with the same key (visitId, start, repetition) on both sides always pair
        // up (equal starts pair first with first): while both sides list the same keys in the
        // same order, as an unchanged snapshot read in day order does, they are compared as
        // they come, without grouping.
        var changes: [VisitChange] = []
        var k = 0
        while k < old.count, k < new.count, old[k].start == new[k].start, old[k].repetition == new[k].repetition,
              VisitIdKey(old[k].visitId) == VisitIdKey(new[k].visitId) {
            if counts(new[k].start) {
                let fields = new[k].differences(from: old[k])
                if !fields.isEmpty { changes.append(VisitChange(.updated, new[k], fields: fields)) }
            }
            k += 1
        }
        if k == old.count && k == new.count {
            changes.sort(by: VisitChange.ordered)
            return changes
        }
        return grouped(old: Array(old[k...]), new: Array(new[k...]), counts: counts, into: changes)
    }

    /// The changes of occurrences that do not come in the same order on both sides, after
    /// `changes` (of those that did).
    static func grouped(old: [VisitOccurrence], new: [VisitOccurrence], counts: (Instant) -> Bool,
                        into changes: [VisitChange]) -> [VisitChange] {
        var changes = changes
        // Each visitId's occurrences on both sides, by index: the visitIds numbered as they
        // come, then the indices placed group by group (no occurrence is moved or copied).
        var numbers: [VisitIdKey: Int] = [:]
        numbers.reserveCapacity(max(old.count, new.count))
        func group(_ side: [VisitOccurrence]) -> [Int] {
            side.indices.map { i in
                guard counts(side[i].start) else { return -1 }
                let key = VisitIdKey(side[i].visitId)
                if let n = numbers[key] { return n }
                let n = numbers.count
                numbers[key] = n
                return n
            }
        }
        let oldGroups = group(old), newGroups = group(new)
        let oldByGroup = placed(oldGroups, groups: numbers.count)
        let newByGroup = placed(newGroups, groups: numbers.count)
        var olds: [Int] = [], news: [Int] = []
        var onlyOld: [Int] = [], onlyNew: [Int] = []
        for g in 0..<numbers.count {
            // In (start, repetition) order: equal starts pair up first with first.
            olds.removeAll(keepingCapacity: true)
            news.removeAll(keepingCapacity: true)
            olds.append(contentsOf: oldByGroup.indices[oldByGroup.starts[g]..<oldByGroup.starts[g + 1]])
            news.append(contentsOf: newByGroup.indices[newByGroup.starts[g]..<newByGroup.starts[g + 1]])
            if olds.count > 1 { olds.sort { VisitChanges.before(old[$0], old[$1]) } }
            if news.count > 1 { news.sort { VisitChanges.before(new[$0], new[$1]) } }
            onlyOld.removeAll(keepingCapacity: true)
            onlyNew.removeAll(keepingCapacity: true)
            var i = 0, j = 0
            while i < olds.count || j < news.count {
                if i < olds.count, j < news.count, old[olds[i]].start == new[news[j]].start {
                    let fields = new[news[j]].differences(from: old[olds[i]])
                    if !fields.isEmpty { changes.append(VisitChange(.updated, new[news[j]], fields: fields)) }
                    i += 1
                    j += 1
                } else if i < olds.count, j == news.count || old[olds[i]].start < new[news[j]].start {
                    onlyOld.append(olds[i])
                    i += 1
                } else {
                    onlyNew.append(news[j])
                    j += 1
                }
            }
            if onlyOld.count == 1, onlyNew.count == 1 {
                changes.append(VisitChange(.moved, new[onlyNew[0]], previousStart: old[onlyOld[0]].start))
            } else {
                for o in onlyOld { changes.append(VisitChange(.removed, old[o])) }
                for n in onlyNew { changes.append(VisitChange(.added, new[n])) }
            }
        }
        changes.sort(by: VisitChange.ordered)
        return changes
    }

    /// The indices of `groups` (-1: left out) placed group by group, in their order: group g's
    /// are `indices[starts[g]..<starts[g + 1]]`.
    static func placed(_ groups: [Int], groups count: Int) -> (indices: [Int], starts: [Int]) {
        var starts = [Int](repeating: 0, count: count + 1)
        for g in groups where g >= 0 { starts[g + 1] += 1 }
        for g in 0..<count { starts[g + 1] += starts[g] }
        var next = starts
        var indices = [Int](repeating: 0, count: starts[count])
        for (i, g) in groups.enumerated() where g >= 0 {
            indices[next[g]] = i
            next[g] += 1
        }
        return (indices, starts)
    }

    /// Start, then repetition.
    static func before(_ a: VisitOccurrence, _ b: VisitOccurrence) -> Bool {
        a.start != b.start ? a.start < b.start : a.repetition < b.repetition
    }
}

/// A visitId as a dictionary key that is its bytes: two texts are one visitId only when they
/// are the same bytes (String's own equality would join canonically equivalent ones).
struct VisitIdKey: Hashable {
    let text: String
    init(_ text: String) { self.text = text }

    static func == (a: VisitIdKey, b: VisitIdKey) -> Bool {
        let x = a.text.utf8.span, y = b.text.utf8.span
        guard x.count == y.count else { return false }
        for i in x.indices where x[i] != y[i] { return false }
        return true
    }

    /// String's own hash: the same bytes are the same text, so they hash alike.
    func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
