import CarFitCore

extension JSON {
    /// The same value, carrying its encoded text so that encoding it again is a copy of bytes:
    /// for a document a cache hands out many times. Only objects carry it; other values come
    /// back as they are. Changing the object drops the text.
    public func keepingEncoding() -> JSON {
        guard case .object(var object) = self else { return self }
        object.encoding = encodedBytes()
        return .object(object)
    }

    /// Compact UTF-8 JSON text. Reals use the shortest text that reads back as the same double
    /// (so 472.08 prints as `472.08`); non-finite reals, which JSON cannot carry, print as `null`.
    public func encoded() -> String {
        String(decoding: encodedBytes(), as: UTF8.self)
    }

    /// The same text as UTF-8 bytes.
    public func encodedBytes() -> [UInt8] {
        var buffer = JSONBuffer()
        encode(into: &buffer)
        return buffer.bytes
    }

    /// Appends the text to `out`.
    public func encode(into out: inout JSONBuffer) {
        switch self {
        case .null: out.append(JSON.nullText)
        case .bool(let b): out.append(b ? JSON.trueText : JSON.falseText)
        case .int(let i): out.appendInt(i)
        case .double(let d): out.appendDouble(d)
        case .string(let s): out.appendString(s)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            items.withUnsafeBufferPointer { items in
                for i in items.indices {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    items[i].encode(into: &out)
                }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if let text = object.encoding {
                text.withUnsafeBytes { out.append($0) }
                return
            }
            out.append(UInt8(ascii: "{"))
            object.members.withUnsafeBufferPointer { members in
                for i in members.indices {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    out.appendString(members[i].key)
                    out.append(UInt8(ascii: ":"))
                    members[i].value.encode(into: &out)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static let nullText: StaticString = "null"
    static let trueText: StaticString = "true"
    static let falseText: StaticString = "false"
}

