import Crypto
import Foundation
import XCTest
import _CryptoExtras

/// Keys, a service account file, a `.p8` key and a test CA with a server certificate for
/// 127.0.0.1, written to a fresh temporary directory.
struct TestCredentials {
    let directory: URL
    let rsaKey: _RSA.Signing.PrivateKey
    let apnsKey: P256.Signing.PrivateKey
    let clientEmail = "push-sender@test-project.iam.gserviceaccount.com"
    let projectId = "test-project"
    let keyId = "ABC123DEFG"
    let teamId = "TEAM456XYZ"
    let bundleId = "com.example.carfit"

    var serviceAccountPath: String { directory.appendingPathComponent("service-account.json").path }
    var p8Path: String { directory.appendingPathComponent("AuthKey.p8").path }
    var caPath: String { directory.appendingPathComponent("ca.pem").path }
    var serverCertPath: String { directory.appendingPathComponent("server.pem").path }
    var serverKeyPath: String { directory.appendingPathComponent("server.key").path }

    /// One RSA key for the whole run: generating one takes a while.
    static let sharedRSAKey: _RSA.Signing.PrivateKey? = try? _RSA.Signing.PrivateKey(keySize: .bits2048)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("push-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        rsaKey = try XCTUnwrap(Self.sharedRSAKey)
        apnsKey = P256.Signing.PrivateKey()
        try apnsKey.pemRepresentation.write(toFile: p8Path, atomically: true, encoding: .utf8)
    }

    /// The service account JSON as the Firebase console gives it, with `token_uri` pointing at the fake.
    func writeServiceAccount(tokenURI: String) throws {
        let account: [String: Any] = [
            "type": "service_account", "project_id": projectId, "private_key_id": "0123abcd",
            "private_key": rsaKey.pemRepresentation, "client_email": clientEmail, "client_id": "1234567890",
            "token_uri": tokenURI, "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        ]
        try JSONSerialization.data(withJSONObject: account).write(to: URL(fileURLWithPath: serviceAccountPath))
    }

    /// A CA and a certificate for 127.0.0.1 it signed (the `openssl` command line tool).
    func writeCertificates() throws {
        let ext = directory.appendingPathComponent("server.ext").path
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: ext, atomically: true, encoding: .utf8)
        let dir = directory.path
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                          "-keyout", "\(dir)/ca.key", "-out", caPath, "-days", "2", "-subj", "/CN=Push Test CA",
                          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                          "-keyout", serverKeyPath, "-out", "\(dir)/server.csr", "-subj", "/CN=127.0.0.1"])
        try Self.openssl(["x509", "-req", "-in", "\(dir)/server.csr", "-CA", caPath, "-CAkey", "\(dir)/ca.key",
                          "-CAcreateserial", "-out", serverCertPath, "-days", "2", "-extfile", ext])
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("openssl \(arguments.first ?? ""): \(String(decoding: message, as: UTF8.self))")
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A JWT taken apart, its signature checked by the caller.
struct DecodedJWT {
    var header: [String: Any]
    var claims: [String: Any]
    var signingInput: String
    var signature: Data
    var claimsText: String

    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let header = Self.decode(parts[0]), let claims = Self.decode(parts[1]),
              let signature = Self.base64url(parts[2]),
              let headerObject = (try? JSONSerialization.jsonObject(with: header)) as? [String: Any],
              let claimsObject = (try? JSONSerialization.jsonObject(with: claims)) as? [String: Any] else { return nil }
        self.header = headerObject
        self.claims = claimsObject
        self.signingInput = parts[0] + "." + parts[1]
        self.signature = signature
        self.claimsText = String(decoding: claims, as: UTF8.self)
    }

    static func decode(_ part: String) -> Data? { base64url(part) }

    static func base64url(_ part: String) -> Data? {
        guard !part.contains("="), !part.contains("+"), !part.contains("/") else { return nil }
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text)
    }

    /// A claim that is a whole number (JSON integer), or nil.
    func integer(_ name: String) -> Int64? {
        // Written as digits only: no fraction, no exponent.
        guard let start = claimsText.range(of: "\"\(name)\":") else { return nil }
        let digits = claimsText[start.upperBound...].prefix { $0.isASCII && $0.isNumber }
        let next = claimsText[start.upperBound...].dropFirst(digits.count).first
        guard !digits.isEmpty, next == "," || next == "}" else { return nil }
        return Int64(digits)
    }
}
