import Crypto
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import XCTest
@testable import PlannerServer

final class AttachmentTests: XCTestCase, @unchecked Sendable {
    static func hex(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    func headers(_ token: String, bytes: [UInt8], sha: String? = nil, visit: String = "v1",
                 start: String = "2026-03-02T10:00:00Z", length: Bool = true) -> HTTPFields {
        var h = auth(token, [.contentType: "image/png"])
        if length { h[.contentLength] = "\(bytes.count)" }
        if let name = HTTPField.Name("X-Carfit-Sha256") { h[name] = sha ?? Self.hex(bytes) }
        if let name = HTTPField.Name("X-Carfit-Visit-Id") { h[name] = visit }
        if let name = HTTPField.Name("X-Carfit-Start-Time-Utc") { h[name] = start }
        if let name = HTTPField.Name("X-Carfit-Kind") { h[name] = "photo" }
        return h
    }

    func files(_ h: Harness) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: h.files)) ?? []).sorted()
    }

    func testUploadOnceConflictAndRefusals() async throws {
        let h = try await Harness.make()
        let (ada, token) = try await h.washer("Ada")
        let (bob, bobToken) = try await h.washer("Bob")
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        _ = try await h.visit("b1", washer: bob, start: "2026-03-02T10:00:00Z", index: 1)
        let photo: [UInt8] = [0x89, 0x50, 0x4E, 0x47] + (0..<5000).map { UInt8($0 % 251) }
        try await h.app.test(.router) { client in
            let put = try await client.execute(uri: "/v1/attachments/a1", method: .put, headers: self.headers(token, bytes: photo),
                                               body: ByteBuffer(bytes: photo))
            XCTAssertEqual(put.status, .created)
            let expected: JSON = ["attachment": ["id": "a1", "visitId": "v1", "startTimeUtc": "2026-03-02T10:00:00Z", "kind": "photo",
                                                 "contentType": "image/png", "bytes": .int(Int64(photo.count)), "sha256": .string(Self.hex(photo))]]
            XCTAssertEqual(put.json, expected)
            XCTAssertEqual(self.files(h), ["a1.\(Self.hex(photo))"])
            let kept = try Data(contentsOf: URL(fileURLWithPath: h.files + "/a1.\(Self.hex(photo))"))
            XCTAssertEqual(Array(kept), photo)
            let again = try await client.execute(uri: "/v1/attachments/a1", method: .put, headers: self.headers(token, bytes: photo),
                                                 body: ByteBuffer(bytes: photo))
            XCTAssertEqual(again.status, .ok)
            XCTAssertEqual(again.json, expected)
            var other = photo
            other[10] ^= 1
            let conflict = try await client.execute(uri: "/v1/attachments/a1", method: .put, headers: self.headers(token, bytes: other),
                                                    body: ByteBuffer(bytes: other))
            XCTAssertEqual(conflict.status, .conflict)
            let mismatch = try await client.execute(uri: "/v1/attachments/a2", method: .put,
                                                    headers: self.headers(token, bytes: photo, sha: Self.hex(other)), body: ByteBuffer(bytes: photo))
            XCTAssertEqual(mismatch.status, .unprocessableContent)
            XCTAssertEqual(mismatch.json["error"]?["status"], .int(422))
            let notHers = try await client.execute(uri: "/v1/attachments/a3", method: .put,
                                                   headers: self.headers(token, bytes: photo, visit: "b1"), body: ByteBuffer(bytes: photo))
            XCTAssertEqual(notHers.status, .unprocessableContent)
            let noVisit = try await client.execute(uri: "/v1/attachments/a3", method: .put,
                                                   headers: self.headers(token, bytes: photo, start: "2026-03-02T10:00:01Z"), body: ByteBuffer(bytes: photo))
            XCTAssertEqual(noVisit.status, .unprocessableContent)
            let noLength = try await client.execute(uri: "/v1/attachments/a4", method: .put,
                                                    headers: self.headers(token, bytes: photo, length: false), body: nil)
            XCTAssertEqual(noLength.status, .lengthRequired)
            var huge = self.headers(token, bytes: photo)
            huge[.contentLength] = "\((64 << 20) + 1)"
            let tooBig = try await client.execute(uri: "/v1/attachments/a5", method: .put, headers: huge, body: nil)
            XCTAssertEqual(tooBig.status, .contentTooLarge)
            var badSha = self.headers(token, bytes: photo)
            if let name = HTTPField.Name("X-Carfit-Sha256") { badSha[name] = "xyz" }
            let refused = try await client.execute(uri: "/v1/attachments/a6", method: .put, headers: badSha, body: ByteBuffer(bytes: photo))
            XCTAssertEqual(refused.status, .badRequest)
            let badId = try await client.execute(uri: "/v1/attachments/..%2Fescape", method: .put, headers: self.headers(token, bytes: photo),
                                                 body: ByteBuffer(bytes: photo))
            XCTAssertEqual(badId.status, .badRequest)
            let bobs = try await client.execute(uri: "/v1/attachments/a1", method: .put, headers: self.headers(bobToken, bytes: photo, visit: "b1"),
                                                body: ByteBuffer(bytes: photo))
            XCTAssertEqual(bobs.status, .conflict, "another washer's id is not theirs to take")
            let anonymous = try await client.execute(uri: "/v1/attachments/a7", method: .put, headers: [:], body: ByteBuffer(bytes: photo))
            XCTAssertEqual(anonymous.status, .unauthorized)
            // Nothing but the first upload was kept.
            XCTAssertEqual(self.files(h), ["a1.\(Self.hex(photo))"])
            let day = try await client.execute(uri: "/v1/planner/day?date=2026-03-02", method: .get, headers: auth(adminToken))
            XCTAssertEqual(day.json["washers"]?.arrayValue?.first?["visits"]?.arrayValue?.first?["attachments"], .int(1))
        }
    }

    /// A live server: the body arrives in many chunks and is written as it comes.
    func testStreamedUploadOverTheNetwork() async throws {
        let h = try await Harness.make()
        let (ada, token) = try await h.washer("Ada")
        _ = try await h.visit("v1", washer: ada, start: "2026-03-02T10:00:00Z")
        let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await h.app.test(.live) { client in
            let put = try await client.execute(uri: "/v1/attachments/big", method: .put, headers: self.headers(token, bytes: big),
                                               body: ByteBuffer(bytes: big))
            XCTAssertEqual(put.status, .created)
            XCTAssertEqual(put.json["attachment"]?["bytes"], .int(Int64(big.count)))
        }
        XCTAssertEqual(files(h), ["big.\(Self.hex(big))"])
    }
}
