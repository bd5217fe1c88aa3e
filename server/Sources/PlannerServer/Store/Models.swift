/// A washer: who the washer's API serves.
public struct Washer: Sendable, Equatable {
    public var id: String
    public var name: String
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// A visit's state as the server keeps it; the snapshot writes the seed's spelling.
public enum VisitState: String, Sendable, CaseIterable {
    case todo = "Todo"
    case inProgress = "InProgress"
    case done = "Done"
    case rejected = "Rejected"

    /// Any spelling of a state ("ToDo", "todo", "in progress"), or nil.
    public init?(spelling: String) {
        let letters = String(spelling.lowercased().unicodeScalars.filter { $0 >= "a" && $0 <= "z" })
        switch letters {
        case "todo": self = .todo
        case "inprogress": self = .inProgress
        case "done": self = .done
        case "rejected": self = .rejected
        default: return nil
        }
    }

    /// The seed's own spelling (`ToDo`, `InProgress`, `Done`, `Rejected`).
    public var seedName: String { self == .todo ? "ToDo" : rawValue }

    /// The washer's allowed changes: Todo → InProgress or Rejected; InProgress → Done, Rejected
    /// or Todo (an undone start). Nothing leaves Done or Rejected.
    public func allows(_ next: VisitState) -> Bool {
        switch (self, next) {
        case (.todo, .inProgress), (.todo, .rejected), (.inProgress, .done), (.inProgress, .rejected), (.inProgress, .todo):
            return true
        default:
            return false
        }
    }
}

/// One of the washer's changes as a visit-updates request carries it.
public struct Mutation: Sendable, Equatable {
    public var mutationId: String
    public var visitId: String?
    public var startMs: Int64
    public var state: VisitState
    public var atMs: Int64
    public var timeUsedMinutes: Int64?
    public var reason: String?
    public init(mutationId: String, visitId: String?, startMs: Int64, state: VisitState, atMs: Int64,
                timeUsedMinutes: Int64? = nil, reason: String? = nil) {
        self.mutationId = mutationId
        self.visitId = visitId
        self.startMs = startMs
        self.state = state
        self.atMs = atMs
        self.timeUsedMinutes = timeUsedMinutes
        self.reason = reason
    }
}

/// What the server answered a mutation the first time: applied (`reason` nil) or rejected.
public struct MutationAnswer: Sendable, Equatable {
    public var mutationId: String
    public var reason: String?
    public var applied: Bool { reason == nil }
}

/// One of the washer's positions.
public struct Point: Sendable, Equatable {
    public var id: String
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double
    public var atMs: Int64
    public init(id: String, latitude: Double, longitude: Double, accuracyMeters: Double, atMs: Int64) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.accuracyMeters = accuracyMeters
        self.atMs = atMs
    }
}

/// A visit as stored: the planner's record and what the washer's updates made of it.
public struct VisitRow: Sendable, Equatable {
    public var visitId: String
    public var startMs: Int64
    public var washerId: String
    /// The planner's record (the seed's members), without the server's state.
    public var record: [String: JSON]
    public var state: VisitState
    public var timeUsedMinutes: Int64?
    public var cancelled: Bool
    public var startedMs: Int64?
    public var finishedMs: Int64?
    /// Attachments received for it (filled by the day view).
    public var attachments: Int = 0

    public init(visitId: String, startMs: Int64, washerId: String, record: [String: JSON], state: VisitState,
                timeUsedMinutes: Int64? = nil, cancelled: Bool = false, startedMs: Int64? = nil, finishedMs: Int64? = nil) {
        self.visitId = visitId
        self.startMs = startMs
        self.washerId = washerId
        self.record = record
        self.state = state
        self.timeUsedMinutes = timeUsedMinutes
        self.cancelled = cancelled
        self.startedMs = startedMs
        self.finishedMs = finishedMs
    }

    /// The record in the seed's shape, as the snapshot and the planner's API give it.
    public var seedRecord: JSON {
        var members = record
        members["visitId"] = .string(visitId)
        members["startTimeUtc"] = .string(Instant.format(startMs))
        members["homeBobEmployeeId"] = .string(washerId)
        members["visitState"] = .string(state.seedName)
        if state == .done, let timeUsedMinutes { members["visitTimeUsed"] = .int(timeUsedMinutes) }
        return .object(members)
    }

    /// The card's name: the owner's first and last name.
    public var name: String { VisitRow.join([record["houseOwnerFirstName"], record["houseOwnerLastName"]]) }
    /// The card's address: street, zip and city.
    public var address: String {
        VisitRow.join([record["houseOwnerAddress"], record["houseOwnerZip"], record["houseOwnerCity"]])
    }

    static func join(_ parts: [JSON?]) -> String {
        parts.compactMap { $0?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Each task's trimmed title and planned minutes, in the record's order.
    public var tasks: [(title: String, minutes: Double)] {
        (record["tasks"]?.arrayValue ?? []).map { task in
            ((task["title"]?.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines),
             max(0, task["timesInMinutes"]?.numberValue ?? 0))
        }
    }
}

/// An attachment received.
public struct AttachmentRecord: Sendable, Equatable {
    public var id: String
    public var washerId: String
    public var visitId: String
    public var startMs: Int64
    public var kind: String
    public var contentType: String
    public var bytes: Int64
    public var sha256: String
    /// The file's name under the files directory.
    public var file: String

    public var json: JSON {
        .object(["id": .string(id), "visitId": .string(visitId), "startTimeUtc": .string(Instant.format(startMs)),
                 "kind": .string(kind), "contentType": .string(contentType), "bytes": .int(bytes), "sha256": .string(sha256)])
    }
}

/// A washer's newest position.
public struct Position: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double
    public var atMs: Int64
    public var json: JSON {
        .object(["latitude": .double(latitude), "longitude": .double(longitude),
                 "accuracyMeters": .double(accuracyMeters), "at": .string(Instant.format(atMs))])
    }
}

/// A washer's line of the day view.
public struct DayWasher: Sendable {
    public var washer: Washer
    public var lastPosition: Position?
    public var visits: [VisitRow]
}

/// A push as the planner's listing shows it.
public struct PushRow: Sendable, Equatable {
    public var id: String
    public var platform: String
    public var seq: Int64
    public var state: String
    public var attempts: Int64
    public var lastError: String?
    public var clientId: String
}

/// Why the store refused a request (each becomes an HTTP status).
public enum StoreRefusal: Error, Equatable, Sendable {
    /// The clientId belongs to another washer (403).
    case clientOfAnotherWasher
    /// The thing is already there (409), with a message.
    case conflict(String)
    /// No such thing (404), with a message.
    case notFound(String)
    /// A member names something that does not exist (400), with the member and a message.
    case invalid(field: String, message: String)
}

import Foundation
