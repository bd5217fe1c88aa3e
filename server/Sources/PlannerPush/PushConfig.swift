import Crypto
import Foundation
import NIOSSL
import _CryptoExtras

/// Where pushes go: `serve --push-config FILE`, a JSON document
/// `{"fcm": {"serviceAccountFile", "baseUrl"?}, "apns": {"keyFile", "keyId", "teamId", "bundleId", "baseUrl"?, "caFile"?}}`;
/// either service may be absent (its pushes stay queued).
///
/// The keys are read once, when the file is loaded, and are held in memory only.
public struct PushConfig: Sendable {
    /// FCM HTTP v1, or nil when the file has no `fcm` member.
    public var fcm: FCMConfig?
    /// APNs, or nil when the file has no `apns` member.
    public var apns: APNsConfig?

    public init() {}

    public init(fcm: FCMConfig?, apns: APNsConfig?) {
        self.fcm = fcm
        self.apns = apns
    }

    /// Reads and checks the file; a missing file or a bad member throws `PushConfigError`.
    /// The error names the member or the file, never a key's content.
    public static func load(path: String) throws -> PushConfig {
        let root = try ConfigReader.object(atPath: path, what: "push config")
        let reader = ConfigReader(object: root, prefix: "", directory: (path as NSString).deletingLastPathComponent)
        try reader.onlyMembers(["fcm", "apns"])
        var config = PushConfig()
        if let fcm = try reader.optionalObject("fcm") {
            config.fcm = try FCMConfig(reading: fcm)
        }
        if let apns = try reader.optionalObject("apns") {
            config.apns = try APNsConfig(reading: apns)
        }
        return config
    }

    /// The platforms this configuration can deliver to (`"fcm"`, `"apns"`).
    public var platforms: Set<String> {
        var set = Set<String>()
        if fcm != nil { set.insert("fcm") }
        if apns != nil { set.insert("apns") }
        return set
    }
}

public struct PushConfigError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// FCM HTTP v1 with a Google service account (the JSON key file the Firebase console gives).
public struct FCMConfig: Sendable {
    /// The service account's `project_id`: the `<project>` of `/v1/projects/<project>/messages:send`.
    public var projectId: String
    /// The service account's `client_email`: the assertion's issuer.
    public var clientEmail: String
    /// The service account's `token_uri`, where access tokens come from.
    public var tokenURI: String
    /// Where messages are sent, without a trailing slash (default `https://fcm.googleapis.com`).
    public var baseURL: String
    let privateKey: _RSA.Signing.PrivateKey

    /// A configuration from a service account's private key in PEM (PKCS #1 or PKCS #8).
    public init(projectId: String, clientEmail: String, tokenURI: String, privateKeyPEM: String,
                baseURL: String = "https://fcm.googleapis.com") throws {
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: privateKeyPEM) else {
            throw PushConfigError("fcm: the service account's private_key is not a PEM RSA private key")
        }
        guard !projectId.isEmpty, projectId.unicodeScalars.allSatisfy(ConfigReader.isPathSafe) else {
            throw PushConfigError("fcm: the service account's project_id has characters a project id cannot have")
        }
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.tokenURI = tokenURI
        self.baseURL = baseURL
        self.privateKey = key
    }

    init(reading reader: ConfigReader) throws {
        try reader.onlyMembers(["serviceAccountFile", "baseUrl"])
        let accountPath = reader.resolve(try reader.string("serviceAccountFile"))
        let baseURL = try reader.optionalURL("baseUrl") ?? "https://fcm.googleapis.com"
        let account = ConfigReader(object: try ConfigReader.object(atPath: accountPath, what: "fcm.serviceAccountFile"),
                                   prefix: "fcm.serviceAccountFile: ", directory: "")
        let projectId = try account.string("project_id")
        let clientEmail = try account.string("client_email")
        let tokenURI = try account.optionalURL("token_uri") ?? "https://oauth2.googleapis.com/token"
        let pem = try account.string("private_key")
        try self.init(projectId: projectId, clientEmail: clientEmail, tokenURI: tokenURI,
                      privateKeyPEM: pem, baseURL: baseURL)
    }
}

