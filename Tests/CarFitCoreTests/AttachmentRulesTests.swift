import XCTest
@testable import CarFitCore

final class AttachmentRulesTests: XCTestCase {
    private func type(_ bytes: [UInt8], _ kind: AttachmentKind) -> String? {
        ContentSniffer.contentType(of: bytes.span, kind: kind)
    }

    private func ftyp(_ major: String, compatible: [String] = []) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        var box: [UInt8] = [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
        for brand in compatible { box += Array(brand.utf8) }
        return box + [0, 0, 0, 8] + Array("meta".utf8)
    }

    func testPhotosByTheirFirstBytes() {
        XCTAssertEqual(type([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], .photo), "image/jpeg")
        XCTAssertEqual(type([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .photo), "image/png")
        XCTAssertEqual(type(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8), .photo), "image/webp")
        for brand in ["heic", "heix", "mif1", "msf1"] {
            XCTAssertEqual(type(ftyp(brand), .photo), "image/heic", brand)
            XCTAssertEqual(type(ftyp("isom", compatible: ["abcd", brand]), .photo), "image/heic", brand)
        }
        XCTAssertNil(type(ftyp("isom", compatible: ["mp41"]), .photo), "an MP4 is no photo")
        XCTAssertNil(type(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8), .photo))
        XCTAssertNil(type([0xFF, 0xD8], .photo), "a cut JPEG signature")
        XCTAssertNil(type(Array("GIF89a".utf8), .photo))
        XCTAssertNil(type(Array("<svg xmlns='x'/>".utf8), .photo), "an SVG is a signature, not a photo")
        XCTAssertNil(type([], .photo))
    }

    func testSignaturesArePNGOrSVG() {
        XCTAssertEqual(type([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .signature), "image/png")
        XCTAssertEqual(type(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .signature), "image/svg+xml")
        let decorated = [0xEF, 0xBB, 0xBF] + Array("""
            \n  <?xml version="1.0" encoding="UTF-8"?>
            <!-- drawn on the card -->\t<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">
            <svg>
            """.utf8)
        XCTAssertEqual(type(decorated, .signature), "image/svg+xml")
        XCTAssertNil(type([0xFF, 0xD8, 0xFF, 0xE0], .signature), "a JPEG is no signature")
        XCTAssertNil(type(Array("<html><svg></svg></html>".utf8), .signature), "svg must be the root")
        XCTAssertNil(type(Array("<svgfoo>".utf8), .signature))
        XCTAssertNil(type(Array("<!-- never closed <svg>".utf8), .signature))
        XCTAssertNil(type(Array("hello <svg>".utf8), .signature))
        XCTAssertNil(type(Array("  ".utf8), .signature))
    }

    func testNoteText() {
        func check(_ bytes: [UInt8], chunk: Int = 1) -> NoteText.Validator {
            var v = NoteText.Validator()
            var i = 0
            while i < bytes.count {
                let end = min(bytes.count, i + chunk)
                v.feed(Array(bytes[i..<end]).span)
                i = end
            }
            return v
        }
        let text = "Cl\u{E9} sous le paillasson 🔑"
        let v = check(Array(text.utf8))
        XCTAssertNil(v.problem)
        XCTAssertEqual(v.scalars, text.unicodeScalars.count)
        XCTAssertEqual(check(Array(text.utf8), chunk: 1000).scalars, text.unicodeScalars.count)
        XCTAssertNotNil(check([]).problem, "empty")
        XCTAssertNotNil(check([0xC3]).problem, "cut sequence")
        XCTAssertNotNil(check([0xC0, 0x80]).problem, "overlong")
        XCTAssertNotNil(check([0xED, 0xA0, 0x80]).problem, "surrogate")
        XCTAssertNotNil(check([0xF4, 0x90, 0x80, 0x80]).problem, "past U+10FFFF")
        XCTAssertNotNil(check([0x41, 0xFF]).problem)
        XCTAssertNil(check(Array(repeating: 0x61, count: 10_000)).problem)
        XCTAssertNotNil(check(Array(repeating: 0x61, count: 10_001)).problem)
        XCTAssertNil(check(Array(String(repeating: "é", count: 10_000).utf8), chunk: 7).problem)
    }

    func testQuotaEvictsUploadedOldestFirstOnlyAsNeeded() {
        let uploaded = [AttachmentQuota.Stored(id: "a", bytes: 40), .init(id: "b", bytes: 30), .init(id: "c", bytes: 20)]
        // 10 pending + 90 uploaded + 5 new = 105 > 100: evicting "a" alone is enough.
        XCTAssertEqual(AttachmentQuota.plan(adding: 5, pendingBytes: 10, uploaded: uploaded, quotaBytes: 100), .evict(["a"]))
        XCTAssertEqual(AttachmentQuota.plan(adding: 0, pendingBytes: 10, uploaded: uploaded, quotaBytes: 100), .evict([]))
        XCTAssertEqual(AttachmentQuota.plan(adding: 45, pendingBytes: 10, uploaded: uploaded, quotaBytes: 100), .evict(["a", "b"]))
        XCTAssertEqual(AttachmentQuota.plan(adding: 90, pendingBytes: 10, uploaded: uploaded, quotaBytes: 100), .evict(["a", "b", "c"]))
        XCTAssertEqual(AttachmentQuota.plan(adding: 91, pendingBytes: 10, uploaded: uploaded, quotaBytes: 100), .overQuota)
        XCTAssertEqual(AttachmentQuota.plan(adding: .max, pendingBytes: 10, uploaded: [], quotaBytes: .max), .overQuota)
    }

    func testUploadVerdicts() {
        for status in [200, 201, 204, 299] { XCTAssertEqual(UploadVerdict(status: status), .uploaded) }
        for status in [400, 404, 409, 413, 415, 422, 499] { XCTAssertEqual(UploadVerdict(status: status), .refused, "\(status)") }
        for status in [401, 403, 408, 429, 500, 502, 503, 301, 100] {
            XCTAssertEqual(UploadVerdict(status: status), .retryLater, "\(status)")
        }
    }
}
