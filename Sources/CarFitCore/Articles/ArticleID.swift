/// An article id as the source gives it: a whole number or a string.
public enum ArticleID: Sendable, Equatable, Hashable {
    case int(Int64)
    case string(String)

    public var json: JSON {
        switch self {
        case .int(let i): .int(i)
        case .string(let s): .string(s)
        }
    }
}
