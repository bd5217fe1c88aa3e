/// One task of a visit as the planner planned it: its title, trimmed (empty when the record
/// gives none), and its planned minutes (0 when the record gives none).
public struct PlannedTask: Sendable, Hashable {
    public var title: String
    public var minutes: Int

    public init(title: String, minutes: Int) {
        self.title = title
        self.minutes = minutes
    }
}
