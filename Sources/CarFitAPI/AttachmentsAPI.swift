import CarFitCore
import CarFitIO
import CarFitServices

/// A visit's photos, signatures and notes: `visits.attach`, `visits.attachments`, `visits.detach`.
public enum AttachmentsAPI {
    public static func attach(_ service: AttachmentsService, _ request: Fields) throws(CarFitError) -> JSON {
        let r = try AttachRequest(request)
        let attachment = try service.attach(keyText: r.key, kind: r.kind, text: r.text, file: r.file)
        return .obj(["attachment": attachment.json(withPath: false)])
    }

    public static func list(_ service: AttachmentsService, _ request: Fields) throws(CarFitError) -> JSON {
        let found = try service.list(keyText: try request.requiredString("key"))
        // A sealed copy holds ciphertext: no path to it (carfit_visits_attachment_data reads it).
        let sealed = service.directory?.seal.sealsNew ?? false
        return .obj(["attachments": .array(found.map { attachment in
            var shown = attachment
            if sealed { shown.path = nil }
            return shown.json(withPath: true)
        })])
    }

    /// `carfit_visits_attachment_data`: `{"id"}` → the stored copy's original bytes, read
    /// holding `lock`.
    public static func data(_ service: AttachmentsService, _ request: Fields, lock: some Serializer) throws(CarFitError) -> (bytes: [UInt8], response: JSON) {
        let id = try request.requiredString("id")
        let (attachment, bytes) = try lock.locked { () throws(CarFitError) in try service.data(id: id) }
        return (bytes, .obj(["id": .string(attachment.id), "bytes": .int(Int64(bytes.count)),
                             "contentType": .string(attachment.contentType)]))
    }

    public static func detach(_ service: AttachmentsService, _ request: Fields) throws(CarFitError) -> JSON {
        .obj(["attachment": try service.detach(id: try request.requiredString("id")).json(withPath: false)])
    }
}

/// `visits.attach`: `{"key", "kind", "file"}` or, for a note, `{"key", "kind": "note", "text"}`
/// (a note may be a file of UTF-8 text too). A note's text must be a note (`NoteText`).
public struct AttachRequest: APIRequest {
    public var key: String
    public var kind: AttachmentKind
    public var text: String?
    public var file: String?

    public init(_ f: Fields) throws(CarFitError) {
        key = try f.requiredString("key")
        kind = try AttachmentKind.requested(try f.requiredString("kind"))
        text = kind == .note ? try f.string("text") : nil
        file = text == nil ? try f.string("file") : nil
        if text == nil && file == nil {
            throw CarFitError.invalid(kind == .note ? "text" : "file",
                                      kind == .note ? "A note needs its text (or a file of UTF-8 text)." : "A \(kind.rawValue) needs the path of its file.")
        }
        if let text {
            var note = NoteText.Validator()
            note.feed(Array(text.utf8).span)
            if let problem = note.problem { throw .invalid("text", problem) }
        }
    }
}

extension Attachment {
    /// `{"id", "key", "kind", "contentType", "bytes", "sha256", "at", "uploaded"}`, then
    /// `"failed": reason` when refused, then `"path"` when `withPath`.
    public func json(withPath: Bool) -> JSON {
        var object = JSONObject([
            "id": .string(id),
            "key": .string(key.text),
            "kind": .string(kind.rawValue),
            "contentType": .string(contentType),
            "bytes": .int(bytes),
            "sha256": .string(sha256),
            "at": .string(OutboxMutation.iso(at)),
            "uploaded": .bool(status == .uploaded),
        ])
        if status == .failed { object["failed"] = .string(failure ?? "refused") }
        if withPath { object["path"] = .str(path) }
        return .object(object)
    }
}
