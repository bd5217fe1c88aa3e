import CarFitCore
import CarFitIO

/// Storage: encryption at rest.
public enum StorageAPI {
    /// `storage.rekey`: `{"key": new key | null}` → `{"encrypted"}`; `rekey` puts the stored
    /// data under the key and answers whether it is now encrypted.
    public static func rekey(_ rekey: (EncryptionKey?) throws(CarFitError) -> Bool, _ request: Fields) throws(CarFitError) -> JSON {
        var newKey: EncryptionKey?
        if let text = try request.string("key") {
            // The message never quotes the key.
            guard let key = EncryptionKey(hex: text) else {
                throw .invalid(request.path("key"), "key must be 64 hexadecimal digits (a 256-bit key), or null.")
            }
            newKey = key
        }
        return .obj(["encrypted": .bool(try rekey(newKey))])
    }
}

/// The entry points of the operation table (`Manifest.operations`), one per operation, named
/// after its verb: each picks from the core what the function above needs.
extension StorageAPI {
    public static func rekey(_ context: some OperationContext, _ request: Fields) throws(CarFitError) -> JSON {
        try rekey({ key throws(CarFitError) in try context.rekey(to: key) }, request)
    }
}
