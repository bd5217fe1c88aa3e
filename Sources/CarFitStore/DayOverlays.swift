import CarFitCore

/// Which of the tables a day's cards are overlaid from hold anything at all: the washer's
/// shown changes (`visit_local`), arrivals (`road_arrivals`), attachments. One query per
/// `visits.list` call; a table found empty is not queried for each day.
public struct DayOverlays: Sendable, Equatable {
    public var shown: Bool
    public var arrivals: Bool
    public var attachments: Bool
    /// Unacknowledged conflicts (`visit_conflicts`).
    public var conflicts: Bool
    /// Visits a snapshot no longer lists kept for their work (`visits_removed`).
    public var removed: Bool

    public init(shown: Bool = true, arrivals: Bool = true, attachments: Bool = true, conflicts: Bool = true,
                removed: Bool = true) {
        self.shown = shown
        self.arrivals = arrivals
        self.attachments = attachments
        self.conflicts = conflicts
        self.removed = removed
    }

    /// The stored tables' presence, read in one statement.
    public static func read(_ db: Database) throws(CarFitError) -> DayOverlays {
        let s = try db.statement("""
            SELECT EXISTS (SELECT 1 FROM visit_local WHERE shown_state IS NOT NULL),
                   EXISTS (SELECT 1 FROM road_arrivals), EXISTS (SELECT 1 FROM attachments),
                   EXISTS (SELECT 1 FROM visit_conflicts), EXISTS (SELECT 1 FROM visits_removed)
            """)
        defer { s.reset() }
        guard try s.step() else { return DayOverlays() }
        return DayOverlays(shown: s.int(0) != 0, arrivals: s.int(1) != 0, attachments: s.int(2) != 0,
                           conflicts: s.int(3) != 0, removed: s.int(4) != 0)
    }
}
