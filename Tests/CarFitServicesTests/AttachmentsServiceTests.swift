import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitServices
import Foundation
import XCTest

/// Proof of work attached to a visit, in process: what an attachment's content type is told by,
/// what its copy and record hold, how it counts on its card, and which requests are refused
/// without storing anything.
final class AttachmentsServiceTests: XCTestCase {
    /// Mads' visit on the sample's 2020-09-10.
    static let key = "ec94deca-d66a-4d62-b049-72414870de00|1599729300000|0"

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0]
        + Array(repeating: (0...255).map(UInt8.init), count: 4).flatMap { $0 }
    static let png: [UInt8] = [0x89] + Array("PNG\r\n\u{1A}\n".utf8) + [0, 0, 0, 0x0D] + Array("IHDR".utf8) + [UInt8](repeating: 0, count: 100)
    static let webp: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 100)
    static let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        + [UInt8](repeating: 0, count: 100)
    static let svg: [UInt8] = [0xEF, 0xBB, 0xBF]
        + Array("<?xml version=\"1.0\"?>\n<!-- signed -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"><path d=\"M0 0L9 9\"/></svg>".utf8)
    static let note = Array("Nøglen ligger under måtten 🔑".utf8)

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A fixture with the sample's visits, and its attachments service keeping its copies in
    /// `store` under the test's directory (none: an in-memory core without a directory).
    func fixture(maxBytes: Int64? = nil, store: Bool = true) throws -> (ServiceFixture, AttachmentsService) {
        let f = try ServiceFixture()
        try f.importVisits(try ServiceFixture.text("carfit.json"))
        var config = CoreConfig.Attachments()
        if let maxBytes { config.maxBytes = maxBytes }
        let copies = store ? directory.appendingPathComponent("store").path : nil
        return (f, AttachmentsService(db: f.db, clock: f.clock, config: config, directory: copies))
    }

    /// A file of the test's directory holding `bytes`.
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func attach(_ service: AttachmentsService, _ members: KeyValuePairs<String, JSON>) throws(CarFitError) -> JSONObject? {
        try AttachmentsAPI.attach(service, Fields(JSONObject(members))).objectValue?["attachment"]?.objectValue
    }

    /// The attachment counts on the card of `key` (on the 10th or the 30th).
    func counts(_ f: ServiceFixture, _ key: String = key) throws -> JSON? {
        let text = try f.list(#"{"dates": ["2020-09-10", "2020-09-30"]}"#).bytes
        guard case .success(let list) = JanssonParser.parse(bytes: text), case .array(let days)? = list.objectValue?["days"]
        else { return nil }
        for day in days {
            guard case .array(let cards)? = day.objectValue?["visits"] else { continue }
            if let card = cards.compactMap(\.objectValue).first(where: { $0["key"] == .string(key) }) {
                XCTAssertEqual(card["pending"], false, "attachments do not make the card pending")
                return card["attachments"]
            }
        }
        return nil
    }

    func testEachContentTypeIsToldByItsFirstBytes() throws {
        let cases: [(AttachmentKind, [UInt8], String, String)] = [
            (.photo, Self.jpeg, "image/jpeg", "03d915f0e42c74a8091b559c0fd323f37f3d8200d67495fd00b176910b5d50de"),
            (.photo, Self.png, "image/png", "667eea27e9ab17763d1c2ad93d594d650cc6fe6de8898e81883990d50efef580"),
            (.photo, Self.webp, "image/webp", "0e7816f4d45b19932d934c6041c2a9614116e01add71f9aac20d0a25f97bb414"),
            (.photo, Self.heic, "image/heic", "ebb100c59ca39a5b598699e92085483cb1258a08d33b170b24e6c9d3e0c59eaa"),
            (.signature, Self.png, "image/png", "667eea27e9ab17763d1c2ad93d594d650cc6fe6de8898e81883990d50efef580"),
            (.signature, Self.svg, "image/svg+xml", "cb145241324de82872e1f234a7a9182d60cd705aeec862fc2434d8b9b19ce60d"),
            (.note, Self.note, "text/plain; charset=utf-8", "f32a500b5663f3787d083c6ee17e41b9362765f60ab6f940c9dba4504878e640"),
        ]
        for (kind, bytes, contentType, sha256) in cases {
            let (f, service) = try fixture()
            let source = try write("misleading-name.txt", bytes)
            let attachment = try XCTUnwrap(try attach(service, ["key": .string(Self.key), "kind": .string(kind.rawValue),
                                                                "file": .string(source)]))
            XCTAssertEqual(attachment["contentType"], .string(contentType), contentType)
            XCTAssertEqual(attachment["bytes"], .int(Int64(bytes.count)), contentType)
            XCTAssertEqual(attachment["sha256"], .string(sha256), contentType)
            XCTAssertEqual(attachment["kind"], .string(kind.rawValue))
            XCTAssertEqual(attachment["key"], .string(Self.key))
            XCTAssertEqual(attachment["uploaded"], false)
            XCTAssertEqual(attachment["at"], "2020-09-10T07:00:00Z")
            // The host may delete its own file at once: the core keeps its copy.
            try FileManager.default.removeItem(atPath: source)
            let listed = try service.list(keyText: Self.key)
            XCTAssertEqual(listed.map(\.id), [attachment["id"]].compactMap { if case .string(let id)? = $0 { id } else { nil } })
            XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: try XCTUnwrap(listed.first?.path)))), bytes)
            let counted: (Int64, Int64, Int64) = kind == .photo ? (1, 0, 0) : kind == .signature ? (0, 1, 0) : (0, 0, 1)
            XCTAssertEqual(try counts(f), .obj(["photos": .int(counted.0), "signatures": .int(counted.1), "notes": .int(counted.2),
                                                "pending": 1]), contentType)
        }
    }

    func testANoteFromText() throws {
        let (_, service) = try fixture()
        let text = "Gate code 4711 — ring twice"
        let note = try XCTUnwrap(try attach(service, ["key": .string(Self.key), "kind": "note", "text": .string(text)]))
        XCTAssertEqual(note["bytes"], 29)
        XCTAssertEqual(note["sha256"], "c2eccba14c0365d440fd13178cef72d49f169f58236384785bb8dc5f40b8a7a7")
        XCTAssertEqual(note["contentType"], "text/plain; charset=utf-8")
        let path = try XCTUnwrap(try service.list(keyText: Self.key).first?.path)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
        let longest = try attach(service, ["key": .string(Self.key), "kind": "note", "text": .string(String(repeating: "é", count: 10_000))])
        XCTAssertEqual(longest?["bytes"], 20_000)
    }

    func testRefusalsStoreNothing() throws {
        let (f, service) = try fixture(maxBytes: 2000)
        let gif = try write("g.jpg", Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 50))
        let jpeg = try write("p.jpg", Self.jpeg)
        let empty = try write("empty.jpg", [])
        let big = try write("big.jpg", Self.jpeg + [UInt8](repeating: 0, count: 2000))
        let latin1 = try write("n.txt", Array("caf".utf8) + [0xE9])
        let fifo = directory.appendingPathComponent("fifo.jpg").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, "no writer: opening it must not hang")
        let key = JSON.string(Self.key)
        let cases: [(KeyValuePairs<String, JSON>, Status, String)] = [
            (["key": "nope|1|0", "kind": "photo", "file": .string(jpeg)], .notFound, "key"),
            (["key": key, "kind": "video", "file": .string(jpeg)], .invalid, "kind"),
            (["key": key, "kind": "photo", "file": .string(gif)], .invalid, "file"),
            (["key": key, "kind": "signature", "file": .string(jpeg)], .invalid, "file"),
            (["key": key, "kind": "photo", "file": .string(empty)], .invalid, "file"),
            (["key": key, "kind": "photo", "file": .string(directory.appendingPathComponent("missing.jpg").path)], .invalid, "file"),
            (["key": key, "kind": "photo", "file": .string(directory.path)], .invalid, "file"),
            (["key": key, "kind": "photo", "file": .string(fifo)], .invalid, "file"),
            (["key": key, "kind": "photo", "file": "/dev/zero"], .invalid, "file"),
            (["key": key, "kind": "photo", "file": .string(big)], .invalid, "file"),
            (["key": key, "kind": "photo"], .invalid, "file"),
            (["key": key, "kind": "note", "text": ""], .invalid, "text"),
            (["key": key, "kind": "note", "text": .string(String(repeating: "x", count: 10_001))], .invalid, "text"),
            (["key": key, "kind": "note", "file": .string(latin1)], .invalid, "file"),
        ]
        for (members, status, field) in cases {
            let error = refusal { () throws(CarFitError) in _ = try attach(service, members) }
            XCTAssertEqual(error?.status, status, "\(members)")
            XCTAssertEqual(error?.field, field, "\(members)")
            XCTAssertFalse(error?.message.isEmpty ?? true)
        }
        XCTAssertEqual(try service.list(keyText: Self.key), [])
        XCTAssertEqual(try counts(f), .obj(["photos": 0, "signatures": 0, "notes": 0, "pending": 0]))
        let stored = directory.appendingPathComponent("store").path
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: stored)) ?? [], [], "no copy left behind")
        XCTAssertEqual(refusal { () throws(CarFitError) in _ = try service.list(keyText: "nope|1|0") }?.status, .notFound)

        // An in-memory core without a directory has no place for them.
        let (_, memory) = try fixture(store: false)
        let none = refusal { () throws(CarFitError) in _ = try attach(memory, ["key": key, "kind": "note", "text": "hi"]) }
        XCTAssertEqual(none?.status, .invalid)
        XCTAssertEqual(none?.field, "attachments.directory")
    }
}
