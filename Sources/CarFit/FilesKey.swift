import CarFitCore
import CarFitSystem
import CarFitStore

/// The key the files beside the database (the attachments' copies) are sealed under: 32 random
/// bytes drawn when the database is first encrypted and kept in it (`meta`), so they are only
/// ever on disk encrypted, and a change of the database's key leaves the sealed files as they
/// are. A database made plaintext again keeps it, to read a sealed file a crash left behind.
enum FilesKey {
    static let metaKey = "files_key"

    /// The stored key, nil when there is none.
    static func load(_ db: Database) throws(CarFitError) -> [UInt8]? {
        let rows = try db.query("SELECT value FROM meta WHERE key = ?", [.text(metaKey)])
        guard let first = rows.first?.first, case .text(let hex) = first, let key = EncryptionKey(hex: hex) else { return nil }
        return key.bytes
    }

    /// The stored key, drawn and stored first when there is none.
    static func ensure(_ db: Database) throws(CarFitError) -> [UInt8] {
        if let key = try load(db) { return key }
        var random = KernelRandom()
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for _ in 0..<4 {
            let word = random.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex = ""
        for b in bytes {
            hex.unicodeScalars.append(Unicode.Scalar(digits[Int(b >> 4)]))
            hex.unicodeScalars.append(Unicode.Scalar(digits[Int(b & 15)]))
        }
        try db.run("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", [.text(metaKey), .text(hex)])
        return try load(db) ?? bytes
    }
}
