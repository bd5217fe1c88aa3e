import CarFitAPI
import CarFitCore
import CarFitIO
import XCTest

/// What `visits.attach` takes: a file's path, or a note's text checked as a note.
final class AttachmentsAPITests: XCTestCase {
    func testAnAttachRequestNamesWhatIsMissingOrWrong() throws {
        let note = try AttachRequest(Fields(JSONObject(["key": "k", "kind": "note", "text": "Gate code 1234"])))
        XCTAssertEqual(note.text, "Gate code 1234")
        XCTAssertNil(note.file)
        let photo = try AttachRequest(Fields(JSONObject(["key": "k", "kind": "photo", "file": "/tmp/a.jpg", "text": "ignored"])))
        XCTAssertEqual(photo.file, "/tmp/a.jpg")
        XCTAssertNil(photo.text, "only a note takes text")
        for (object, field) in [(JSONObject(["kind": "photo", "file": "/a"]), "key"),
                                (JSONObject(["key": "k", "file": "/a"]), "kind"),
                                (JSONObject(["key": "k", "kind": "photo"]), "file"),
                                (JSONObject(["key": "k", "kind": "note"]), "text"),
                                (JSONObject(["key": "k", "kind": "note", "text": ""]), "text")] {
            XCTAssertThrowsError(try AttachRequest(Fields(object)), "\(object)") { error in
                XCTAssertEqual((error as? CarFitError)?.status, .invalid)
                XCTAssertEqual((error as? CarFitError)?.field, field, "\(object)")
            }
        }
    }
}
