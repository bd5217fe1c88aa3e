import CarFitAPI
import CarFitCore
import CarFitIO
import CarFitNet
import CarFitServices
import XCTest

/// What `auth.set` takes: the credentials read from the request, an invalid call changing nothing.
final class AuthAPITests: XCTestCase {
    private func parsed(_ text: String) throws(CarFitError) -> Fields { try CatalogAPITests.parsed(text) }

    private func refusal(_ body: () throws(CarFitError) -> Void, file: StaticString = #filePath, line: UInt = #line) -> CarFitError? {
        do throws(CarFitError) {
            try body()
            XCTFail("expected a refusal", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testCredentialsAreCheckedAndAnInvalidCallChangesNothing() throws {
        let service = AuthService(auth: PlannerAuth())
        _ = try AuthAPI.set(service, try parsed(#"{"token": "first", "scheme": "Token"}"#))
        let bad: [(String, String)] = [
            (#"{}"#, "token"), (#"{"token": ""}"#, "token"), (#"{"token": "a b"}"#, "token"),
            (#"{"token": "a\tb"}"#, "token"), (#"{"token": "a\nb"}"#, "token"), (#"{"token": "a\rb"}"#, "token"),
            (#"{"token": "ab\u007f"}"#, "token"), (#"{"token": "æøå"}"#, "token"), (#"{"token": 42}"#, "token"),
            (#"{"token": true}"#, "token"), (#"{"token": ["x"]}"#, "token"),
            (#"{"token": "\#(String(repeating: "x", count: 8193))"}"#, "token"),
            (#"{"token": "ok", "scheme": ""}"#, "scheme"), (#"{"token": "ok", "scheme": "Bear er"}"#, "scheme"),
            (#"{"token": "ok", "scheme": "Bearer:"}"#, "scheme"), (#"{"token": "ok", "scheme": 1}"#, "scheme"),
            (#"{"token": null, "scheme": "a\nb"}"#, "scheme"),
        ]
        for (request, field) in bad {
            let error = refusal { () throws(CarFitError) in _ = try AuthAPI.set(service, try parsed(request)) }
            XCTAssertEqual(error?.status, .invalid, request)
            XCTAssertEqual(error?.field, field, request)
            XCTAssertFalse(error?.message.contains("a b") ?? true, "the message repeats the token")
            XCTAssertEqual(AuthAPI.status(service), .obj(["auth": .obj(["token": true, "scheme": "Token", "required": false,
                                                                 "requiredAt": .null, "source": .null])]), request)
        }
        // The longest token, every printable byte, and the scheme's default on every call.
        let printable = String(decoding: (0x21...0x7E).map { UInt8($0) }, as: UTF8.self)
        XCTAssertTrue(AuthCredentials.isToken(printable))
        XCTAssertTrue(AuthCredentials.isToken(String(repeating: "~", count: 8192)))
        _ = try AuthAPI.set(service, try parsed(#"{"token": "\#(String(repeating: "~", count: 8192))"}"#))
        XCTAssertEqual(service.auth.status.scheme, "Bearer")
        _ = try AuthAPI.set(service, try parsed(#"{"token": null}"#))
        XCTAssertEqual(service.auth.status, PlannerAuth.Status(token: false, scheme: nil, required: false, requiredAt: nil, source: nil))
    }
}
