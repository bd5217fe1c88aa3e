import CarFitCore

/// An article's tags between the documents (the source's, the list's answer) and the domain.
extension ArticleTag {
    /// The tag of a document value, as it is.
    public init(_ value: JSON) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .string(let s): self = .string(s)
        case .array(let items): self = .array(items.map(ArticleTag.init))
        case .object(let o): self = .object(o.members.map { Member($0.key, ArticleTag($0.value)) })
        }
    }

    /// The tag as a document value.
    public var json: JSON {
        switch self {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map(\.json))
        case .object(let members):
            var o = JSONObject(minimumCapacity: members.count)
            for m in members { o[m.name] = m.value.json }
            return .object(o)
        }
    }
}

extension ArticleBlock {
    /// The block as answered: `{"type", "subject", "description"}`.
    public var json: JSON {
        .obj(["type": .str(type), "subject": .str(subject), "description": .str(description)])
    }
}

extension ArticleID {
    /// The id as answered: the number or the string the source gave.
    public var json: JSON {
        switch self {
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        }
    }
}
