import CarFitCore

extension CarFitError {
    /// The error document: `{"error": {"code", "message", "field"?, "httpStatus"?, "reason"?,
    /// "url"?, "line"?, "column"?, "position"?, "documentField"?, "rejected"?, "lockedUntil"?}}`,
    /// each optional member present when the error says it (`reason` and `httpStatus` from the
    /// details, else from the cause).
    public var document: JSON {
        var error = JSONObject()
        error["code"] = .string(status.name)
        error["message"] = .string(message)
        if let field { error["field"] = .string(field) }
        if let status = httpStatus { error["httpStatus"] = .int(Int64(status)) }
        if let reason { error["reason"] = .string(reason) }
        if let url = details.url { error["url"] = .string(url) }
        if let at = details.position {
            error["line"] = .int(Int64(at.line))
            error["column"] = .int(Int64(at.column))
            error["position"] = .int(Int64(at.offset))
        }
        if let documentField = details.documentField { error["documentField"] = .string(documentField) }
        if let rejected = details.rejected { error["rejected"] = .array(rejected.map(\.json)) }
        if let until = details.lockedUntil { error["lockedUntil"] = .string(until.iso) }
        return .obj(["error": .object(error)])
    }
}

extension Rejection {
    /// `{"index", "field", "message"}`: one record an import skipped, as its answer and its
    /// error document list it.
    public var json: JSON { .obj(["index": .int(Int64(index)), "field": .str(field), "message": .string(message)]) }
}
