/// What an attachment proves: a photo of the work, the client's signature, or the washer's
/// note. Its raw value is the request's and the upload's `kind`.
public enum AttachmentKind: String, Sendable, CaseIterable {
    case photo, signature, note

    /// The kind a request names, or `invalid` (field `kind`).
    public static func requested(_ text: String) throws(CarFitError) -> AttachmentKind {
        guard let kind = AttachmentKind(rawValue: text) else {
            throw .invalid("kind", "kind must be \"photo\", \"signature\" or \"note\".")
        }
        return kind
    }
}
