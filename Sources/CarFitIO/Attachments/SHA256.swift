import CCrypto

/// SHA-256 (FIPS 180-4) fed in chunks of any size, on libcrypto's EVP digest: an attachment's
/// digest is computed while its file is copied, never over the whole file in memory.
///
///     let hash = SHA256()
///     hash.update(chunk)
///     let hex = hash.finish()   // 64 lowercase hex digits
public final class SHA256 {
    private let context: OpaquePointer?
    private var ok: Bool

    public init() {
        context = EVP_MD_CTX_new()
        ok = context.map { EVP_DigestInit_ex($0, EVP_sha256(), nil) == 1 } ?? false
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the message.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard ok, let base = bytes.baseAddress, bytes.count > 0 else { return }
        ok = EVP_DigestUpdate(context, base, bytes.count) == 1
    }

    /// Adds `bytes` to the message.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything added, as 64 lowercase hex digits; nil when libcrypto failed.
    /// Call once.
    public func finish() -> String? {
        guard ok else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = digest.withUnsafeMutableBufferPointer { buffer in
            EVP_DigestFinal_ex(context, buffer.baseAddress, &length) == 1
        }
        ok = false
        guard done, length == 32 else { return nil }
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
