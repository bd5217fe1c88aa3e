/// An article id as the source gives it: a whole number or a string.
public enum ArticleID: Sendable, Equatable, Hashable {
    case int(Int64)
    case string(String)
}
