import CarFitCore

// The day list's parts that `DayListWriter` encodes as values; the API's visits answers are
// these documents too.

extension DaySummary {
    /// `{"visits", "taskMinutes", "distanceMeters", "distanceKm"}`
    public var json: JSON {
        .obj(["visits": .int(Int64(visits)), "taskMinutes": .int(Int64(taskMinutes)),
              "distanceMeters": .int(Int64(distanceMeters)), "distanceKm": .double(DaySummary.kilometres(distanceMeters))])
    }
}

extension AttachmentCounts {
    /// A card's `attachments`: `{"photos", "signatures", "notes", "pending"}`
    public var json: JSON {
        .obj(["photos": .int(Int64(photos)), "signatures": .int(Int64(signatures)), "notes": .int(Int64(notes)),
              "pending": .int(Int64(pending))])
    }
}