/// APNs with a provider token signing key (the `.p8` file from the Apple developer account).
public struct APNsConfig: Sendable {
    /// The key's id (the token header's `kid`).
    public var keyId: String
    /// The developer team's id (the token's `iss`).
    public var teamId: String
    /// The app's bundle id (`apns-topic`).
    public var bundleId: String
    /// Where notifications are sent, without a trailing slash (default `https://api.push.apple.com`).
    public var baseURL: String
    /// Certificates trusted besides the system's (from `caFile`).
    public var extraTrustRoots: [NIOSSLCertificate]
    let privateKey: P256.Signing.PrivateKey

    /// A configuration from the `.p8` key's PEM text.
    public init(keyId: String, teamId: String, bundleId: String, privateKeyPEM: String,
                baseURL: String = "https://api.push.apple.com", extraTrustRoots: [NIOSSLCertificate] = []) throws {
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM) else {
            throw PushConfigError("apns.keyFile: not a PEM P-256 private key (the .p8 file)")
        }
        for (name, value) in [("keyId", keyId), ("teamId", teamId), ("bundleId", bundleId)] {
            guard !value.isEmpty, value.utf8.count <= 200, value.unicodeScalars.allSatisfy(ConfigReader.isTokenCharacter) else {
                throw PushConfigError("apns.\(name): 1 to 200 letters, digits or . _ -")
            }
        }
        self.keyId = keyId
        self.teamId = teamId
        self.bundleId = bundleId
        self.baseURL = baseURL
        self.extraTrustRoots = extraTrustRoots
        self.privateKey = key
    }

    init(reading reader: ConfigReader) throws {
        try reader.onlyMembers(["keyFile", "keyId", "teamId", "bundleId", "baseUrl", "caFile"])
        let keyPath = reader.resolve(try reader.string("keyFile"))
        guard let pem = try? String(contentsOfFile: keyPath, encoding: .utf8) else {
            throw PushConfigError("apns.keyFile: cannot read \(keyPath)")
        }
        var roots: [NIOSSLCertificate] = []
        if let caFile = try reader.optionalString("caFile") {
            let caPath = reader.resolve(caFile)
            guard let certificates = try? NIOSSLCertificate.fromPEMFile(caPath), !certificates.isEmpty else {
                throw PushConfigError("apns.caFile: \(caPath) holds no PEM certificate")
            }
            roots = certificates
        }
        try self.init(keyId: try reader.string("keyId"), teamId: try reader.string("teamId"),
                      bundleId: try reader.string("bundleId"), privateKeyPEM: pem,
                      baseURL: try reader.optionalURL("baseUrl") ?? "https://api.push.apple.com",
                      extraTrustRoots: roots)
    }
}

/// Member checks with errors that name the member.
struct ConfigReader {
    let object: [String: Any]
    let prefix: String
    /// Relative file names are taken from here (the config file's directory).
    let directory: String

    static func object(atPath path: String, what: String) throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PushConfigError("\(what): cannot read \(path)")
        }
        guard data.count <= 1 << 20 else { throw PushConfigError("\(what): \(path) is over 1 MiB") }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw PushConfigError("\(what): \(path) is not a JSON object")
        }
        return object
    }

    func onlyMembers(_ names: Set<String>) throws {
        for key in object.keys.sorted() where !names.contains(key) {
            throw PushConfigError("\(prefix)\(key): unknown member (expected \(names.sorted().joined(separator: ", ")))")
        }
    }

    func optionalObject(_ name: String) throws -> ConfigReader? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let nested = value as? [String: Any] else { throw PushConfigError("\(prefix)\(name): not an object") }
        return ConfigReader(object: nested, prefix: "\(prefix)\(name).", directory: directory)
    }

    func optionalString(_ name: String) throws -> String? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let text = value as? String, !text.isEmpty else {
            throw PushConfigError("\(prefix)\(name): not a non-empty string")
        }
        return text
    }

    func string(_ name: String) throws -> String {
        guard let text = try optionalString(name) else { throw PushConfigError("\(prefix)\(name): missing") }
        return text
    }

    /// An `http://` or `https://` URL with a host, returned without a trailing slash.
    func optionalURL(_ name: String) throws -> String? {
        guard var text = try optionalString(name) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
            throw PushConfigError("\(prefix)\(name): not an http:// or https:// URL")
        }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty { return path }
        return (directory as NSString).appendingPathComponent(path)
    }

    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": return true
        default: return false
        }
    }

    static func isPathSafe(_ scalar: Unicode.Scalar) -> Bool {
        isTokenCharacter(scalar) || scalar == "~"
    }
}
