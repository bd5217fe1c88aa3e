import CarFitCore

/// The update server's wire format: the body of one push request, and its answer read back.
///
/// The request: `{"clientId", "mutations": [{"mutationId", "visitId", "startTimeUtc", "state",
/// "at", "timeUsedMinutes", "reason"}, ...]}`, instants as `OutboxMutation.iso` writes them
/// (UTC, with milliseconds when they have any), `visitId`, `timeUsedMinutes` and `reason` null
/// when absent. The answer: `{"applied": [mutationId…], "rejected": [{"mutationId", "reason"}]}`.
extension PushRequest {
    /// The request's JSON document.
    public var json: JSON {
        .obj(["clientId": .string(clientId), "mutations": .array(mutations.map(\.json))])
    }

    /// The request's body: its document as UTF-8 text.
    public var body: [UInt8] { json.encodedBytes() }
}

extension OutboxMutation {
    /// `{"mutationId", "visitId", "startTimeUtc", "state", "at", "timeUsedMinutes", "reason"}`
    /// as the push body carries it.
    public var json: JSON {
        .obj([
            "mutationId": .string(mutationId),
            "visitId": .str(visitId),
            "startTimeUtc": .string(OutboxMutation.iso(start)),
            "state": .string(state.rawValue),
            "at": .string(OutboxMutation.iso(at)),
            "timeUsedMinutes": .int(timeUsedMinutes),
            "reason": .str(reason),
        ])
    }
}

/// An answer of a server that is not what its request expects; `what` says why in a phrase
/// ("is not JSON", "has no applied array").
public struct MalformedAnswer: Error, Sendable, Equatable {
    public var what: String
    public init(_ what: String) { self.what = what }
}

extension PushAnswer {
    /// The answer in a 200 body, or `MalformedAnswer` saying what is wrong: not JSON, not an
    /// object with the two arrays, a member of the wrong type, or an id both applied and
    /// rejected. `reason` may be null or missing (`defaultReason`); extra members are ignored.
    public init(answer body: [UInt8]) throws(MalformedAnswer) {
        guard case .success(let json) = JanssonParser.parse(bytes: body) else { throw MalformedAnswer("is not JSON") }
        try self.init(json: json)
    }

    /// The answer's parsed document (see `init(answer:)`).
    public init(json: JSON) throws(MalformedAnswer) {
        guard case .object(let object) = json else { throw MalformedAnswer("is not a JSON object") }
        guard case .array(let appliedValues)? = object["applied"] else { throw MalformedAnswer("has no applied array") }
        guard case .array(let rejectedValues)? = object["rejected"] else { throw MalformedAnswer("has no rejected array") }
        var applied: [String] = []
        applied.reserveCapacity(appliedValues.count)
        for value in appliedValues {
            guard case .string(let id) = value else { throw MalformedAnswer("lists an applied id that is not a string") }
            applied.append(id)
        }
        var rejected: [Rejected] = []
        rejected.reserveCapacity(rejectedValues.count)
        for value in rejectedValues {
            guard case .object(let entry) = value, case .string(let id)? = entry["mutationId"] else {
                throw MalformedAnswer("lists a rejection without a mutationId string")
            }
            switch entry["reason"] {
            case nil, .null?: rejected.append(Rejected(mutationId: id, reason: PushAnswer.defaultReason))
            case .string(let reason)?: rejected.append(Rejected(mutationId: id, reason: reason))
            default: throw MalformedAnswer("gives a rejection reason that is not a string")
            }
        }
        let appliedSet = Set(applied)
        if let both = rejected.first(where: { appliedSet.contains($0.mutationId) }) {
            throw MalformedAnswer("names mutation \(both.mutationId.prefix(64)) both applied and rejected")
        }
        self.init(applied: applied, rejected: rejected)
    }
}

/// The location server's wire format: the body of one request of the trail's points, and the
/// ids its answer applied.
///
/// The request: `{"clientId", "points": [{"id", "latitude", "longitude", "accuracyMeters",
/// "at"}]}`; the answer: `{"applied": [id…]}`.
public enum LocationPushWire {
    /// One request's body.
    public static func body(clientId: String, points: [(id: String, report: LocationReport)]) -> [UInt8] {
        let items = points.map { point -> JSON in
            .obj(["id": .string(point.id), "latitude": .double(point.report.latitude),
                  "longitude": .double(point.report.longitude), "accuracyMeters": .double(point.report.accuracyMeters),
                  "at": .string(OutboxMutation.iso(point.report.at))])
        }
        return JSON.obj(["clientId": .string(clientId), "points": .array(items)]).encodedBytes()
    }

    /// The ids a 200 answer applied, or `MalformedAnswer`: not `{"applied": [strings]}`.
    public static func applied(_ body: [UInt8]) throws(MalformedAnswer) -> [String] {
        guard case .success(let json) = JanssonParser.parse(bytes: body),
              case .array(let items)? = json.objectValue?["applied"] else {
            throw MalformedAnswer("is not {\"applied\": [ids]}")
        }
        var ids: [String] = []
        ids.reserveCapacity(items.count)
        for item in items {
            guard case .string(let id) = item else { throw MalformedAnswer("names a point by something other than its id") }
            ids.append(id)
        }
        return ids
    }
}
