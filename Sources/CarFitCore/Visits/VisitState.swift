/// The four states the card knows, whatever the source's spelling and case.
public enum VisitState: String, Sendable, CaseIterable {
    case todo = "Todo", inProgress = "InProgress", done = "Done", rejected = "Rejected"

    /// `"ToDo"`, `"todo"`, `"to_do"`, `"In Progress"` … → the canonical state; nil for others.
    public init?(source: String) {
        let letters = String(source.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) })
        switch letters {
        case "todo": self = .todo
        case "inprogress": self = .inProgress
        case "done": self = .done
        case "rejected": self = .rejected
        default: return nil
        }
    }

    public var color: String { colorText.description }

    /// `color` as static text.
    public var colorText: StaticString {
        switch self {
        case .todo: "#4E77D6"
        case .inProgress: "#F5C709"
        case .done: "#25A87B"
        case .rejected: "#EF6565"
        }
    }

    public static let otherColor = otherColorText.description
    public static let otherColorText: StaticString = "#8E8E93"

    /// The card's state text: canonical for the four known states, else as given.
    public static func display(_ source: String?) -> String? {
        guard let source else { return nil }
        return VisitState(source: source)?.rawValue ?? source
    }

    public static func color(of state: String?) -> String {
        colorText(of: state.flatMap(VisitState.init(source:))).description
    }

    /// The colour of a known state, or of any other.
    public static func colorText(of state: VisitState?) -> StaticString { state?.colorText ?? otherColorText }

    /// `VisitState(source:)` of stored text (nil: no state), without building a string for the
    /// canonical spellings the store holds.
    public static func known(utf8: Span<UInt8>) -> VisitState? {
        for (state, spelling) in canonicalUTF8 where equal(spelling, utf8) { return state }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        for i in utf8.indices { bytes.append(utf8[i]) }
        return VisitState(source: String(decoding: bytes, as: UTF8.self))
    }

    private static func equal(_ a: [UInt8], _ b: Span<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in b.indices where a[i] != b[i] { return false }
        return true
    }

    private static let canonicalUTF8: [(VisitState, [UInt8])] = allCases.map { ($0, Array($0.rawValue.utf8)) }
}
